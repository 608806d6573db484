package io.rdmaffm.perftest.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.perftest.faults.FaultRecords;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A peer whose key message names memory it never registered (a wrong rkey, an address past its buffer): the
 * Java client's RDMA WRITE or READ completes with the remote access error, and the run ends with exit 1 and
 * that error as one line, on both sides, with no JVM crash and no kernel objects left. The bad key is put in
 * by {@link KeyRewritingRelay} between two Java peers. (That nothing outside the registered buffer is written
 * is shown at the verbs level: RemoteAccessBoundsRdmaTest in verbs-ffm.)
 */
@Tag("rdma")
class RemoteAccessRdmaTest {
    private static FaultRecords records;
    /** The device's objects before the first case; a killed peer's are freed by the kernel after it has gone. */
    private static String baseline;

    @BeforeAll
    static void open() throws Exception {
        records = FaultRecords.open("remote-access");
        baseline = RdmaResources.summary(PerftestPeers.device());
    }

    @AfterAll
    static void close() {
        records = null;
    }

    /** Each case a few seconds in CI's emulated VM after the first (~50 s: the JVM's first run on the device). */
    static Stream<Arguments> cases() {
        return Stream.of(Arguments.of("ib_write_bw", "wrong rkey"),
                Arguments.of("ib_write_bw", "address past the buffer"), Arguments.of("ib_read_lat", "wrong rkey"), Arguments.of("ib_read_bw", "address past the buffer"));
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("cases")
    void remoteAccessErrorIsAFailedRunWithOneLine(String tool, String fault) throws Exception {
        String device = PerftestPeers.device();
        String before = RdmaResources.awaitSummary(device, baseline, 10);
        UnaryOperator<long[]> rewrite = fault.startsWith("wrong")
                ? k -> new long[] {k[0] ^ 0x00ff_ff00L, k[1]}
                : k -> new long[] {k[0], k[1] + (1L << 30)};
        int port = PerftestPeers.freshPort();
        List<String> common = PerftestPeers.args("-d", device, "-x", PerftestPeers.gidIndex(), "-n", "200",
                "--timeout", "5", "--warmup", "0");
        List<String> server = new ArrayList<>(List.of(tool, "-p", String.valueOf(port), "--accept-timeout", "60"));
        server.addAll(common);
        long t0 = System.nanoTime();
        PerftestPeers.Peer s = PerftestPeers.startJava(server);
        PerftestPeers.awaitListening(port, 60);
        PerftestPeers.Outcome sv;
        PerftestPeers.Outcome cl;
        int rewritten;
        try (KeyRewritingRelay relay = new KeyRewritingRelay(PerftestPeers.serverIp(), port, rewrite)) {
            List<String> client = new ArrayList<>(List.of(tool, "-p", String.valueOf(relay.port())));
            client.addAll(common);
            client.add(PerftestPeers.serverIp());
            cl = PerftestPeers.startJava(client).await(90);
            sv = s.await(60);
            rewritten = relay.rewritten();
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        String after = RdmaResources.awaitSummary(device, before, 10);
        String both = "\n--- client ---\n" + cl.output() + "\n--- server ---\n" + sv.output();
        records.add("remote key/address outside the peer's buffer", tool + ", " + fault,
                "client exit " + cl.exitCode() + ": " + PerftestPeers.errorLine(cl.output()) + "; server exit "
                        + sv.exitCode(),
                seconds, -1, before.equals(after) ? "" : after, rewritten + " key messages rewritten");

        assertTrue(rewritten > 0, "the relay saw no key message" + both);
        assertEquals(1, cl.exitCode(), both);
        assertEquals(1, sv.exitCode(), both);
        String line = PerftestPeers.errorLine(cl.output()).toLowerCase(Locale.ROOT);
        assertTrue(line.contains("remote access") || line.contains("rem_access"), "client's line: " + line + both);
        assertFalse(both.contains("\tat "), "no stack trace" + both);
        assertFalse(PerftestPeers.errorLine(sv.output()).isEmpty(), "server's line" + both);
        assertEquals(before, after, "rdma resources after the run");
    }
}
