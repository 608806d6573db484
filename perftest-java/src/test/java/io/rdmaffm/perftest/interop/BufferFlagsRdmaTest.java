package io.rdmaffm.perftest.interop;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --use_hugepages} and {@code --mmap} on the real device: with huge pages reserved both sides run, Java
 * against Debian's C perftest both ways; without any, C and perftest-java both end at set-up for that reason
 * (perftest-java: one line, exit 2); over {@code --mmap} files the buffer is the file: its contents land in it.
 * Reserving pages needs root (the Soft-RoCE VM runs the tests as root); the pool is put back afterwards. CI runs
 * one huge-page interop run; scripts/interop-full.sh (-Dinterop.full=true) both ways on two tools, and --mmap vs C.
 */
@Tag("rdma")
class BufferFlagsRdmaTest {
    private static final Path NR_HUGEPAGES = Path.of("/proc/sys/vm/nr_hugepages");
    private static String before;

    @BeforeAll
    static void rememberThePool() throws IOException {
        PerftestPeers.device();
        Assumptions.assumeTrue(Files.isWritable(NR_HUGEPAGES), NR_HUGEPAGES + " is not writable (needs root)");
        before = Files.readString(NR_HUGEPAGES).trim();
    }

    @AfterAll
    static void putThePoolBack() throws IOException {
        if (before != null) {
            Files.writeString(NR_HUGEPAGES, before);
        }
    }

    @Test
    void withoutReservedHugePagesBothPerftestsEndAtSetUp() throws Exception {
        reserve(0);
        PerftestPeers.requireCPerftest();
        // C's own words (captured here, on rxe): its run fails at set-up.
        PerftestPeers.Outcome[] c = pair(false, false, "ib_send_bw", "-n", "100", "--use_hugepages");
        String cOut = c[0].output() + c[1].output();
        assertTrue(cOut.contains("Failed to allocate hugepages. Please configure hugepages"), cOut);
        assertNotEquals(0, c[0].exitCode() | c[1].exitCode(), cOut);
        // perftest-java's server: one line with the pool's figures, exit 2; its C client ends too.
        PerftestPeers.Outcome[] j = pair(true, false, "ib_send_bw", "-n", "100", "--use_hugepages");
        String both = "\n--- Java server ---\n" + j[1].output() + "\n--- C client ---\n" + j[0].output();
        assertEquals(2, j[1].exitCode(), both);
        assertTrue(j[1].output().contains("Failed to allocate hugepages (--use_hugepages): the buffer needs 1 huge page"
                + " of 2048 kB, 0 of 0 are free"), both);
        assertNotEquals(0, j[0].exitCode(), both);
    }

    @Test
    void withHugePagesReservedJavaAndCInteroperateBothWays() throws Exception {
        reserve(8);
        PerftestPeers.requireCPerftest();
        // CI's short form: one run (C client, Java server); the full form (-Dinterop.full=true) both ways, two tools.
        boolean full = Boolean.getBoolean("interop.full");
        List<String[]> runs = full ? List.of(new String[] {"ib_send_bw", "-n", "200", "--use_hugepages"},
                new String[] {"ib_write_lat", "-n", "200", "--use_hugepages"})
                : List.<String[]>of(new String[] {"ib_send_bw", "-n", "200", "--use_hugepages"});
        for (boolean javaServer : full ? new boolean[] {true, false} : new boolean[] {true}) {
            for (String[] run : runs) {
                PerftestPeers.Outcome[] o = pair(javaServer, !javaServer, run);
                String both = "\n" + String.join(" ", run) + (javaServer ? ", Java server" : ", Java client")
                        + "\n--- client ---\n" + o[0].output() + "\n--- server ---\n" + o[1].output();
                assertEquals(0, o[0].exitCode(), "client" + both);
                assertEquals(0, o[1].exitCode(), "server" + both);
            }
        }
    }

