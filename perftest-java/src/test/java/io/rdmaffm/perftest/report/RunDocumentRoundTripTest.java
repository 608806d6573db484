package io.rdmaffm.perftest.report;

import io.rdmaffm.perftest.jvm.ProcessActivity;
import io.rdmaffm.perftest.jvm.WindowActivity;
import io.rdmaffm.perftest.report.model.Row;
import io.rdmaffm.perftest.report.model.RunDocument;
import io.rdmaffm.perftest.report.model.RunReader;
import io.rdmaffm.perftest.vocab.BwReport;
import io.rdmaffm.perftest.vocab.BwUnit;
import io.rdmaffm.perftest.vocab.Role;
import io.rdmaffm.perftest.vocab.Tool;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a tool writes with {@code --out_json} is what {@code report} and {@code compare} read back. */
class RunDocumentRoundTripTest {
    private static final Environment ENV = new Environment("host-a", "6.1.0", "Some CPU", 2, "25+36", "OpenJDK VM",
            List.of("-XX:+UseSerialGC"), "0.1.0", "0123456789abcdef0123456789abcdef01234567", true, Instant.parse("2026-12-03T10:15:30Z"),
            "cycle counter at 2.100000 GHz");
    private static final DeviceProvenance DEV = new DeviceProvenance("mlx5_0", 1, false, "28.39.1002", "InfiniBand",
            "ACTIVE", "200 Gb/sec (4X HDR)", 200.0, 4096, -1, null, null, 0,
            new DeviceProvenance.Pcie("0000:18:00.0", "16.0 GT/s x16", 220.5, "0000:17:00.0/0000:18:00.0"));

    private static BannerInfo banner(Tool tool) {
        return BannerInfo.builder(tool, Role.CLIENT).device("mlx5_0").numQps(1).transportType("IB")
                .connectionType("RC").pcieRelaxOrder("ON").txDepth(128).rxDepth(512).postList(1).cqModeration(100)
                .mtuBytes(4096).linkType("IB").gidIndex(-1).maxInline(0).outstandingReads(16).build();
    }

    @Test
    void latencyRowsCarryHistogramSeriesAndWindow() {
        long[] tposted = new long[1000];
        for (int i = 1; i < tposted.length; i++) {
            tposted[i] = tposted[i - 1] + 2_000 + (i % 97 == 0 ? 50_000 : 0);
        }
        Histogram h = new Histogram(3_600_000_000_000L, 3);
        for (int i = 0; i < tposted.length - 1; i++) {
            h.recordValue((tposted[i + 1] - tposted[i]) / 2);
        }
        TimeSeries series = TimeSeries.latency(tposted, tposted.length, 2);
        LatencyResult res = LatencyArithmetic.iterations(tposted, tposted.length, Tool.SEND_LAT.verb(), 1000.0);
        WindowActivity busy = new WindowActivity(2, 1, 1, 0, 0, 1, 40_000,
                new ProcessActivity(310, 2, 9_000_000, 250_000, 1_500_000, "C2 CompilerThre 1.500 ms"),
                List.of("compiled a.B.c (c2, OSR)"));
        String json = JsonReport.latency(banner(Tool.SEND_LAT), Map.of("tool", "ib_send_lat"),
                List.of(new LatencyRow(2, 1000, res)), List.of(new RowExtras(0, series, h)),
                new JsonReport.Provenance(ENV, DEV, List.of(busy), new JsonReport.WarmupFacts(3, 4.25, true)));
        @SuppressWarnings("unchecked")
        Map<String, Object> warmup = (Map<String, Object>) ((Map<String, Object>)
                io.rdmaffm.perftest.json.JsonReader.parse(json)).get("warmup");
        assertEquals(Map.of("rounds", 3.0, "seconds", 4.25, "quiet", true), warmup);

        RunDocument doc = RunReader.parse(json, "lat.json");
        assertEquals(1, doc.schemaVersion());
        assertEquals("host-a", doc.environment().host());
        assertEquals(List.of("-XX:+UseSerialGC"), doc.environment().jvmFlags());
        assertEquals("cycle counter at 2.100000 GHz", doc.environment().clock());
        assertEquals("0123456789abcdef0123456789abcdef01234567", doc.environment().toolCommit());
        assertEquals(Boolean.TRUE, doc.environment().toolDirty());
        assertEquals(200.0, doc.device().portRateGbps());
        assertEquals(220.5, doc.device().pcie().modelGbps());
        Row row = doc.rows().get(0);
        assertEquals(2, row.window().compilations());
        assertEquals(1, row.window().deoptimizations());
        assertEquals(310, row.window().minorFaults());
        assertEquals(2, row.window().majorFaults());
        assertEquals(0.25, row.window().loopRunqueueMs(), 1e-9);
        assertEquals(1.5, row.window().otherThreadsCpuMs(), 1e-9);
        assertEquals("the measuring thread waited 0.25 ms for its CPU; the JVM's other threads ran 1.50 ms",
                row.window().cpuSummary());
        assertTrue(row.window().summary().endsWith(", 2 major page faults"), row.window().summary());
        assertEquals(2, doc.measuredWindow().compilations(), "the document's total is the sum of its windows");
        Row.Latency lat = (Row.Latency) row;
        Histogram back = lat.histogram().decode();
        assertEquals(h.getTotalCount(), back.getTotalCount());
        assertEquals(h.getValueAtPercentile(99.9), back.getValueAtPercentile(99.9));
        assertEquals(series.values().length, lat.timeSeries().values().size());
        assertEquals(26.0, Arrays.stream(series.values()).max().orElseThrow(), 1e-9,
                "the stall of 50 us per round trip shows as 26 us one way in its interval");
    }

