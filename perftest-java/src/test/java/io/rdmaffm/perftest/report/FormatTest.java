package io.rdmaffm.perftest.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.perftest.vocab.BwReport;
import io.rdmaffm.perftest.vocab.BwUnit;
import io.rdmaffm.perftest.vocab.Role;
import io.rdmaffm.perftest.vocab.Tool;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** printf semantics, the rows perftest documents, JSON validity, .hgrm, and parsing our own output. */
class FormatTest {

    @Test
    void fixedPointRoundsTheExactBinaryValueLikeGlibc() {
        assertEquals("1.00", CFormat.fixed(1.005, 2)); // 1.00499999999999989...
        assertEquals("0.12", CFormat.fixed(0.125, 2)); // exact tie -> even
        assertEquals("0.38", CFormat.fixed(0.375, 2));
        assertEquals("-0.00", CFormat.fixed(-0.001, 2));
        assertEquals("inf", CFormat.fixed(Double.POSITIVE_INFINITY, 2));
        assertEquals("0.000516", CFormat.fixed(0.0005159, 6));
        assertEquals("11724.50", CFormat.fixed(11724.5, 2));
    }

    @Test
    void generalFormMatchesGlibcPercentG() {
        // Each expected string is what glibc's printf("%g") printed for the same double.
        assertEquals("0", CFormat.general(0.0));
        assertEquals("-0", CFormat.general(-0.0));
        assertEquals("3085.07", CFormat.general(3085.07412));
        assertEquals("83.4783", CFormat.general(83.47831));
        assertEquals("12", CFormat.general(12.0));
        assertEquals("12.5", CFormat.general(12.5));
        assertEquals("0.5", CFormat.general(0.5));
        assertEquals("100000", CFormat.general(100000.0));
        assertEquals("1e+06", CFormat.general(999999.5));
        assertEquals("999994", CFormat.general(999994.5)); // exact tie -> even
        assertEquals("1.23457e+06", CFormat.general(1234567.0));
        assertEquals("0.000123457", CFormat.general(0.0001234567));
        assertEquals("1.23457e-05", CFormat.general(0.00001234567));
        assertEquals("1e-300", CFormat.general(1e-300));
        assertEquals("1.23457e+11", CFormat.general(123456789012.0));
        assertEquals("-3.25", CFormat.general(-3.25));
        assertEquals("10", CFormat.general(9.9999995));
        assertEquals("0.0001", CFormat.general(0.000099999995));
        assertEquals("0.333333", CFormat.general(1.0 / 3));
        assertEquals("666.667", CFormat.general(2.0 / 3 * 1000));
        assertEquals("-inf", CFormat.general(Double.NEGATIVE_INFINITY));
        assertEquals("nan", CFormat.general(Double.NaN));
    }

    @Test
    void unsortedSamplesAreNumberedFromOneThenTheHeaderAgain() {
        // As Debian's ib_send_lat -U prints: "#, usec", "1, 3085.07", ..., the result line, the header (glibc
        // printed 3085.07, 83.478, 24.5015 and 6170.15 for these quotients).
        long[] tposted = {0, 6_170_150, 6_337_106, 6_386_109};
        assertEquals("#, usec\n1, 3085.07\n2, 83.478\n3, 24.5015\n" + PerftestFormat.RESULT_LINE
                + PerftestFormat.LAT_HEADER, PerftestFormat.unsortedSamples(tposted, 4, 2, true));
        assertEquals("#, usec\n1, 6170.15\n" + PerftestFormat.RESULT_LINE + PerftestFormat.LAT_HEADER,
                PerftestFormat.unsortedSamples(tposted, 2, 1, true));
    }

    @Test
    void alternateHexHasNoPrefixForZero() {
        assertEquals("0000", CFormat.altHex(0, 4));
        assertEquals("0x12", CFormat.altHex(0x12, 4));
        assertEquals("0x0032", CFormat.altHex(0x32, 6));
        assertEquals("0xe7e49", CFormat.altHex(0xe7e49, 6));
        assertEquals("0x80", CFormat.altHex(0x80, 4));
        assertEquals("0x002440", CFormat.altHex(0x2440, 8));
        assertEquals("0x007f2e5f64b000", CFormat.altHex(0x7f2e5f64b000L, 16));
        assertEquals("00000000", CFormat.altHex(0, 8));
    }

    @Test
    void rowsFromTheReferenceNotes() {
        assertEquals(" 65536      5000             11724.50            11723.18\t\t   0.187571\n",
                PerftestFormat.bwRow(new BwReport(65536, 5000, 11724.50, 11723.18, 0.187571), BwUnit.MB_PER_SEC));
        // --report_gbits with an average under 0.1 switches to six decimals (REPORT_FMT_EXT).
        assertEquals(" 2          5000           0.042350            0.042185            2.636533\n",
                PerftestFormat.bwRow(new BwReport(2, 5000, 0.042350, 0.042185, 2.636533), BwUnit.GB_PER_SEC));
        assertEquals(" 2       1000          0.83           2.61         0.86     \t       0.87        \t0.00   \t\t0.95"
                + "    \t\t2.61   \n", PerftestFormat.latencyRow(2, 1000,
                        new LatencyResult(0.83, 2.61, 0.86, 0.87, 0.0, 0.95, 2.61)));
        assertEquals(" 2             1000            1.50           333333.33\n",
                PerftestFormat.latencyDurationRow(2, 1000, 1.5, 333333.333));
    }