    @Test
    void anMmapFileIsTheBufferTheDataArrivesIn() throws Exception {
        Path server = Files.createTempFile("mmap-server", ".bin");
        Path client = Files.createTempFile("mmap-client", ".bin");
        try {
            Files.write(server, new byte[1 << 20]);
            Files.write(client, new byte[1 << 20]);
            // Java both sides with --verify: the client's pattern, checked on arrival, lands in the server's file.
            PerftestPeers.Outcome[] o = pairWithFiles(true, true, server, client, "ib_write_bw", "-n", "100", "-s",
                    "4096", "--mmap-offset", "8192", "--verify");
            String both = "\n--- client ---\n" + o[0].output() + "\n--- server ---\n" + o[1].output();
            assertEquals(0, o[0].exitCode(), "client" + both);
            assertEquals(0, o[1].exitCode(), "server" + both);
            byte[] got = Files.readAllBytes(server);
            assertTrue(allZero(got, 0, 8192), "nothing before --mmap-offset" + both);
            assertTrue(!allZero(got, 8192, 8192 + 3 * 4096), "the buffer's pattern in the file" + both);
            if (Boolean.getBoolean("interop.full")) {
                PerftestPeers.requireCPerftest();
                for (boolean javaServer : new boolean[] {true, false}) {
                    PerftestPeers.Outcome[] c = pairWithFiles(javaServer, !javaServer, server, client, "ib_send_bw",
                            "-n", "200", "--mmap-offset", "4096");
                    String b = "\n--- client ---\n" + c[0].output() + "\n--- server ---\n" + c[1].output();
                    assertEquals(0, c[0].exitCode(), "client" + b);
                    assertEquals(0, c[1].exitCode(), "server" + b);
                }
            }
        } finally {
            Files.deleteIfExists(server);
            Files.deleteIfExists(client);
        }
    }

    private static boolean allZero(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return true;
    }

    /** Reserves {@code pages} huge pages (0: none); at least {@code pages / 2} must be had (one per side). */
    private static void reserve(int pages) throws IOException {
        if (pages > 0) {
            // Contiguous 2 MiB blocks are scarce once JVMs have run: free the page cache and compact first.
            for (String knob : List.of("/proc/sys/vm/drop_caches", "/proc/sys/vm/compact_memory")) {
                try {
                    Files.writeString(Path.of(knob), knob.endsWith("caches") ? "3" : "1");
                } catch (IOException e) {
                    // not every kernel has compaction; the check below says what was had
                }
            }
        }
        Files.writeString(NR_HUGEPAGES, String.valueOf(pages));
        String now = Files.readString(NR_HUGEPAGES).trim();
        Assumptions.assumeTrue(pages == 0 || Integer.parseInt(now) >= pages / 2,
                "the kernel reserved " + now + " huge pages of " + pages + " asked (memory too fragmented)");
    }

    private static PerftestPeers.Outcome[] pair(boolean javaServer, boolean javaClient, String... run) throws Exception {
        return pairWithFiles(javaServer, javaClient, null, null, run);
    }

    /** Client and server outcomes of one run; with files, each side maps its own ({@code --mmap}). */
    private static PerftestPeers.Outcome[] pairWithFiles(boolean javaServer, boolean javaClient, Path serverFile,
                                                         Path clientFile, String... run) throws Exception {
        int port = PerftestPeers.freshPort();
        List<String> common = PerftestPeers.args("-d", PerftestPeers.device(), "-x", PerftestPeers.gidIndex(), "-p",
                String.valueOf(port));
        List<String> s = side(javaServer, run, common, serverFile);
        List<String> c = side(javaClient, run, common, clientFile);
        c.add(PerftestPeers.serverIp());
        PerftestPeers.Peer server = javaServer ? PerftestPeers.startJava(s) : PerftestPeers.startC(s);
        PerftestPeers.awaitListening(port, 60);
        PerftestPeers.Peer client = javaClient ? PerftestPeers.startJava(c) : PerftestPeers.startC(c);
        PerftestPeers.Outcome co = client.await(120);
        PerftestPeers.Outcome so = server.await(60);
        return new PerftestPeers.Outcome[] {co, so};
    }

    private static List<String> side(boolean java, String[] run, List<String> common, Path file) {
        List<String> a = new ArrayList<>();
        a.add(java ? run[0] : "/usr/bin/" + run[0]);
        a.addAll(common);
        a.addAll(List.of(run).subList(1, run.length));
        if (file != null) {
            a.add("--mmap");
            a.add(file.toString());
        }
        if (java) {
            a.addAll(List.of("--warmup", "0", "--timeout", "20"));
        }
        return a;
    }
}
