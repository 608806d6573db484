package io.rdmaffm.perftest.report.model;

import io.rdmaffm.perftest.json.JsonReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads run documents (docs/run-json.md) into {@link RunDocument}s: schema {@code rdma-ffm.run/1} and files
 * without {@code schema} (version 0). Unknown keys are ignored; a key of the wrong type, a newer schema or a
 * document of another kind is a {@link RunFormatException} naming the file and the key.
 */
public final class RunReader {
    /** The schema name this reader writes its version after. */
    public static final String SCHEMA_PREFIX = "rdma-ffm.run/";
    /** The newest schema version this reader knows. */
    public static final int SCHEMA_VERSION = 1;
    private static final long MAX_BYTES = 256L << 20;

    private RunReader() {
    }

    /**
     * @param file a run document
     * @return the run
     * @throws RunFormatException when the file cannot be read or is not a run document
     */
    public static RunDocument read(Path file) {
        String text;
        try {
            if (Files.size(file) > MAX_BYTES) {
                throw new RunFormatException(file + ": larger than " + (MAX_BYTES >> 20) + " MiB, not a run document");
            }
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new RunFormatException(file + ": cannot read: " + describe(e));
        }
        return parse(text, file.toString());
    }

    private static String describe(IOException e) {
        String kind = e.getClass().getSimpleName();
        return switch (kind) {
            case "NoSuchFileException" -> "no such file";
            case "AccessDeniedException" -> "permission denied";
            case "MalformedInputException" -> "not UTF-8 text";
            default -> e.getMessage() == null ? kind : e.getMessage();
        };
    }

    /**
     * @param json the document's text
     * @param source a name for it in labels and messages
     * @return the run
     * @throws RunFormatException when the text is not a run document
     */
    public static RunDocument parse(String json, String source) {
        Object tree;
        try {
            tree = JsonReader.parse(json);
        } catch (IllegalArgumentException e) {
            throw new RunFormatException(source + ": " + e.getMessage());
        }
        if (!(tree instanceof Map<?, ?> top)) {
            throw new RunFormatException(source + ": not a run document (the top level is not an object)");
        }
        Fields f = new Fields(source, "", top);
        int version = version(f, source);
        if (!f.raw().containsKey("test_info") && !f.raw().containsKey("all_results")
                && !f.raw().containsKey("results")) {
            throw new RunFormatException(source + ": not a run document (no test_info, results or all_results)");
        }
        List<Row> rows = new ArrayList<>();
        List<Fields> all = f.objects("all_results");
        if (all.isEmpty() && f.raw().get("all_results") == null && f.object("results") != null) {
            all = List.of(f.object("results"));
        }
        for (Fields r : all) {
            rows.add(row(r));
        }
        return new RunDocument(source, version, TestInfo.read(f.object("test_info")),
                Parameters.read(f.object("parameters")), Environment.read(f.object("environment")),
                DeviceInfo.read(f.object("device")), rows, MeasuredWindow.read(f.object("measured_window")));
    }

    private static int version(Fields f, String source) {
        String schema = f.string("schema");
        if (schema == null) {
            return 0;
        }
        if (!schema.startsWith(SCHEMA_PREFIX)) {
            throw new RunFormatException(source + ": not a run document (schema \"" + schema + "\", expected "
                    + SCHEMA_PREFIX + SCHEMA_VERSION + ")");
        }
        int v;
        try {
            v = Integer.parseInt(schema.substring(SCHEMA_PREFIX.length()));
        } catch (NumberFormatException e) {
            throw f.error("schema", SCHEMA_PREFIX + "<number>", schema);
        }
        if (v < 1 || v > SCHEMA_VERSION) {
            throw new RunFormatException(source + ": schema " + schema + " is not one this build reads (it reads "
                    + SCHEMA_PREFIX + SCHEMA_VERSION + " and files without schema)");
        }
        return v;
    }

    private static Row row(Fields r) {
        Long size = r.integer("MsgSize");
        if (size == null) {
            throw r.error("MsgSize", "a whole number", null);
        }
        Long n = r.integer("n_iterations");
        long iters = n == null ? 0 : n;
        MeasuredWindow window = MeasuredWindow.read(r.object("measured_window"));
        TimeSeries series = TimeSeries.read(r.object("time_series"));
        Figures f = new Figures(r, r.object("exact"));
        if (r.raw().containsKey("BW_average") || r.raw().containsKey("BW_peak") || r.raw().containsKey("MsgRate")) {
            return new Row.Bandwidth(size, iters, f.get("BW_peak"), f.get("BW_average"), f.get("MsgRate"),
                    unitOr(r.string("BW_unit"), "MB/sec"), window, series, f.exact());
        }
        if (r.raw().containsKey("tps_average")) {
            return new Row.LatencyDuration(size, iters, f.get("t_avg"), f.get("tps_average"),
                    unitOr(r.string("unit"), "usec"), window, f.exact());
        }
        if (r.raw().containsKey("t_typical") || r.raw().containsKey("t_min") || r.raw().containsKey("t_avg")) {
            return new Row.Latency(size, iters, f.get("t_min"), f.get("t_max"), f.get("t_typical"),
                    f.get("t_avg"), f.get("t_stdev"), f.get("percentile_99"), f.get("percentile_99.9"),
                    unitOr(r.string("unit"), "usec"), window, LatencyHistogram.read(r.object("latency_histogram")),
                    series, f.exact());
        }
        throw r.problem("a row with neither bandwidth (BW_average) nor latency (t_avg) keys");
    }

    /**
     * A row's figures: from its {@code exact} object (full precision) where the file has one, else perftest's
     * keys with the table's decimals (files written before {@code exact} existed).
     */
    private record Figures(Fields rounded, Fields exactFigures) {
        boolean exact() {
            return exactFigures != null;
        }

        Double get(String key) {
            return exactFigures != null ? exactFigures.number(key) : rounded.number(key);
        }
    }

    private static String unitOr(String unit, String dflt) {
        return unit == null ? dflt : unit;
    }
}