    @Test
    void bannerTitles() {
        assertEquals("                    Atomic CMP_AND_SWAP Latency Test", PerftestFormat.title(
                BannerInfo.builder(Tool.ATOMIC_LAT, Role.CLIENT).atomicType("CMP_AND_SWAP").build()));
        assertEquals("                    RDMA_Read Bidirectional Post List BW Test", PerftestFormat.title(
                BannerInfo.builder(Tool.READ_BW, Role.CLIENT).bidirectional(true).postList(4).build()));
    }

    @Test
    void bannerWithoutGidOmitsTheGidLine() {
        String b = PerftestFormat.banner(BannerInfo.builder(Tool.WRITE_BW, Role.CLIENT).device("mlx5_0")
                .linkType("IB").gidIndex(-1).build());
        assertTrue(!b.contains("GID index"), b);
        assertTrue(b.contains(" Link type       : IB\n"), b);
    }

    @Test
    void ourOutputParsesLikeCs() {
        BannerInfo info = BannerInfo.builder(Tool.WRITE_BW, Role.CLIENT).device("rxe0").gidIndex(1).cqModeration(1)
                .build();
        long[] posted = new long[2000];
        long[] completed = new long[2000];
        for (int i = 0; i < posted.length; i++) {
            posted[i] = 1_000L * i;
            completed[i] = posted[i] + 50_000 + (i % 7) * 100;
        }
        BwReport r = BwArithmetic.iterations(65536, 2000, posted, completed, 1, 1, false, BwUnit.MB_PER_SEC, 1e9);
        String ours = PerftestFormat.banner(info) + PerftestFormat.RESULT_LINE
                + PerftestFormat.bwHeader(BwUnit.MB_PER_SEC) + PerftestFormat.bwRow(r, BwUnit.MB_PER_SEC)
                + PerftestFormat.RESULT_LINE;
        PerftestOutputParser.Parsed p = PerftestOutputParser.parse(ours);
        PerftestOutputParser.Parsed c = PerftestOutputParser.parse(
                io.rdmaffm.perftest.exchange.Capture.resource("write_bw.client.out"));
        assertEquals(c.title(), p.title());
        assertEquals(c.fields(), p.fields());
        assertEquals(c.bwUnit(), p.bwUnit());
        assertEquals(1, p.bwRows().size());
        assertEquals(r.bwAvg(), p.bwRows().get(0).bwAvg(), 0.005);
        assertEquals(r.msgRate(), p.bwRows().get(0).msgRate(), 0.0000005);
        assertEquals(2000, p.bwRows().get(0).iters());
    }

    @Test
    void parserReadsCsFields() {
        PerftestOutputParser.Parsed c = PerftestOutputParser.parse(
                io.rdmaffm.perftest.exchange.Capture.resource("write_bw_a.client.out"));
        assertEquals("RDMA_Write BW Test", c.title());
        assertEquals("rxe0", c.fields().get("Device"));
        assertEquals("1", c.fields().get("GID index"));
        assertEquals("OFF", c.fields().get("rdma_cm QPs"));
        assertEquals("1024[B]", c.fields().get("Mtu"));
        assertEquals(23, c.bwRows().size());
        assertEquals(8388608, c.bwRows().get(22).size());
        assertEquals(2, c.addresses().size());
        assertEquals(255, c.addresses().get(0).gid()[10]);
        PerftestOutputParser.Parsed lat = PerftestOutputParser.parse(
                io.rdmaffm.perftest.exchange.Capture.resource("atomic_lat.client.out"));
        assertEquals(3143.63, lat.latRows().get(0).p999());
        assertEquals("128", lat.fields().get("Outstand reads"));
    }

