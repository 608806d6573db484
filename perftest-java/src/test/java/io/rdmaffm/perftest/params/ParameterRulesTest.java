package io.rdmaffm.perftest.params;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.perftest.vocab.Connection;
import io.rdmaffm.perftest.vocab.Tool;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** perftest's per-tool defaults and cross-flag rules, from one validator. */
class ParameterRulesTest {

    @Test
    void perToolDefaults() {
        RunParameters.Workload wbw = ParameterRules.check(Tool.WRITE_BW, new ToolOptions()).workload();
        assertEquals(65536, wbw.size());
        assertEquals(5000, wbw.iterations());
        assertEquals(128, wbw.txDepth());
        assertEquals(1, wbw.rxDepth());
        RunParameters.Workload sbw = ParameterRules.check(Tool.SEND_BW, new ToolOptions()).workload();
        assertEquals(1000, sbw.iterations());
        assertEquals(512, sbw.rxDepth());
        RunParameters.Workload lat = ParameterRules.check(Tool.SEND_LAT, new ToolOptions()).workload();
        assertEquals(2, lat.size());
        assertEquals(1, lat.txDepth());
        assertEquals(8, ParameterRules.check(Tool.ATOMIC_BW, new ToolOptions()).workload().size());
        RunParameters p = ParameterRules.check(Tool.READ_LAT, new ToolOptions());
        assertEquals(18515, p.endpoint().tcpPort());
        assertEquals(1, p.endpoint().ibPort());
        assertEquals(-1, p.endpoint().gidIndex());
        assertEquals(Connection.RC, p.endpoint().connection());
        assertEquals(14, p.endpoint().qpTimeout());
        assertEquals(4_000, p.limits().warmupIterations());
        assertEquals(10, p.limits().timeoutSeconds());
        assertNull(p.output().jsonFile());
    }

    @Test
    void durationMarginDefaultsToAQuarter() {
        RunParameters.Workload w = ParameterRules.check(Tool.WRITE_BW, new ToolOptions().duration(8)).workload();
        assertTrue(w.duration());
        assertEquals(2, w.marginSeconds());
        assertFalse(ParameterRules.check(Tool.WRITE_BW, new ToolOptions()).workload().duration());
    }

    @Test
    void rdmaCmImpliesTheRdmaCmExchange() {
        RunParameters.Endpoint r = ParameterRules.check(Tool.WRITE_BW, new ToolOptions().rdmaCm(true)).endpoint();
        assertTrue(r.rdmaCm() && r.rdmaCmExchange());
        RunParameters.Endpoint z = ParameterRules.check(Tool.SEND_LAT, new ToolOptions().commRdmaCm(true)).endpoint();
        assertTrue(!z.rdmaCm() && z.rdmaCmExchange());
    }

    @Test
    void jsonFileFromEitherFlag() {
        assertEquals(Path.of("perftest_out.json"),
                ParameterRules.check(Tool.WRITE_BW, new ToolOptions().outJson(true)).output().jsonFile());
        assertEquals(Path.of("x.json"),
                ParameterRules.check(Tool.WRITE_BW, new ToolOptions().outJsonFile(Path.of("x.json"))).output().jsonFile());
    }

    @Test
    void describeListsWhatPerftestDefaulted() {
        var m = ParameterRules.check(Tool.WRITE_BW, new ToolOptions().device("rxe0").all(true))
                .describe("cycle counter at 2.100000 GHz");
        assertEquals("all", m.get("size"));
        assertEquals(100, m.get("cq_moderation"));
        assertEquals(0, m.get("inline_size"));
        assertEquals("RC", m.get("connection"));
        assertEquals("server", m.get("role"));
        assertFalse(m.containsKey("server"));
        assertEquals("cycle counter at 2.100000 GHz", m.get("clock"), "the loops' clock, not a fixed System.nanoTime");
    }

    @Test
    void describeListsEveryResolvedParameter() {
        var m = ParameterRules.check(Tool.SEND_BW, new ToolOptions().server("10.0.0.2").device("rxe0").size("4K")
                .qps(2).bidirectional(true).txDepth(64).cqModeration(8).inline(64).mtu(1024).events(true)
                .reportGbits(true).verify(true).warmup(0).serviceLevel(3).commRdmaCm(true)).describe("clock");
        java.util.Map<String, Object> expected = new java.util.HashMap<>();
        expected.putAll(java.util.Map.of("tool", "ib_send_bw", "role", "client", "server", "10.0.0.2", "device", "rxe0",
                "ib_port", 1, "gid_index", -1, "tcp_port", 18515, "size", 4096L, "iterations", 1000L, "duration_s", 0));
        expected.putAll(java.util.Map.of("margin_s", 0, "tx_depth", 64, "rx_depth", 512, "num_qps", 2, "connection",
                "RC", "bidirectional", true, "rdma_cm", false, "rdma_cm_exchange", true, "inline_size", 64,
                "cq_moderation", 8));
        expected.putAll(java.util.Map.of("post_list", 1, "mtu", 1024, "events", true, "atomic_type", "FETCH_AND_ADD",
                "outstanding_reads", 0, "qp_timeout", 14, "sl", 3, "report_gbits", true, "verify", true,
                "warmup_iterations", 0));
        expected.put("clock", "clock");
        assertEquals(expected, m);
    }

    @Test
    void rulesOnlyTheValidatorKnows() {
        assertRefused("-f/--margin needs -D", Tool.WRITE_BW, new ToolOptions().margin(1));
        assertRefused("Multiple QPs only available on bw tests", Tool.SEND_LAT, new ToolOptions().qps(2));
        assertRefused("-U (--report-unsorted) is available only on latency tests", Tool.WRITE_BW,
                new ToolOptions().unsorted(true));
        assertRefused("CQ moderation (-Q) must be 1..1024", Tool.WRITE_BW, new ToolOptions().cqModeration(0));
        assertRefused("post list (-l) must be 1..tx depth (8)", Tool.WRITE_BW,
                new ToolOptions().txDepth(8).postList(16));
        assertRefused("outstanding reads (-o) must be positive", Tool.READ_BW, new ToolOptions().outstandingReads(0));
        assertRefused("--timeout must be at least 1 second", Tool.READ_BW, new ToolOptions().timeout(0));
        assertRefused("size must be 1 .. 2147483647 bytes, not 0", Tool.WRITE_BW, new ToolOptions().size("0"));
    }

    private static void assertRefused(String message, Tool tool, ToolOptions o) {
        InvalidParameterException e = assertThrows(InvalidParameterException.class, () -> ParameterRules.check(tool, o));
        assertEquals(message, e.getMessage());
    }
}
