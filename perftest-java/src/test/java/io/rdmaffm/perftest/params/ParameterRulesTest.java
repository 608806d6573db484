package io.rdmaffm.perftest.params;

import static io.rdmaffm.perftest.params.Flag.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.perftest.vocab.Connection;
import io.rdmaffm.perftest.vocab.Tool;
import io.rdmaffm.perftest.vocab.Verbosity;

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
        RunParameters.Workload w = ParameterRules.check(Tool.WRITE_BW, new ToolOptions().with(DURATION, 8)).workload();
        assertTrue(w.duration());
        assertEquals(2, w.marginSeconds());
        assertFalse(ParameterRules.check(Tool.WRITE_BW, new ToolOptions()).workload().duration());
    }

    @Test
    void rdmaCmImpliesTheRdmaCmExchange() {
        RunParameters.Endpoint r = ParameterRules.check(Tool.WRITE_BW, new ToolOptions().with(RDMA_CM)).endpoint();
        assertTrue(r.rdmaCm() && r.rdmaCmExchange());
        RunParameters.Endpoint z = ParameterRules.check(Tool.SEND_LAT, new ToolOptions().with(COMM_RDMA_CM)).endpoint();
        assertTrue(!z.rdmaCm() && z.rdmaCmExchange());
    }

    @Test
    void jsonFileFromEitherFlag() {
        assertEquals(Path.of("perftest_out.json"),
                ParameterRules.check(Tool.WRITE_BW, new ToolOptions().with(OUT_JSON)).output().jsonFile());
        assertEquals(Path.of("x.json"),
                ParameterRules.check(Tool.WRITE_BW, new ToolOptions().with(OUT_JSON_FILE, Path.of("x.json"))).output()
                        .jsonFile());
    }

    @Test
    void describeListsWhatPerftestDefaulted() {
        var m = ParameterRules.check(Tool.WRITE_BW, new ToolOptions().with(DEVICE, "rxe0").with(ALL_SIZES))
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
        var m = ParameterRules.check(Tool.SEND_BW, new ToolOptions().server("10.0.0.2").with(DEVICE, "rxe0")
                .with(SIZE, "4K").with(QPS, 2).with(BIDIRECTIONAL).with(TX_DEPTH, 64)
                .with(CQ_MODERATION, 8).with(INLINE_SIZE, 64).with(MTU, 1024).with(EVENTS)
                .with(REPORT_GBITS).with(VERIFY).with(WARMUP, 0).with(SERVICE_LEVEL, 3)
                .with(COMM_RDMA_CM).with(OUTPUT, "message_rate").with(REPORT_BOTH).with(TCLASS, 96)
                .with(COUNTERS, "hw_counters/rcvd_pkts")).describe("clock");
        java.util.Map<String, Object> expected = new java.util.HashMap<>();
        expected.putAll(java.util.Map.of("tool", "ib_send_bw", "role", "client", "server", "10.0.0.2", "device", "rxe0",
                "ib_port", 1, "gid_index", -1, "tcp_port", 18515, "size", 4096L, "iterations", 1000L, "duration_s", 0));
        expected.putAll(java.util.Map.of("margin_s", 0, "tx_depth", 64, "rx_depth", 512, "num_qps", 2, "connection",
                "RC", "bidirectional", true, "rdma_cm", false, "rdma_cm_exchange", true, "inline_size", 64,
                "cq_moderation", 8));
        expected.putAll(java.util.Map.of("post_list", 1, "mtu", 1024, "events", true, "atomic_type", "FETCH_AND_ADD",
                "outstanding_reads", 0, "qp_timeout", 14, "sl", 3, "report_gbits", true, "verify", true,
                "warmup_iterations", 0));
        expected.put("memory", "host memory");
        expected.put("output", "message_rate");
        expected.put("report_both", true);
        expected.put("cpu_util", false);
        expected.put("report_histogram", false);
        expected.put("latency_gap_us", 0);
        expected.put("wait_destroy_s", 0);
        expected.put("pkey_index", 0);
        expected.put("use_srq", false);
        expected.put("dlid", 0);
        expected.put("dont_xchg_versions", false);
        expected.put("retry_count", 7);
        expected.put("tos", -1);
        expected.put("tclass", 96);
        expected.put("comp_vector", 0);
        expected.put("limit_bw", 0.0);
        expected.put("limit_msgrate", 0.0);
        expected.put("odp", false);
        expected.put("dualport", false);
        expected.put("report_per_port", false);
        expected.put("mr_per_qp", false);
        expected.put("ipv6", false);
        expected.put("source_ip", "");
        expected.put("inline_recv", 0);
        expected.put("recv_post_list", 1);
        expected.put("report_cycles", false);
        expected.put("run_infinitely", false);
        expected.put("reversed", false);
        expected.put("rate_limit", 0.0); // none: RateLimitTest has a limit's keys
        expected.put("rate_units", "g");
        expected.put("rate_limit_type", "off");
        expected.put("burst_size", 0);
        expected.put("mcg", false);
        expected.put("mgid", "");
        expected.put("threads", 1);
        expected.put("clock", "clock");
        assertEquals(expected, m);
    }

    @Test
    void describeSaysWhereTheBufferLives() {
        assertEquals("GPU 1 (dma-buf)", ParameterRules.check(Tool.WRITE_BW, new ToolOptions().with(DEVICE, "rxe0")
                .with(USE_CUDA, "1").with(USE_CUDA_DMABUF)).describe("clock").get("memory"));
        assertEquals("GPU at 0000:3b:00.0", ParameterRules.check(Tool.READ_BW, new ToolOptions().with(DEVICE, "rxe0")
                .with(USE_CUDA_BUS_ID, "0000:3B:00.0")).describe("clock").get("memory"));
    }

    @Test
    void outputSelectsOneFigurePerToolKind() {
        assertEquals(Verbosity.FULL, ParameterRules.check(Tool.WRITE_BW, new ToolOptions()).output().verbosity());
        assertEquals("full", ParameterRules.check(Tool.SEND_LAT, new ToolOptions()).describe("c").get("output"));
        assertEquals(Verbosity.BANDWIDTH, ParameterRules.check(Tool.READ_BW,
                new ToolOptions().with(OUTPUT, "bandwidth")).output().verbosity());
        assertEquals(Verbosity.MESSAGE_RATE, ParameterRules.check(Tool.SEND_BW,
                new ToolOptions().with(OUTPUT, "message_rate")).output().verbosity());
        assertEquals(Verbosity.LATENCY, ParameterRules.check(Tool.ATOMIC_LAT,
                new ToolOptions().with(OUTPUT, "latency")).output().verbosity());
        // perftest's own messages (it exits 1 for the first two; a bad value is exit 2 here as everywhere)
        assertRefused("Output verbosity level for BW can be: bandwidth, message_rate", Tool.WRITE_BW,
                new ToolOptions().with(OUTPUT, "latency"));
        assertRefused("Output verbosity level for LAT can be: latency", Tool.WRITE_LAT,
                new ToolOptions().with(OUTPUT, "bandwidth"));
        assertRefused("Output verbosity level for LAT can be: latency", Tool.READ_LAT,
                new ToolOptions().with(OUTPUT, "message_rate"));
        assertRefused("Invalid verbosity level output flag. Please use bandwidth, latency, message_rate",
                Tool.WRITE_BW, new ToolOptions().with(OUTPUT, "Bandwidth"));
    }

    @Test
    void theDeviceFlagsRulesBeforeTheDeviceIsOpened() {
        assertEquals(0, ParameterRules.check(Tool.SEND_BW, new ToolOptions()).value(VECTOR));
        assertEquals(3, ParameterRules.check(Tool.SEND_BW, new ToolOptions().with(EVENTS).with(VECTOR, 3))
                .value(VECTOR));
        // perftest's lines
        assertRefused("Events must be enabled to select a completion vector", Tool.READ_LAT,
                new ToolOptions().with(VECTOR, 0));
        assertRefused("Events feature not available on WRITE verb", Tool.WRITE_BW,
                new ToolOptions().with(EVENTS).with(VECTOR, 0));
        assertRefused("EQN should be between 0 and 2048, not 2049", Tool.SEND_BW,
                new ToolOptions().with(EVENTS).with(VECTOR, 2049));
        assertRefused("report per port feature work only with Duration and Dualport", Tool.WRITE_BW,
                new ToolOptions().with(REPORT_PER_PORT).with(DUALPORT));
        assertRefused("report per port feature work only with Duration and Dualport", Tool.WRITE_BW,
                new ToolOptions().with(REPORT_PER_PORT).with(DURATION, 4));
        assertTrue(ParameterRules.check(Tool.WRITE_BW, new ToolOptions().with(REPORT_PER_PORT).with(DUALPORT)
                .with(DURATION, 4)).on(REPORT_PER_PORT));
        assertRefused("--odp pages host memory: not with --use_cuda/--use_cuda_bus_id", Tool.WRITE_BW,
                new ToolOptions().with(ODP).with(USE_CUDA, "0"));
        assertTrue(ParameterRules.check(Tool.READ_BW, new ToolOptions().with(ODP)).on(ODP));
        assertTrue(ParameterRules.check(Tool.READ_LAT, new ToolOptions().with(NO_PCIE_RELAXED)).on(NO_PCIE_RELAXED));
        InvalidParameterException rocm = assertThrows(InvalidParameterException.class,
                () -> ParameterRules.check(Tool.SEND_BW, new ToolOptions().with(ROCM, "0")));
        assertEquals(RocmRuntime.refusal(RocmRuntime::loadable), rocm.getMessage());
    }

    @Test
    void rocmIsRefusedSayingWhetherItsRuntimeWasFound() {
        assertEquals("--use_rocm: no ROCm runtime on this host (libamdhip64.so not found by the dynamic loader)",
                RocmRuntime.refusal(lib -> false));
        assertEquals("--use_rocm: ROCm memory is not supported by perftest-java (the ROCm runtime libamdhip64.so "
                + "is present; use --use_cuda for GPU memory)", RocmRuntime.refusal("libamdhip64.so"::equals));
        assertFalse(RocmRuntime.loadable("libdefinitely-not-here.so"));
        assertTrue(RocmRuntime.loadable("libc.so.6"));
    }

    @Test
    void rulesOnlyTheValidatorKnows() {
        assertRefused("-f/--margin needs -D", Tool.WRITE_BW, new ToolOptions().with(MARGIN, 1));
        assertEquals(true, ParameterRules.check(Tool.SEND_LAT, new ToolOptions().with(HISTOGRAM)).describe("c")
                .get("report_histogram"));
        assertEquals(false, ParameterRules.check(Tool.READ_LAT, new ToolOptions()).describe("c")
                .get("report_histogram"));
        assertRefused("--pkey_index with -R is not supported: rdma_cm chooses the P_Key from the route", Tool.WRITE_BW,
                new ToolOptions().with(RDMA_CM).with(PKEY_INDEX, 1));
        assertEquals(0, ParameterRules.check(Tool.WRITE_BW, new ToolOptions().with(RDMA_CM)).value(PKEY_INDEX));
        assertRefused("invalid --pkey_index 70000", Tool.WRITE_BW, new ToolOptions().with(PKEY_INDEX, 70000));
        assertRefused("TOS only valid for rdma_cm based QP and RawEth QP (-T needs -R)", Tool.WRITE_BW,
                new ToolOptions().with(TOS, 96));
        assertEquals(96, ParameterRules.check(Tool.SEND_LAT, new ToolOptions().with(RDMA_CM).with(TOS, 96)).value(TOS));
        assertEquals(-1, ParameterRules.check(Tool.SEND_LAT, new ToolOptions().with(RDMA_CM)).value(TOS));
        assertRefused("invalid -T/--tos 256 (0..255)", Tool.WRITE_BW, new ToolOptions().with(RDMA_CM).with(TOS, 256));
        assertRefused("--tclass with -R is not supported: rdma_cm builds the address, use -T to set its class",
                Tool.WRITE_BW, new ToolOptions().with(RDMA_CM).with(TCLASS, 96));
        assertEquals(0, ParameterRules.check(Tool.READ_LAT, new ToolOptions()).value(TCLASS));
        assertEquals(96, ParameterRules.check(Tool.READ_LAT, new ToolOptions().with(TCLASS, 96)).value(TCLASS));
        assertRefused("invalid --tclass -1 (0..255)", Tool.WRITE_BW, new ToolOptions().with(TCLASS, -1));
        String badList = "invalid -W/--report-counters list: comma-separated names under the port's sysfs directory, "
                + "e.g. hw_counters/out_of_buffer,counters/port_xmit_wait";
        for (String l : new String[] {"", "a,,b", "hw_counters/../../x", "/abs", "a b"}) {
            assertRefused(badList, Tool.WRITE_BW, new ToolOptions().with(COUNTERS, l));
        }
        assertEquals("hw_counters/rcvd_pkts,counters/port_xmit_wait", ParameterRules.check(Tool.ATOMIC_LAT,
                new ToolOptions().with(COUNTERS, "hw_counters/rcvd_pkts,counters/port_xmit_wait")).value(COUNTERS));
        assertRefused("--wait_destroy must be >= 0 seconds", Tool.WRITE_BW, new ToolOptions().with(WAIT_DESTROY, -1));
        // --use-srq: send tools only, and no more QPs than the SRQ's depth (perftest's messages).
        assertRefused("Using SRQ only avavilible in SEND tests.", Tool.WRITE_BW, new ToolOptions().with(SRQ));
        assertRefused("Using SRQ only avavilible in SEND tests.", Tool.READ_LAT, new ToolOptions().with(SRQ));
        assertRefused("Using SRQ depth should be greater than number of QPs.", Tool.SEND_BW,
                new ToolOptions().with(SRQ).with(QPS, 8).with(RX_DEPTH, 4));
        assertEquals(true, ParameterRules.check(Tool.SEND_BW, new ToolOptions().with(SRQ).with(QPS, 4).with(RX_DEPTH, 4))
                .on(SRQ));
        assertEquals(true, ParameterRules.check(Tool.SEND_LAT, new ToolOptions().with(SRQ)).describe("c")
                .get("use_srq"));
        // --force-link: perftest's reading (a prefix, any case); --dlid: 16 bits, not with -R.
        assertEquals("IB", ParameterRules.forcedLink("ib"));
        assertEquals("Ethernet", ParameterRules.forcedLink("ETHERNET"));
        assertEquals(null, ParameterRules.forcedLink("Eth"));
        assertRefused("Invalid link layer value should be IB or ETHERNET (--force-link RoCE)", Tool.WRITE_BW,
                new ToolOptions().with(FORCE_LINK, "RoCE"));
        assertRefused("invalid --dlid 70000 (a LID is 16 bits)", Tool.SEND_LAT, new ToolOptions().with(DLID, 70000));
        assertRefused("--dlid with -R is not supported: rdma_cm resolves the route", Tool.SEND_LAT,
                new ToolOptions().with(DLID, 7).with(RDMA_CM));
        assertEquals(7, ParameterRules.check(Tool.SEND_LAT, new ToolOptions().with(DLID, 7)).value(DLID));
        // --retry_count: perftest's default 7 for every tool, 0..7 given (rdma_cm's field is 3 bits).
        assertEquals(7, ParameterRules.check(Tool.SEND_LAT, new ToolOptions()).value(RETRY_COUNT));
        assertEquals(0, ParameterRules.check(Tool.READ_BW, new ToolOptions().with(RDMA_CM).with(RETRY_COUNT, 0))
                .value(RETRY_COUNT));
        assertRefused("--retry_count must be 0..7 (rdma_cm's retry_count is 3 bits; C perftest passes a larger one on,"
                + " and rdma_cm cannot carry it), not 8", Tool.WRITE_BW, new ToolOptions().with(RETRY_COUNT, 8));
        assertRefused("--retry_count must be 0..7 (rdma_cm's retry_count is 3 bits; C perftest passes a larger one on,"
                + " and rdma_cm cannot carry it), not -1", Tool.WRITE_BW, new ToolOptions().with(RETRY_COUNT, -1));
        assertEquals(true, ParameterRules.check(Tool.ATOMIC_LAT, new ToolOptions().with(NO_VERSIONS)).describe("c")
                .get("dont_xchg_versions"));
        assertEquals(3, ParameterRules.check(Tool.SEND_LAT, new ToolOptions().with(WAIT_DESTROY, 3)).value(WAIT_DESTROY));
        assertRefused("Latency gap time (--latency_gap) must be non-negative", Tool.READ_LAT,
                new ToolOptions().with(LATENCY_GAP, -1));
        assertEquals(7, ParameterRules.check(Tool.WRITE_LAT, new ToolOptions().with(LATENCY_GAP, 7)).describe("c")
                .get("latency_gap_us"));
        assertRefused("CPU Utilization works only with Duration mode (-D)", Tool.SEND_LAT,
                new ToolOptions().with(CPU_UTIL));
        assertTrue(ParameterRules.check(Tool.SEND_LAT, new ToolOptions().with(CPU_UTIL).with(DURATION, 4))
                .on(CPU_UTIL));
        assertRefused("Multiple QPs only available on bw tests", Tool.SEND_LAT, new ToolOptions().with(QPS, 2));
        // --threads: 1 by default; 1..-q (the QPs spread evenly), and not with what one thread must own.
        assertEquals(1, ParameterRules.check(Tool.WRITE_BW, new ToolOptions()).value(THREADS));
        assertEquals(3, ParameterRules.check(Tool.READ_BW, new ToolOptions().with(QPS, 5).with(THREADS, 3))
                .describe("c").get("threads"));
        assertRefused("--threads must be 1..16384, not 0", Tool.WRITE_BW, new ToolOptions().with(THREADS, 0));
        assertRefused("--threads 3 exceeds the number of QPs (-q 2): each thread drives at least one QP",
                Tool.SEND_BW, new ToolOptions().with(QPS, 2).with(THREADS, 3));
        assertRefused("--threads 2 exceeds the number of QPs (-q 1): each thread drives at least one QP", Tool.ATOMIC_BW,
                new ToolOptions().with(THREADS, 2));
        assertRefused("--threads with -e is not supported: the CQs share one completion channel", Tool.SEND_BW,
                new ToolOptions().with(QPS, 2).with(THREADS, 2).with(EVENTS));
        assertRefused("--threads with --use-srq is not supported: the QPs share one receive queue", Tool.SEND_BW,
                new ToolOptions().with(QPS, 2).with(THREADS, 2).with(SRQ));
        assertRefused("--threads with --rate_limit is not supported: the limit paces one sender", Tool.WRITE_BW,
                new ToolOptions().with(QPS, 2).with(THREADS, 2).with(RATE_LIMIT, "10"));
        assertRefused("--threads with --run_infinitely is not supported: the endless run has one row clock and one stop signal", Tool.WRITE_BW,
                new ToolOptions().with(QPS, 2).with(THREADS, 2).with(RUN_INFINITELY));
        assertEquals(1, ParameterRules.check(Tool.WRITE_BW, new ToolOptions().with(THREADS, 1).with(EVENTS))
                .value(THREADS), "one thread is the plain run: every flag as before");
        assertRefused("-U (--report-unsorted) is available only on latency tests", Tool.WRITE_BW,
                new ToolOptions().with(REPORT_UNSORTED));
        assertRefused("CQ moderation (-Q) must be 1..1024", Tool.WRITE_BW, new ToolOptions().with(CQ_MODERATION, 0));
        assertRefused("post list (-l) must be 1..tx depth (8)", Tool.WRITE_BW,
                new ToolOptions().with(TX_DEPTH, 8).with(POST_LIST, 16));
        assertRefused("outstanding reads (-o) must be positive", Tool.READ_BW,
                new ToolOptions().with(OUTSTANDING_READS, 0));
        assertRefused("--timeout must be at least 1 second", Tool.READ_BW, new ToolOptions().with(TIMEOUT, 0));
        assertRefused("size must be 1 .. 2147483647 bytes, not 0", Tool.WRITE_BW, new ToolOptions().with(SIZE, "0"));
    }

    @Test
    void runInfinitelyTakesWhatPerftestTakesAndRefusesWhatItRefuses() {
        // perftest 4.5 accepts these: the send receiver and -b loop until stopped
        for (Tool t : new Tool[] {Tool.SEND_BW, Tool.WRITE_BW, Tool.READ_BW}) {
            assertTrue(ParameterRules.check(t, new ToolOptions().with(RUN_INFINITELY)).on(RUN_INFINITELY), t.name());
        }
        assertTrue(ParameterRules.check(Tool.WRITE_BW, new ToolOptions().with(RUN_INFINITELY).with(BIDIRECTIONAL))
                .workload().bidirectional());
        assertTrue(ParameterRules.check(Tool.READ_BW, new ToolOptions().with(RUN_INFINITELY).with(BIDIRECTIONAL))
                .workload().bidirectional());
        // -a: --run_infinitely replaces perftest's method after parsing, so one size runs, also with -D
        RunParameters all = ParameterRules.check(Tool.WRITE_BW, new ToolOptions().with(RUN_INFINITELY).with(ALL_SIZES)
                .with(DURATION, 2));
        assertFalse(all.workload().allSizes(), "one size");
        assertEquals(65536, all.workload().size());
        // perftest's own refusals, its lines
        assertRefused("run_infinitely mode is not supported in SEND Bidirectional BW test (ib_send_bw -b)",
                Tool.SEND_BW, new ToolOptions().with(RUN_INFINITELY).with(BIDIRECTIONAL));
        assertRefused("run_infinitely does not support events feature yet (-e)", Tool.SEND_BW,
                new ToolOptions().with(RUN_INFINITELY).with(EVENTS));
        assertRefused("run_infinitely does not support rate limit feature yet (--rate_limit)", Tool.WRITE_BW,
                new ToolOptions().with(RUN_INFINITELY).with(RATE_LIMIT, "10"));
        // perftest-java's: the end of a run whose both sides loop is the TCP connection's close
        String tcp = "--run_infinitely on ib_send_bw or with -b takes the TCP exchange (not -R/--rdma_cm): its end is "
                + "the connection's close";
        assertRefused(tcp, Tool.SEND_BW, new ToolOptions().with(RUN_INFINITELY).with(RDMA_CM));
        assertRefused(tcp, Tool.WRITE_BW, new ToolOptions().with(RUN_INFINITELY).with(BIDIRECTIONAL).with(COMM_RDMA_CM));
        assertTrue(ParameterRules.check(Tool.WRITE_BW, new ToolOptions().with(RUN_INFINITELY).with(RDMA_CM))
                .on(RUN_INFINITELY), "the uni-directional write keeps -R: its passive side waits in the exchange");
        assertRefused("--cpu_util measures a -D run's sample window: not with --run_infinitely (perftest prints the "
                + "column there with nothing sampled)", Tool.WRITE_BW,
                new ToolOptions().with(RUN_INFINITELY).with(DURATION, 3).with(CPU_UTIL));
    }

    private static void assertRefused(String message, Tool tool, ToolOptions o) {
        InvalidParameterException e = assertThrows(InvalidParameterException.class, () -> ParameterRules.check(tool, o));
        assertEquals(message, e.getMessage());
    }
}