    @Test
    void jsonIsValidAndComplete() {
        BannerInfo info = BannerInfo.builder(Tool.WRITE_BW, Role.CLIENT).device("rx\"e0").gidIndex(1).build();
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("size", 65536);
        params.put("duration", null);
        params.put("report_gbits", false);
        params.put("server", "127.0.0.1");
        List<BwReport> rows = new ArrayList<>();
        rows.add(new BwReport(2, 200, 0.11, 0.03, 0.013741));
        rows.add(new BwReport(4, 200, 0.23, 0.17, 0.044799));
        String json = JsonReport.bandwidth(info, params, BwUnit.MB_PER_SEC, rows);
        Object doc = new MiniJson(json).parse();
        Map<?, ?> top = (Map<?, ?>) doc;
        Map<?, ?> testInfo = (Map<?, ?>) top.get("test_info");
        assertEquals("RDMA_Write_BW_Test", testInfo.get("test"));
        assertEquals("rx\"e0", testInfo.get("Device"));
        assertEquals(1.0, testInfo.get("GID_index"));
        Map<?, ?> results = (Map<?, ?>) top.get("results");
        assertEquals(4.0, results.get("MsgSize"));
        assertEquals(0.17, results.get("BW_average"));
        assertEquals(2, ((List<?>) top.get("all_results")).size());
        assertEquals(Boolean.FALSE, ((Map<?, ?>) top.get("parameters")).get("report_gbits"));

        LatencyRow lr = new LatencyRow(2, 1000, new LatencyResult(1, 2, 1.5, 1.6, Double.NaN, 1.9, 2));
        Map<?, ?> lat = (Map<?, ?>) new MiniJson(JsonReport.latency(
                BannerInfo.builder(Tool.SEND_LAT, Role.SERVER).device("rxe0").build(), Map.of(), List.of(lr))).parse();
        Map<?, ?> latRes = (Map<?, ?>) lat.get("results");
        assertEquals(1.5, latRes.get("t_typical"));
        assertTrue(latRes.containsKey("t_stdev") && latRes.get("t_stdev") == null);
        assertTrue(latRes.containsKey("percentile_99.9"));
    }

    @Test
    void hgrmShowsMicroseconds() {
        Histogram h = new Histogram(3_600_000_000L, 3);
        for (long v = 1000; v <= 5000; v += 1000) {
            h.recordValue(v);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        HgrmWriter.write(h, new PrintStream(bytes, true, StandardCharsets.US_ASCII));
        String out = bytes.toString(StandardCharsets.US_ASCII);
        assertTrue(out.contains("Value     Percentile TotalCount 1/(1-Percentile)"), out);
        // 5000 ns shows as 5.00x us (HdrHistogram reports the top of the value's bucket).
        assertTrue(out.matches("(?s).*\\n +5\\.00\\d 1\\.000000000000 +5\\n.*"), out);
        assertTrue(out.contains("#[Mean    =        3.00"), out);
        assertTrue(out.contains("Total count    =            5]"), out);
    }

    /** A strict little JSON parser for the tests: throws on anything invalid (trailing commas, bare keys). */
    static final class MiniJson {
        private final String s;
        private int i;

        MiniJson(String s) {
            this.s = s;
        }

        Object parse() {
            Object v = value();
            ws();
            if (i != s.length()) {
                throw new IllegalArgumentException("trailing data at " + i);
            }
            return v;
        }

        private Object value() {
            ws();
            char c = s.charAt(i);
            if (c == '{') {
                Map<String, Object> m = new LinkedHashMap<>();
                i++;
                ws();
                if (s.charAt(i) == '}') {
                    i++;
                    return m;
                }
                while (true) {
                    ws();
                    String k = string();
                    ws();
                    expect(':');
                    m.put(k, value());
                    ws();
                    if (s.charAt(i) == ',') {
                        i++;
                        continue;
                    }
                    expect('}');
                    return m;
                }
            }
            if (c == '[') {
                List<Object> l = new ArrayList<>();
                i++;
                ws();
                if (s.charAt(i) == ']') {
                    i++;
                    return l;
                }
                while (true) {
                    l.add(value());
                    ws();
                    if (s.charAt(i) == ',') {
                        i++;
                        continue;
                    }
                    expect(']');
                    return l;
                }
            }
            if (c == '"') {
                return string();
            }
            if (s.startsWith("true", i)) {
                i += 4;
                return Boolean.TRUE;
            }
            if (s.startsWith("false", i)) {
                i += 5;
                return Boolean.FALSE;
            }
            if (s.startsWith("null", i)) {
                i += 4;
                return null;
            }
            int start = i;
            while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) {
                i++;
            }
            if (start == i) {
                throw new IllegalArgumentException("unexpected '" + c + "' at " + i);
            }
            return Double.parseDouble(s.substring(start, i));
        }

        private String string() {
            expect('"');
            StringBuilder b = new StringBuilder();
            while (s.charAt(i) != '"') {
                char c = s.charAt(i++);
                if (c == '\\') {
                    char e = s.charAt(i++);
                    switch (e) {
                        case 'n' -> b.append('\n');
                        case 't' -> b.append('\t');
                        case 'r' -> b.append('\r');
                        case 'u' -> {
                            b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                            i += 4;
                        }
                        default -> b.append(e);
                    }
                } else if (c < 0x20) {
                    throw new IllegalArgumentException("control character in string at " + i);
                } else {
                    b.append(c);
                }
            }
            i++;
            return b.toString();
        }

        private void expect(char c) {
            if (s.charAt(i) != c) {
                throw new IllegalArgumentException("expected '" + c + "' at " + i + ", got '" + s.charAt(i) + "'");
            }
            i++;
        }

        private void ws() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
        }
    }
}
