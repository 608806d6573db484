package io.rdmaffm.perftest.report.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Run documents of schema 1 and version 0 into the model, and every way a file can be refused. */
class RunReaderTest {

    @Test
    void readsABandwidthSweepOfSchema1() {
        RunDocument run = ReportFixtures.read("bw_sweep_ib.json");
        assertEquals(1, run.schemaVersion());
        assertEquals("RDMA_Write_BW_Test", run.testName());
        assertEquals("bw_sweep_ib", run.label());
        assertTrue(run.parameters().sweep());
        assertNull(run.parameters().size());
        assertEquals("ib_write_bw", run.parameters().tool());
        assertEquals(ReportFixtures.SWEEP_ROWS, run.rows().size());
        Row.Bandwidth first = assertInstanceOf(Row.Bandwidth.class, run.rows().get(0));
        assertEquals(2, first.size());
        assertEquals("Gb/sec", first.bwUnit());
        assertEquals(8388608, run.rows().get(22).size());
        assertEquals(2, first.window().compilations());
        assertEquals(List.of("compiled io.rdmaffm.perftest.engine.Loops.bwClient (c2, OSR)",
                "compiled io.rdmaffm.verbs.Completions.status (c1)", "GC pause G1 Evacuation Pause (young) 0.41 ms"),
                first.window().details());

        DeviceInfo d = run.device();
        assertEquals("mlx5_0", d.name());
        assertEquals(200.0, d.portRateGbps());
        assertEquals("InfiniBand", d.linkLayer());
        assertEquals(-1, d.gidIndex());
        assertNull(d.gid());
        assertEquals(0, d.numaNode());
        assertEquals(new DeviceInfo.Pcie("0000:3b:00.0", "16.0 GT/s x16", 220.1, "0000:3a:00.0/0000:3b:00.0"),
                d.pcie());
        Environment e = run.environment();
        assertEquals("node-a", e.host());
        assertEquals(List.of("-XX:PerMethodTrapLimit=0", "-XX:PerBytecodeTrapLimit=0", "--enable-native-access=ALL-UNNAMED"),
                e.jvmFlags());
        assertEquals("2026-11-30T09:12:05Z", e.date());
        assertEquals(2, run.measuredWindow().compilations());
        assertEquals(0.41, run.measuredWindow().gcPauseMs());
    }

    @Test
    void aTimeSeriesKeepsItsGaps() {
        RunDocument run = ReportFixtures.read("bw_sweep_ib.json");
        Row row64k = run.rows().stream().filter(r -> r.size() == 65536).findFirst().orElseThrow();
        TimeSeries ts = row64k.timeSeries();
        assertEquals(24, ts.values().size());
        assertNull(ts.values().get(9));
        assertEquals(23, ts.presentCount());
        assertEquals(0.5, ts.intervalMs());
        assertEquals(5.0, ts.startMs(10));
        assertNull(run.rows().get(0).timeSeries());
    }

    @Test
    void theHistogramDecodesAndAgreesWithTheTable() {
        RunDocument run = ReportFixtures.read("send_lat_ib.json");
        Row.Latency row = assertInstanceOf(Row.Latency.class, run.rows().get(0));
        Histogram h = row.histogram().decode();
        assertEquals(10000, h.getTotalCount());
        assertEquals(row.histogram().count(), h.getTotalCount());
        assertEquals(row.histogram().maxNs(), h.getMaxValue());
        assertEquals(row.tTypical(), h.getValueAtPercentile(50) / 1000.0, 0.006);
        assertEquals(row.p99_9(), h.getValueAtPercentile(99.9) / 1000.0, 0.006);
        assertEquals(row.tMax(), h.getMaxValue() / 1000.0, 0.006);
        assertEquals(50, row.timeSeries().values().size());
        assertEquals("usec", row.timeSeries().unit());
    }

    @Test
    void readsADurationModeRowOfAVirtualDevice() {
        RunDocument run = ReportFixtures.read("read_lat_duration.json");
        Row.LatencyDuration row = assertInstanceOf(Row.LatencyDuration.class, run.rows().get(0));
        assertEquals(64, row.size());
        assertEquals(20.25, row.tAvg());
        assertEquals(49382.72, row.tpsAverage());
        assertNull(row.timeSeries());
        assertEquals(List.of(Metric.T_AVG, Metric.TPS), row.metrics());
        assertTrue(run.device().virtual());
        assertNull(run.device().pcie());
        assertNull(run.device().numaNode());
        assertEquals(5.0, run.parameters().durationSeconds());
        assertNull(run.parameters().iterations());
    }

