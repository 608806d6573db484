package io.rdmaffm.perftest.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** perftest's result verifier ({@code -w/--limit_bw}) on a real run; ResultLimitsTest covers its rules. */
@Tag("rdma")
class ResultLimitsRdmaTest {

    /**
     * {@code -w}: perftest's verifier on a real run (Java on both sides, 200 iterations): a limit no row reaches
     * fails the client with exit 1 and perftest's line after its table; one every row reaches passes.
     */
    @Test
    void aBandwidthLimitJudgesThePrintedRow() throws Exception {
        for (String limit : List.of("1000000", "0.001")) {
            int port = PerftestPeers.freshPort();
            List<String> common = PerftestPeers.args("ib_write_bw", "-d", PerftestPeers.device(), "-x",
                    PerftestPeers.gidIndex(), "-p", String.valueOf(port), "-n", "200", "--warmup", "0");
            PerftestPeers.Peer server = PerftestPeers.startJava(common);
            PerftestPeers.awaitListening(port, 60);
            List<String> client = new java.util.ArrayList<>(common);
            client.addAll(List.of("-w", limit, PerftestPeers.serverIp()));
            PerftestPeers.Outcome c = PerftestPeers.startJava(client).await(120);
            PerftestPeers.Outcome s = server.await(120);
            assertEquals(0, s.exitCode(), s.output());
            boolean below = limit.equals("1000000");
            assertEquals(below ? 1 : 0, c.exitCode(), c.output());
            assertEquals(below, c.output().contains("Error: BW result is below bw limit"), c.output());
            assertTrue(c.output().contains(" 65536      200"), c.output());
        }
    }
}
