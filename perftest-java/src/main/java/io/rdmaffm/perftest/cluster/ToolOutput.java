package io.rdmaffm.perftest.cluster;

import io.rdmaffm.perftest.report.PerftestOutputParser;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads what one end printed: the figures of a finished client, and what a failed end's output says about the
 * failure.
 */
public final class ToolOutput {
    /** perftest-java: "no RDMA device named 'x'"; C perftest: "IB device x not found". */
    private static final Pattern DEVICE_MISSING = Pattern.compile(
            "no RDMA device named|IB device \\S+ not found|Unable to find the Infiniband/RoCE device");
    /** perftest-java: "connection refused by h:p"; C perftest: "Couldn't connect to h:p". */
    private static final Pattern REFUSED = Pattern.compile("connection refused|Couldn't connect to",
            Pattern.CASE_INSENSITIVE);
    private static final double BITS_PER_MB = 0x100000L * 8.0;

    private ToolOutput() {
    }

    /**
     * Figures of one tool run.
     *
     * @param bwGbps  average bandwidth of the last row in Gb/s, NaN for a latency tool
     * @param latUsec t_typical of the last row (t_avg in duration mode) in µs, NaN for a bandwidth tool
     * @param json    the JSON document (perftest-java), else null
     */
    public record Figures(double bwGbps, double latUsec, String json) {
    }

    /** The tool's text: everything before the JSON mark, without the script's own pid line. */
    public static String text(String stdout) {
        int j = stdout.indexOf(RemoteScript.JSON_MARK);
        String t = j < 0 ? stdout : stdout.substring(0, j);
        return t.replaceAll("(?m)^" + RemoteScript.PID_MARK + " \\d+\\n", "");
    }

    /** The JSON document after the JSON mark, or null. */
    public static String json(String stdout) {
        int j = stdout.indexOf(RemoteScript.JSON_MARK + "\n");
        if (j < 0) {
            return null;
        }
        String doc = stdout.substring(j + RemoteScript.JSON_MARK.length() + 1).strip();
        return doc.isEmpty() ? null : doc;
    }

    /**
     * The figures a successful client printed, or null when there are none.
     *
     * @param peer      whose output it is
     * @param bandwidth whether the tool is a bandwidth tool
     * @param stdout    the client end's standard output
     */
    public static Figures figures(MatrixRequest.Peer peer, boolean bandwidth, String stdout) {
        if (peer == MatrixRequest.Peer.JAVA) {
            String doc = json(stdout);
            if (doc == null) {
                return null;
            }
            Map<String, Object> results = MatrixJson.results(doc);
            if (results == null) {
                return null;
            }
            return bandwidth ? bw(figure(results, "BW_average"), String.valueOf(results.get("BW_unit")), doc)
                    : lat(results.containsKey("t_typical") ? figure(results, "t_typical") : figure(results, "t_avg"),
                            doc);
        }
        PerftestOutputParser.Parsed p = PerftestOutputParser.parse(text(stdout));
        if (bandwidth) {
            List<PerftestOutputParser.BwRow> rows = p.bwRows();
            return rows.isEmpty() ? null : bw(rows.get(rows.size() - 1).bwAvg(), p.bwUnit(), null);
        }
        if (!p.latRows().isEmpty()) {
            return lat(p.latRows().get(p.latRows().size() - 1).typical(), null);
        }
        List<PerftestOutputParser.LatDurationRow> d = p.latDurationRows();
        return d.isEmpty() ? null : lat(d.get(d.size() - 1).avgUsec(), null);
    }

    private static Figures bw(double value, String unit, String json) {
        if (Double.isNaN(value)) {
            return null;
        }
        // perftest's MB is 2^20 bytes; --report_gbits gives 10^9 bit/s already.
        double gbps = "Gb/sec".equals(unit) ? value : value * BITS_PER_MB / 1e9;
        return new Figures(gbps, Double.NaN, json);
    }

    private static Figures lat(double usec, String json) {
        return Double.isNaN(usec) ? null : new Figures(Double.NaN, usec, json);
    }

    /**
     * A figure of a row at full precision: its {@code exact} object's (docs/run-json.md, in the row's units), or
     * the rounded one perftest prints where the document predates {@code exact}.
     */
    static double figure(Map<String, Object> row, String key) {
        if (row.get("exact") instanceof Map<?, ?> exact && exact.get(key) instanceof Number n) {
            return n.doubleValue();
        }
        return number(row.get(key));
    }

    private static double number(Object o) {
        return o instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    /** Whether a client's failure was the server not listening (yet): worth another try while time is left. */
    public static boolean refused(String output) {
        return REFUSED.matcher(output).find();
    }

    /** The line of an end's output that says its RDMA device does not exist, or null. */
    public static String deviceMissing(String output) {
        for (String line : output.split("\n")) {
            if (DEVICE_MISSING.matcher(line).find()) {
                return Names.printable(line.strip(), 160);
            }
        }
        return null;
    }

    /** The last non-empty line of {@code s} (the tools print their error last), or "" when none. */
    public static String lastLine(String s) {
        String[] lines = s.strip().split("\n");
        for (int i = lines.length - 1; i >= 0; i--) {
            String l = lines[i].strip();
            if (!l.isEmpty() && !l.startsWith(RemoteScript.PID_MARK) && !l.startsWith("---")) {
                return Names.printable(l, 160);
            }
        }
        return "";
    }
}