    @Test
    void readsVersion0FilesAsTheToolsWroteThem() {
        RunDocument bw = ReportFixtures.read("v0/write_bw_gbits.json");
        assertEquals(0, bw.schemaVersion());
        assertNull(bw.environment());
        assertNull(bw.device());
        assertNull(bw.measuredWindow());
        assertEquals("rxe0", bw.deviceName());
        assertEquals(3, bw.rows().size());
        Row.Bandwidth last = assertInstanceOf(Row.Bandwidth.class, bw.rows().get(2));
        assertNull(last.bwPeak());
        assertNull(last.bwAverage());
        assertEquals(-0.0, last.msgRateMpps());
        assertNull(last.window());
        assertEquals("clock", bw.parameters().entries().keySet().stream().filter(k -> k.equals("clock")).findFirst()
                .orElseThrow());

        RunDocument lat = ReportFixtures.read("v0/send_lat.json");
        assertEquals(2, lat.rows().size());
        Row.Latency l = assertInstanceOf(Row.Latency.class, lat.rows().get(1));
        assertNull(l.histogram());
        assertNull(l.tStdev());
        assertEquals(2.00, l.p99_9());

        RunDocument dur = ReportFixtures.read("v0/read_lat_duration.json");
        assertEquals(1, dur.rows().size(), "a file with only `results` has that one row");
        assertInstanceOf(Row.LatencyDuration.class, dur.rows().get(0));

        RunDocument empty = ReportFixtures.read("v0/atomic_bw_empty.json");
        assertEquals(0, empty.rows().size());
        assertEquals("Atomic_CMP_AND_SWAP_Bidirectional_BW_Test", empty.testName());
        assertTrue(empty.testInfo().bidirectional());
    }

    @Test
    void bandwidthConvertsToGigabitsPerSecond() {
        Row.Bandwidth mb = assertInstanceOf(Row.Bandwidth.class, ReportFixtures.read("v0/write_bw_mb.json").rows().get(1));
        // perftest's MB is 2^20 bytes: 11723.17 MB/s * 8 * 2^20 / 10^9
        assertEquals(98.341, mb.gbps(mb.bwAverage()), 0.001);
        Row.Bandwidth gb = assertInstanceOf(Row.Bandwidth.class,
                ReportFixtures.read("v0/write_bw_gbits.json").rows().get(0));
        assertEquals(0.042185, gb.gbps(gb.bwAverage()));
    }

    @Test
    void unknownKeysAreIgnored() {
        RunDocument r = RunReader.parse("{\"schema\":\"rdma-ffm.run/1\",\"future\":{\"x\":[1]},\"test_info\":{},"
                + "\"all_results\":[{\"MsgSize\":8,\"BW_average\":1.5,\"BW_unit\":\"MB/sec\",\"new_key\":true}]}", "f.json");
        assertEquals(1, r.rows().size());
        assertEquals("unknown test", r.testName());
    }

    @Test
    void refusesWhatIsNotARunDocument(@TempDir Path dir) {
        assertMessage("a.json: bad JSON at offset 1: expected a key", "{,}");
        assertMessage("a.json: not a run document (the top level is not an object)", "[1]");
        assertMessage("a.json: not a run document (no test_info, results or all_results)", "{\"x\":1}");
        assertMessage("a.json: not a run document (schema \"rdma-ffm.doctor/1\", expected rdma-ffm.run/1)",
                "{\"schema\":\"rdma-ffm.doctor/1\",\"devices\":[]}");
        assertMessage("a.json: schema rdma-ffm.run/2 is not one this build reads (it reads rdma-ffm.run/1 and files "
                + "without schema)", "{\"schema\":\"rdma-ffm.run/2\",\"test_info\":{}}");
        assertMessage("a.json: device.port_rate_gbps: expected a number, got \"fast\"",
                "{\"test_info\":{},\"device\":{\"port_rate_gbps\":\"fast\"}}");
        assertMessage("a.json: all_results[0].MsgSize: expected a whole number, got 2.5",
                "{\"test_info\":{},\"all_results\":[{\"MsgSize\":2.5,\"BW_average\":1}]}");
        assertMessage("a.json: all_results[1]: a row with neither bandwidth (BW_average) nor latency (t_avg) keys",
                "{\"test_info\":{},\"all_results\":[{\"MsgSize\":2,\"t_avg\":1},{\"MsgSize\":4}]}");
        assertMessage("a.json: all_results[0].time_series.interval_ms: expected a positive number, got 0.0",
                "{\"test_info\":{},\"all_results\":[{\"MsgSize\":2,\"t_avg\":1,\"time_series\":{\"interval_ms\":0,"
                        + "\"values\":[]}}]}");
        RunFormatException missing = assertThrows(RunFormatException.class,
                () -> RunReader.read(dir.resolve("nope.json")));
        assertEquals(dir.resolve("nope.json") + ": cannot read: no such file", missing.getMessage());
    }

    @Test
    void aHistogramThatIsNotOneIsRefusedWhenDecoded() {
        LatencyHistogram bad = new LatencyHistogram("ns", 3, LatencyHistogram.ENCODING, "bm90IGEgaGlzdG9ncmFt", 1, 1);
        RunFormatException e = assertThrows(RunFormatException.class, bad::decode);
        assertTrue(e.getMessage().startsWith("latency_histogram: data is not a compressed HdrHistogram"), e.getMessage());
        LatencyHistogram other = new LatencyHistogram("ns", 3, "zstd", "AAAA", 1, 1);
        assertEquals("latency_histogram: unknown encoding \"zstd\" (expected HdrHistogram-V2-compressed-base64)",
                assertThrows(RunFormatException.class, other::decode).getMessage());
    }

    private static void assertMessage(String expected, String json) {
        RunFormatException e = assertThrows(RunFormatException.class, () -> RunReader.parse(json, "a.json"));
        assertEquals(expected, e.getMessage());
    }
}
