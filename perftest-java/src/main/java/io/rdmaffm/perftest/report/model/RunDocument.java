package io.rdmaffm.perftest.report.model;

import java.util.List;

/**
 * One run as its {@code --out_json} document tells it (docs/run-json.md): schema 1, or version 0 (written before
 * the schema existed) with only the banner, the parameters and the rows.
 *
 * @param source where it was read from (a file name), for labels and messages
 * @param schemaVersion 1 for {@code rdma-ffm.run/1}, 0 for a file without {@code schema}
 * @param testInfo perftest's banner
 * @param parameters the resolved command line
 * @param environment host, JDK and date; null in version 0
 * @param device the device and port; null in version 0
 * @param rows every row ({@code all_results}, or {@code results} alone when that is all the file has)
 * @param measuredWindow the JVM's activity over all measured windows, or null when not recorded
 */
public record RunDocument(String source, int schemaVersion, TestInfo testInfo, Parameters parameters,
                          Environment environment, DeviceInfo device, List<Row> rows, MeasuredWindow measuredWindow) {

    public RunDocument {
        rows = List.copyOf(rows);
    }

    /** The test's name: the banner's {@code test}, else the tool, else {@code "unknown test"}. */
    public String testName() {
        if (testInfo.test() != null) {
            return testInfo.test();
        }
        return parameters.tool() != null ? parameters.tool() : "unknown test";
    }

    /** A short label: the file name without directory and {@code .json}. */
    public String label() {
        String s = source.replace('\\', '/');
        s = s.substring(s.lastIndexOf('/') + 1);
        return s.endsWith(".json") ? s.substring(0, s.length() - 5) : s;
    }

    /** The device's name: from {@code device}, else from the banner. */
    public String deviceName() {
        return device != null && device.name() != null ? device.name() : testInfo.device();
    }

    /**
     * Whether every row has full-precision figures; false for a file written before the rows' {@code exact}
     * objects existed, whose figures are the table's rounded ones.
     */
    public boolean exactFigures() {
        for (Row r : rows) {
            if (!r.exact()) {
                return false;
            }
        }
        return true;
    }

    /** Whether the rows are bandwidth rows (the first row decides; a run has one kind). */
    public boolean isBandwidth() {
        return !rows.isEmpty() && rows.get(0) instanceof Row.Bandwidth;
    }
}