    @Test
    void bandwidthSeriesCountsEveryCompletedByte() {
        int n = 1000;
        long[] tposted = new long[n];
        long[] tcompleted = new long[n];
        Arrays.fill(tcompleted, 5); // left from an earlier size: before this run, so ignored
        for (int i = 0; i < n; i++) {
            tposted[i] = 1_000_000 + i * 1_000L;
        }
        for (int c = 100; c <= n; c += 100) {
            tcompleted[c - 1] = 1_000_000 + c * 1_000L + 500;
        }
        TimeSeries s = TimeSeries.bandwidth(65536, n, tposted, tcompleted, BwUnit.MB_PER_SEC);
        assertNotNull(s);
        double bytes = 0;
        for (double v : s.values()) {
            bytes += Double.isNaN(v) ? 0 : v * (1 << 20) * s.intervalMs() / 1000;
        }
        assertEquals(65536.0 * n, bytes, 1.0, "every work request counted once");
        assertNull(TimeSeries.bandwidth(65536, n, tposted, new long[n], BwUnit.MB_PER_SEC));

        List<BwReport> rows = new ArrayList<>(List.of(new BwReport(65536, n, 1000, 900, 0.0144),
                new BwReport(65536, n, 1000, 900, 0.0144)));
        List<RowExtras> extras = new ArrayList<>();
        extras.add(new RowExtras(0, s, null));
        extras.add(null);
        String json = JsonReport.bandwidth(banner(Tool.WRITE_BW), Map.of("tool", "ib_write_bw"), BwUnit.MB_PER_SEC,
                rows, extras, new JsonReport.Provenance(ENV, DEV, List.of(new WindowActivity(0, 0, 0, 0, 0, 0, 0, ProcessActivity.UNKNOWN,
                        List.of())), null));
        RunDocument doc = RunReader.parse(json, "bw.json");
        assertEquals(s.values().length, doc.rows().get(0).timeSeries().values().size());
        assertNull(doc.rows().get(1).timeSeries(), "a row this side did not measure has no series");
        assertTrue(doc.measuredWindow().compilations() == 0 && doc.rows().get(0).window() != null);
        assertEquals(-1, doc.rows().get(0).window().majorFaults(), "not known is written as null and read back");
        assertNull(doc.rows().get(0).window().cpuSummary());
    }
}
