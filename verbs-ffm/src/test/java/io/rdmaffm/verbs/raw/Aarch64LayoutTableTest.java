package io.rdmaffm.verbs.raw;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The Java layouts, computed as on an aarch64 JVM (Grace: GH200/GB200), against the table of the cross-built
 * linux-aarch64 shim, which native-shim's build dumps by running it under qemu-user (rdmaffm_layout_dump).
 * An x86_64 JVM cannot load that shim, so this runs in its own surefire execution with os.arch=aarch64:
 * the one input from which the Java side derives the architecture ({@link NativeLibraries#arch()}).
 * Skips, with the reason, where the build had no cross compiler or no qemu-aarch64, unless
 * -Drdmaffm.aarch64.required=true (CI), which makes a missing table a failure.
 */
class Aarch64LayoutTableTest extends LayoutTableChecks {
    private static final int EM_X86_64 = 62;
    private static final int EM_AARCH64 = 183;

    private static LayoutTable table;
    private static int abi;

    @BeforeAll
    static void readDump() throws IOException {
        assumeTrue("aarch64".equals(NativeLibraries.arch()), "runs in verbs-ffm's aarch64-layouts surefire "
                + "execution (os.arch=aarch64), not under " + NativeLibraries.arch());
        String where = System.getProperty("rdmaffm.aarch64.table", "");
        Path dump = Path.of(where);
        if (!where.isEmpty() && Files.isRegularFile(dump)) {
            parse(Files.readAllLines(dump));
            return;
        }
        String reason = "no aarch64 layout table at '" + where + "': native-shim's build needs aarch64-linux-gnu-gcc, "
                + "libibverbs-dev:arm64 and qemu-user (scripts/aarch64-check.sh)";
        if (Boolean.getBoolean("rdmaffm.aarch64.required")) {
            throw new AssertionError(reason);
        }
        Assumptions.abort(reason);
    }

    private static void parse(List<String> lines) {
        Map<String, Long> sizes = new LinkedHashMap<>();
        Map<String, Long> offsets = new LinkedHashMap<>();
        Map<String, Long> constants = new LinkedHashMap<>();
        Integer abiLine = null;
        for (String line : lines) {
            String[] f = line.split(" ");
            switch (f[0]) {
                case "abi" -> abiLine = Integer.parseInt(f[1]);
                case "sizeof" -> sizes.put(f[1], Long.parseLong(f[2]));
                case "offsetof" -> offsets.put(f[1], Long.parseLong(f[2]));
                case "constant" -> constants.put(f[1], Long.parseLong(f[2]));
                default -> throw new AssertionError("unexpected line in the aarch64 layout table: " + line);
            }
        }
        assertNotNull(abiLine, "the aarch64 layout table has no abi line");
        abi = abiLine;
        table = new LayoutTable(sizes, offsets, constants);
    }

    @Override
    LayoutTable table() {
        return table;
    }

    @Test
    void aarch64ShimReportsTheAbiThisBindingExpects() {
        assertEquals(ShimInfo.EXPECTED_ABI, abi);
    }

    /** The check above is only worth something if the layouts really differ where aarch64 differs. */
    @Test
    void layoutsAreComputedForAarch64() {
        assertEquals(48, Structs.PTHREAD_MUTEX.byteSize(), "pthread_mutex_t on aarch64");
        assertEquals(table.sizes().get("ibv_qp"), Structs.ibv_qp.byteSize());
    }

    /** The jar carries both shims, each built for its machine, where NativeLibraries looks for them. */
    @Test
    void jarCarriesAShimForEachArchitecture() throws IOException {
        assertEquals(EM_AARCH64, elfMachine("linux-aarch64"));
        assertEquals(EM_X86_64, elfMachine("linux-x86_64"));
        assertEquals("linux-aarch64", NativeLibraries.platform());
    }

    private static int elfMachine(String platform) throws IOException {
        String resource = "/META-INF/native/" + platform + "/" + NativeLibraries.SHIM_NAME;
        try (InputStream in = NativeLibraries.class.getResourceAsStream(resource)) {
            assertNotNull(in, resource + " is not on the class path");
            byte[] header = in.readNBytes(20);
            assertEquals(20, header.length, resource + " is too short for an ELF header");
            assertEquals(0x7f454c46, (header[0] & 0xff) << 24 | (header[1] & 0xff) << 16 | (header[2] & 0xff) << 8
                    | (header[3] & 0xff), resource + " is not an ELF file");
            assertEquals(2, header[4], resource + " is not a 64-bit ELF file");
            return (header[18] & 0xff) | (header[19] & 0xff) << 8;
        }
    }
}
