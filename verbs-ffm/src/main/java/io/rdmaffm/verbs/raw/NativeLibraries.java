package io.rdmaffm.verbs.raw;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.SymbolLookup;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/**
 * Finds the three native libraries: the system's libibverbs.so.1 and librdmacm.so.1 (never shipped), and
 * the shim packaged in this jar under META-INF/native/&lt;os&gt;-&lt;arch&gt;/, extracted once per content hash
 * so concurrent JVMs and upgrades never see a half-written file. {@code -Drdmaffm.shim.path=FILE} overrides.
 */
public final class NativeLibraries {
    private NativeLibraries() {
    }

    public static final String SHIM_NAME = "librdmaffm_shim.so";

    /** Thrown when a library cannot be loaded; the message says what to install. */
    public static final class MissingLibraryError extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        MissingLibraryError(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private static final class Ibverbs {
        static final SymbolLookup LOOKUP = load("libibverbs.so.1",
                "libibverbs.so.1 not found: install rdma-core's user space (Debian/Ubuntu: apt-get install libibverbs1 ibverbs-providers)");
    }

    private static final class Rdmacm {
        static final SymbolLookup LOOKUP = load("librdmacm.so.1",
                "librdmacm.so.1 not found: install librdmacm (Debian/Ubuntu: apt-get install librdmacm1)");
    }

    private static final class Shim {
        static final SymbolLookup LOOKUP = loadShim();
    }

    public static SymbolLookup ibverbs() {
        return Ibverbs.LOOKUP;
    }

    public static SymbolLookup rdmacm() {
        return Rdmacm.LOOKUP;
    }

    public static SymbolLookup shim() {
        return Shim.LOOKUP;
    }

    private static SymbolLookup load(String soname, String advice) {
        try {
            return SymbolLookup.libraryLookup(soname, Arena.global());
        } catch (IllegalArgumentException e) {
            throw new MissingLibraryError(advice, e);
        }
    }

    /** The shim's folder in this jar: linux-x86_64 or linux-aarch64 (the two built), else what the JVM says. */
    public static String platform() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String osPart = os.contains("linux") ? "linux" : os.replaceAll("[^a-z0-9]", "");
        return osPart + "-" + arch();
    }

    /** The JVM's architecture in the GNU triplet's spelling: x86_64, aarch64 (Grace), else os.arch as is. */
    public static String arch() {
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        return switch (arch) {
            case "amd64", "x86_64" -> "x86_64";
            case "aarch64", "arm64" -> "aarch64";
            default -> arch;
        };
    }

    private static SymbolLookup loadShim() {
        // libibverbs first, so the shim's DT_NEEDED resolves to the same copy.
        ibverbs();
        String override = System.getProperty("rdmaffm.shim.path");
        Path path = override != null ? Path.of(override) : extractShim();
        try {
            return SymbolLookup.libraryLookup(path, Arena.global());
        } catch (IllegalArgumentException e) {
            throw new MissingLibraryError("cannot load the native shim " + path + ": " + e.getMessage(), e);
        }
    }

    private static Path extractShim() {
        String resource = "/META-INF/native/" + platform() + "/" + SHIM_NAME;
        byte[] bytes;
        try (InputStream in = NativeLibraries.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new MissingLibraryError("no native shim for platform " + platform()
                        + " in this jar (expected " + resource + "); build it from source with Maven on this platform",
                        null);
            }
            bytes = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
        String hash;
        try {
            hash = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes), 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        Path base = Path.of(System.getProperty("rdmaffm.native.dir",
                System.getProperty("java.io.tmpdir") + "/rdma-ffm-native-" + System.getProperty("user.name", "user")));
        Path dir = base.resolve(hash);
        Path target = dir.resolve(SHIM_NAME);
        try {
            if (Files.isRegularFile(target) && Files.size(target) == bytes.length) {
                return target;
            }
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, "shim", ".tmp");
            Files.write(tmp, bytes);
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot extract the native shim to " + dir
                    + " (set -Drdmaffm.native.dir to a writable directory)", e);
        }
    }
}
