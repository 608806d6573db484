package io.rdmaffm.perftest.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

/**
 * The record of the fault cases a test ran, for the fault table in docs/faults.md: one tab-separated line
 * per case in {@code target/faults/NAME.tsv} (NAME the test's), with the fault, what happened, the seconds from
 * the fault to the end of the run, the bytes verified and the kernel objects left behind (or the columns the test
 * names itself). The file starts empty in each run of the test.
 */
public final class FaultRecords {
    /** The columns, in order. */
    public static final String HEADER = "fault\tcase\toutcome\tseconds\tbytes_verified\tleaked\tnote";

    private final Path file;

    private FaultRecords(Path file) {
        this.file = file;
    }

    /**
     * How many cases a fault suite runs: {@code property} when set, else {@code full} under
     * {@code -Dfaults.full=true} (scripts/faults-full.sh) and {@code ci} otherwise (the short form every push runs).
     */
    public static int count(String property, int ci, int full) {
        return Integer.getInteger(property, Boolean.getBoolean("faults.full") ? full : ci);
    }

    /** A fresh record file for the test {@code name}. */
    public static FaultRecords open(String name) {
        return open(name, HEADER);
    }

    /** A fresh record file for the test {@code name}, with its own columns ({@code header}, tab-separated). */
    public static FaultRecords open(String name, String header) {
        Path dir = Path.of("target", "faults");
        try {
            Files.createDirectories(dir);
            Path f = dir.resolve(name + ".tsv");
            Files.writeString(f, header + "\n", StandardCharsets.UTF_8);
            return new FaultRecords(f);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * One case. {@code seconds} below 0 means "not timed"; {@code verified} below 0 means "nothing verified";
     * {@code leaked} is what {@code rdma resource} showed left over (empty when nothing).
     */
    public synchronized void add(String fault, String caseName, String outcome, double seconds, long verified,
            String leaked, String note) {
        row(fault, caseName, outcome, seconds < 0 ? "-" : String.format(Locale.ROOT, "%.1f", seconds),
                verified < 0 ? "-" : Long.toString(verified), leaked == null || leaked.isEmpty() ? "0" : leaked, note);
    }

    /** One case as the values of the file's columns, in order (tabs and line breaks in them become spaces). */
    public synchronized void row(String... values) {
        String line = String.join("\t", java.util.Arrays.stream(values).map(FaultRecords::clean).toList()) + "\n";
        try {
            Files.writeString(file, line, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String clean(String s) {
        return s == null ? "" : s.replaceAll("[\\t\\r\\n]+", " ").strip();
    }
}
