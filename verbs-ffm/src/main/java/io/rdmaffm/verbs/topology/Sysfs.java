package io.rdmaffm.verbs.topology;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * Reads sysfs (and the few procfs files the model needs) below a root directory, turning every failure
 * into a {@link Reading} with a short reason instead of an exception.
 *
 * <p>The root is {@code /} on a live host; tests and users may point it at a captured tree. Paths are
 * given relative to the root ({@code "sys/class/infiniband"}). Symbolic links are followed, but a link
 * that resolves outside the root is refused: a captured tree with absolute links would otherwise read
 * the capturing host's sysfs.
 */
public final class Sysfs {

    /** sysfs attributes are at most a page; anything larger is not an attribute and is cut off here. */
    public static final int MAX_FILE_BYTES = 64 * 1024;

    /**
     * How file contents are fetched. The default reads the file system; a replacement can simulate
     * what a fixture tree cannot, such as {@code EINVAL} from a kernel attribute or permission errors
     * when the tests run as root.
     */
    @FunctionalInterface
    public interface FileAccess {
        /**
         * @param file the absolute file to read
         * @return its bytes (at most {@link #MAX_FILE_BYTES})
         * @throws IOException as the read would fail
         */
        byte[] read(Path file) throws IOException;
    }

    private final Path root;
    private final Path realRoot;
    private final FileAccess access;

    /**
     * @param root the directory that stands for {@code /}
     */
    public Sysfs(Path root) {
        this(root, Sysfs::readFile);
    }

    /**
     * @param root   the directory that stands for {@code /}
     * @param access how to read file contents
     */
    public Sysfs(Path root, FileAccess access) {
        this.root = Objects.requireNonNull(root, "root").toAbsolutePath().normalize();
        Path real;
        try {
            real = this.root.toRealPath();
        } catch (IOException e) {
            real = this.root;
        }
        this.realRoot = real;
        this.access = Objects.requireNonNull(access, "access");
    }

    /** @return the root directory, absolute */
    public Path root() {
        return root;
    }

    /**
     * @param relative a path relative to the root; a leading {@code /} is ignored
     * @return the absolute path below the root
     */
    public Path path(String relative) {
        String r = relative;
        while (r.startsWith("/")) {
            r = r.substring(1);
        }
        return root.resolve(r);
    }

    /**
     * @param file an absolute path below the root
     * @return the path relative to the root, with a leading {@code /}, for messages
     */
    public String display(Path file) {
        Path abs = file.toAbsolutePath().normalize();
        if (abs.startsWith(root)) {
            return "/" + root.relativize(abs);
        }
        if (abs.startsWith(realRoot)) {
            return "/" + realRoot.relativize(abs);
        }
        return abs.toString();
    }

    /**
     * Reads a text attribute, trimmed of surrounding white space.
     *
     * @param file the file
     * @return its text, or why it could not be read; an empty file is reported as unknown
     */
    public Reading<String> text(Path file) {
        Reading<byte[]> b = bytes(file);
        if (!b.known()) {
            return Reading.unknown(b.problem());
        }
        String s = new String(b.value(), StandardCharsets.UTF_8).strip();
        if (s.isEmpty()) {
            return Reading.unknown(display(file) + ": empty");
        }
        return Reading.of(s);
    }

    /**
     * @param file the file
     * @return its raw bytes, or why they could not be read
     */
    public Reading<byte[]> bytes(Path file) {
        try {
            return Reading.of(access.read(file));
        } catch (IOException | RuntimeException e) {
            return Reading.unknown(display(file) + ": " + reason(e));
        }
    }

    /**
     * Resolves all symbolic links of a path.
     *
     * @param p the path
     * @return the real path, or why it cannot be resolved (missing, loop, outside the root)
     */
    public Reading<Path> realPath(Path p) {
        try {
            Path real = p.toRealPath();
            if (!real.startsWith(realRoot)) {
                return Reading.unknown(display(p) + ": symbolic link leads outside the sysfs root");
            }
            return Reading.of(real);
        } catch (IOException | RuntimeException e) {
            return Reading.unknown(display(p) + ": " + reason(e));
        }
    }

    /**
     * Lists a directory's entry names, sorted.
     *
     * @param dir the directory
     * @return the names, or why the directory cannot be listed
     */
    public Reading<List<String>> list(Path dir) {
        // The JDK opens a directory without O_DIRECTORY before reading it: a FIFO where a directory should be
        // would block that open forever, so anything that is not a directory is refused first.
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            return Reading.unknown(display(dir) + ": not a directory");
        }
        List<String> names = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path p : ds) {
                names.add(p.getFileName().toString());
                if (names.size() > 100_000) {
                    break;
                }
            }
        } catch (IOException | RuntimeException e) {
            return Reading.unknown(display(dir) + ": " + reason(e));
        }
        Collections.sort(names);
        return Reading.of(List.copyOf(names));
    }

    /**
     * @param p the path
     * @return whether it exists (following links; a dangling link or loop does not exist)
     */
    public boolean exists(Path p) {
        return Files.exists(p);
    }

    /**
     * @param p the path
     * @return whether it is a symbolic link (even a dangling or looping one)
     */
    public boolean isLink(Path p) {
        return Files.isSymbolicLink(p);
    }

    /**
     * Quotes a value read from a file for a message: control characters escaped, long values cut.
     *
     * @param s the text
     * @return the quoted text
     */
    public static String quote(String s) {
        StringBuilder b = new StringBuilder("'");
        int n = 0;
        for (int i = 0; i < s.length() && n < 60; i++, n++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || c == '\ufffd') {
                b.append(String.format("\\x%02x", (int) c & 0xff));
            } else {
                b.append(c);
            }
        }
        if (s.length() > 60) {
            b.append("...");
        }
        return b.append('\'').toString();
    }

    /**
     * Maps an I/O failure to the short reason a user can act on.
     *
     * @param e the failure
     * @return e.g. {@code "missing"}, {@code "permission denied"}, {@code "symbolic link loop"}
     */
    static String reason(Exception e) {
        if (e instanceof NoSuchFileException) {
            return "missing";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof FileSystemLoopException) {
            return "symbolic link loop";
        }
        if (e instanceof NotDirectoryException) {
            return "not a directory";
        }
        if (e instanceof FileSystemException fse) {
            String r = fse.getReason();
            if (r != null) {
                if (r.contains("Too many levels of symbolic links") || r.contains("Too many symbolic links")) {
                    return "symbolic link loop";
                }
                return r;
            }
        }
        String m = e.getMessage();
        return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
    }

    private static byte[] readFile(Path file) throws IOException {
        // A FIFO or device node in a captured tree would block or stream forever; sysfs attributes are
        // regular files, so anything else is refused before opening.
        if (Files.isDirectory(file)) {
            throw new FileSystemException(file.toString(), null, "is a directory");
        }
        if (!Files.isRegularFile(file)) {
            if (Files.exists(file, LinkOption.NOFOLLOW_LINKS) && !Files.exists(file)) {
                // a link whose target is missing or loops: let the open report which
                Files.newInputStream(file).close();
            }
            if (Files.exists(file)) {
                throw new FileSystemException(file.toString(), null, "not a regular file");
            }
        }
        try (InputStream in = Files.newInputStream(file)) {
            return in.readNBytes(MAX_FILE_BYTES);
        }
    }
}
