package io.rdmaffm.perftest.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** perftest's result verifier ({@code -w/--limit_bw}) on a real run; ResultLimitsTest covers its rules. */
@Tag("rdma")
class ResultLimitsRdmaTest {

    /**
     * A Java pair on the device, 200 iterations: a limit no row reaches (1 TB/s) fails the client with exit 1 and
     * perftest's line after its table; the server, given none, passes. Every other rdma run passes the default
     * limit, 0.
     */
    @Test
    void aBandwidthLimitNoRowReachesFailsTheRun() throws Exception {
        int port = PerftestPeers.freshPort();
        List<String> common = PerftestPeers.args("ib_write_bw", "-d", PerftestPeers.device(), "-x",
                PerftestPeers.gidIndex(), "-p", String.valueOf(port), "-n", "200", "--warmup", "0");
        PerftestPeers.Peer server = PerftestPeers.startJava(common);
        PerftestPeers.awaitListening(port, 60);
        List<String> client = new ArrayList<>(common);
        client.addAll(List.of("-w", "1000000", PerftestPeers.serverIp()));
        PerftestPeers.Outcome c = PerftestPeers.startJava(client).await(120);
        PerftestPeers.Outcome s = server.await(120);
        assertEquals(0, s.exitCode(), s.output());
        assertEquals(1, c.exitCode(), c.output());
        assertTrue(c.output().contains(" 65536      200"), c.output());
        assertTrue(c.output().endsWith("Error: BW result is below bw limit\n"), c.output());
    }
}
