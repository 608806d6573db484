package io.rdmaffm.perftest.interop;

import io.rdmaffm.perftest.report.PerftestOutputParser;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --use_cuda} end to end on Soft-RoCE, with the stand-in libcuda (host memory behind its "device"
 * pointers, so rxe can register them): the Java side's buffer is GPU memory from the CUDA binding, against
 * Debian's C perftest on host memory (built without CUDA), both roles; Java against Java with {@code --verify}
 * on GPU memory on both sides (the pattern goes in and comes out through cuMemcpy); {@code --use_cuda_dmabuf},
 * which rxe refuses, falling back to peer memory and saying so; and the set-up failures as one line, exit 2.
 */
@Tag("rdma")
class CudaInteropRdmaTest {

    @BeforeEach
    void standIn() {
        String p = System.getProperty("rdmaffm.test.fakeLibcuda");
        Assumptions.assumeTrue(p != null && Files.isRegularFile(Path.of(p)),
                "the stand-in libcuda was not built (native-shim's test-compile makes it): " + p);
        System.setProperty("rdmaffm.libcuda", p);
    }

    @AfterEach
    void forget() {
        System.clearProperty("rdmaffm.libcuda");
    }

    /**
     * CI's short form (every fourth case of the full one, -Dinterop.full=true in scripts/interop-full.sh, is
     * enough to meet each path once): Java's GPU buffer as client and as server, a latency tool, and the dma-buf
     * fallback.
     */
    static Stream<Arguments> againstC() {
        String[][] cases = {
            {"Java client", "ib_write_bw -n 200 -s 65536 --use_cuda=0"},
            {"Java server", "ib_send_bw -n 200 -s 4096 --use_cuda=0"},
            {"Java client", "ib_send_lat -n 200 --use_cuda=0"},
            {"Java client", "ib_write_bw -n 200 -s 65536 --use_cuda=0 --use_cuda_dmabuf"},
            // the full form adds:
            {"Java server", "ib_write_bw -n 200 -s 4096 --use_cuda=0"},
            {"Java client", "ib_read_bw -n 200 -s 65536 --use_cuda_bus_id=0000:3b:00.0"},
            {"Java client", "ib_read_lat -n 200 -s 1024 --use_cuda=0"},
            {"Java client", "ib_atomic_bw -n 200 --use_cuda=0"},
        };
        return Arrays.stream(cases).limit(Boolean.getBoolean("interop.full") ? cases.length : 4)
                .map(c -> Arguments.of(c[0], c[1]));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("againstC")
    void javaOnGpuMemoryAgainstCOnHostMemory(String roles, String command) throws Exception {
        String device = PerftestPeers.device();
        PerftestPeers.requireCPerftest();
        String[] run = command.split(" ");
        boolean javaIsClient = roles.equals("Java client");
        int port = PerftestPeers.freshPort();
        List<String> common = PerftestPeers.args("-d", device, "-x", PerftestPeers.gidIndex(), "-p", String.valueOf(port));
        List<String> c = new ArrayList<>(List.of("/usr/bin/" + run[0]));
        c.addAll(common);
        List<String> java = new ArrayList<>(List.of(run[0]));
        java.addAll(common);
        for (int i = 1; i < run.length; i++) {
            java.add(run[i]);
            if (!run[i].startsWith("--use_cuda")) {
                c.add(run[i]);
            }
        }
        java.addAll(List.of("--warmup", "0"));
        // The Java peer runs in this JVM and says a fallback on stderr (stdout is perftest's): catch it there.
        PrintStream realErr = System.err;
        ByteArrayOutputStream javaErr = new ByteArrayOutputStream();
        PerftestPeers.Outcome[] o;
        System.setErr(new PrintStream(javaErr, true, StandardCharsets.UTF_8));
        try {
            o = pair(javaIsClient ? java : c, javaIsClient ? c : java, port);
        } finally {
            System.setErr(realErr);
        }
        String both = "\n--- client ---\n" + o[0].output() + "\n--- server ---\n" + o[1].output();
        assertEquals(0, o[0].exitCode(), "client exit code" + both);
        assertEquals(0, o[1].exitCode(), "server exit code" + both);
        PerftestOutputParser.Parsed pc = PerftestOutputParser.parse(o[0].output());
        if (run[0].endsWith("_bw")) {
            assertFalse(pc.bwRows().isEmpty(), "client printed a BW row" + both);
            assertTrue(pc.bwRows().getLast().msgRate() > 0, "sane rate" + both);
        } else {
            assertFalse(pc.latRows().isEmpty(), "client printed latency rows" + both);
        }
        String said = javaErr.toString(StandardCharsets.UTF_8);
        if (command.contains("--use_cuda_dmabuf")) {
            assertTrue(said.contains("ib_write_bw: the NIC refused the dma-buf (ibv_reg_dmabuf_mr")
                    && said.contains("registering GPU memory as peer memory instead"), "the fallback is said: " + said
                    + both);
        } else {
            assertFalse(said.contains("peer memory instead"), "no fallback without --use_cuda_dmabuf: " + said);
        }
    }

    /** CI's short form: two of the four (-Dinterop.full=true: all), a send and a one-sided verb. */
    static Stream<String> javaAgainstJava() {
        String[] cases = {"ib_send_bw -n 100 -s 4096 -q 2", "ib_read_bw -n 100 -s 8192", "ib_write_bw -n 100 -s 65536",
            "ib_send_lat -n 100 -s 256"};
        return Arrays.stream(cases).limit(Boolean.getBoolean("interop.full") ? cases.length : 2);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("javaAgainstJava")
    void javaAgainstJavaVerifiesThePatternInGpuMemory(String command) throws Exception {
        String device = PerftestPeers.device();
        int port = PerftestPeers.freshPort();
        List<String> args = new ArrayList<>(List.of(command.split(" ")));
        args.addAll(PerftestPeers.args("-d", device, "-x", PerftestPeers.gidIndex(), "-p", String.valueOf(port),
                "--use_cuda=0", "--verify", "--warmup", "0"));
        PerftestPeers.Outcome[] o = pair(args, new ArrayList<>(args), port);
        String both = "\n--- client ---\n" + o[0].output() + "\n--- server ---\n" + o[1].output();
        assertEquals(0, o[0].exitCode(), "client exit code (1 would be a --verify mismatch)" + both);
        assertEquals(0, o[1].exitCode(), "server exit code (1 would be a --verify mismatch)" + both);
        assertFalse(both.contains("mismatch"), both);
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', value = {
        "no CUDA GPU 7: the driver sees 1 GPU (index 0); choose one of those | --use_cuda=7",
        "no CUDA GPU at PCI address 0000:99:00.0 | --use_cuda_bus_id=0000:99:00.0",
        "/nonexistent/libcuda.so.1 not found: install the NVIDIA driver | LIB=/nonexistent/libcuda.so.1",
    })
    void setUpFailuresAreOneLineAndExitTwo(String line, String flag) throws Exception {
        String device = PerftestPeers.device();
        List<String> args = new ArrayList<>(List.of("ib_write_bw", "-n", "10"));
        args.addAll(PerftestPeers.args("-d", device, "-x", PerftestPeers.gidIndex(), "-p",
                String.valueOf(PerftestPeers.freshPort()), "--warmup", "0", "127.0.0.1"));
        if (flag.startsWith("LIB=")) {
            System.setProperty("rdmaffm.libcuda", flag.substring(4));
            args.add("--use_cuda=0");
        } else {
            args.add(flag);
        }
        // A client: the set-up fails after the device opens and before the peer is needed.
        PerftestPeers.Outcome out = PerftestPeers.startJava(args).await(120);
        assertEquals(2, out.exitCode(), out.output());
        assertTrue(out.output().contains(line), out.output());
        assertFalse(out.output().contains("\tat "), "no stack trace: " + out.output());
    }

    /** Starts the server, waits for its listen, starts the client; {client, server} outcomes. */
    private static PerftestPeers.Outcome[] pair(List<String> client, List<String> server, int port) throws Exception {
        PerftestPeers.Peer sv = start(server);
        PerftestPeers.awaitListening(port, 60);
        List<String> cl = new ArrayList<>(client);
        cl.add(PerftestPeers.serverIp());
        PerftestPeers.Peer c = start(cl);
        PerftestPeers.Outcome co = c.await(240);
        PerftestPeers.Outcome so = sv.await(60);
        return new PerftestPeers.Outcome[] {co, so};
    }

    private static PerftestPeers.Peer start(List<String> cmd) throws Exception {
        return cmd.get(0).startsWith("/") ? PerftestPeers.startC(cmd) : PerftestPeers.startJava(cmd);
    }
}
