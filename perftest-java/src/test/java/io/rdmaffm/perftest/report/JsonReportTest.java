package io.rdmaffm.perftest.report;

import io.rdmaffm.perftest.Golden;
import io.rdmaffm.perftest.vocab.BwReport;
import io.rdmaffm.perftest.vocab.BwUnit;
import io.rdmaffm.perftest.vocab.Role;
import io.rdmaffm.perftest.vocab.Tool;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The {@code --out_json} documents byte for byte against {@code src/test/resources/report-golden/}: the key
 * order, the decimals of each figure, null for NaN, escaping and the indentation that scripts may rely on.
 */
class JsonReportTest {

    private static Map<String, Object> parameters() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("tool", "ib_write_bw");
        p.put("role", "client");
        p.put("server", "10.77.0.1");
        p.put("size", 65536);
        p.put("all_sizes", "all");
        p.put("iterations", 5000L);
        p.put("duration_s", null);
        p.put("report_gbits", true);
        p.put("clock", "System.nanoTime (ns)\ttab \"quoted\" back\\slash \u0001");
        p.put("empty", List.of());
        return p;
    }

    @Test
    void bandwidthDocumentsInBothUnits() {
        BannerInfo info = BannerInfo.builder(Tool.WRITE_BW, Role.CLIENT).device("rxe0").gidIndex(1).txDepth(128)
                .mtuBytes(1024).linkType("Ethernet").build();
        List<BwReport> rows = List.of(new BwReport(2, 5000, 0.042350, 0.042185, 2.636533),
                new BwReport(65536, 5000, 11724.505, 11723.175, 0.187571), new BwReport(8, 10, Double.NaN,
                        Double.POSITIVE_INFINITY, -0.0000001));
        Golden.assertMatches("report-golden/write_bw_mb.json",
                JsonReport.bandwidth(info, parameters(), BwUnit.MB_PER_SEC, rows));
        Golden.assertMatches("report-golden/write_bw_gbits.json",
                JsonReport.bandwidth(info, parameters(), BwUnit.GB_PER_SEC, rows));
        BannerInfo atomic = BannerInfo.builder(Tool.ATOMIC_BW, Role.SERVER).device("mlx5_0").bidirectional(true)
                .rdmaCmQps(true).rdmaCmExchange(true).atomicType("CMP_AND_SWAP").outstandingReads(16).build();
        Golden.assertMatches("report-golden/atomic_bw_empty.json",
                JsonReport.bandwidth(atomic, Map.of(), BwUnit.MB_PER_SEC, List.of()));
    }

    @Test
    void latencyDocuments() {
        BannerInfo info = BannerInfo.builder(Tool.SEND_LAT, Role.SERVER).device("rxe0").build();
        List<LatencyRow> rows = List.of(new LatencyRow(2, 1000, new LatencyResult(0.83, 2.61, 0.86, 0.87, 0.0, 0.95,
                2.61)), new LatencyRow(4096, 1000, new LatencyResult(1.005, 3.125, 1.5, 1.6, Double.NaN, 1.9, 2)));
        Golden.assertMatches("report-golden/send_lat.json", JsonReport.latency(info, parameters(), rows));
        Golden.assertMatches("report-golden/read_lat_duration.json", JsonReport.latencyDuration(
                BannerInfo.builder(Tool.READ_LAT, Role.CLIENT).device("rxe0").build(), parameters(), 64, 123456,
                new DurationLatency(1.505, 333333.333)));
    }
}
