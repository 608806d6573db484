package io.rdmaffm.perftest.report.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One figure per interval of a row's measured loop (schema 1, {@code time_series}): the largest latency (µs) or
 * the bandwidth of the interval.
 *
 * @param intervalMs the interval length, ms
 * @param unit {@code "usec"}, {@code "MB/sec"} or {@code "Gb/sec"}
 * @param startOffsetMs the first interval's start, from the row's first post
 * @param values one per interval; null where an interval had no sample
 */
public record TimeSeries(double intervalMs, String unit, double startOffsetMs, List<Double> values) {

    public TimeSeries {
        values = Collections.unmodifiableList(new ArrayList<>(values));
    }

    /** The start of interval {@code i}, ms from the row's first post. */
    public double startMs(int i) {
        return startOffsetMs + i * intervalMs;
    }

    /** Intervals that have a value. */
    public int presentCount() {
        int n = 0;
        for (Double v : values) {
            if (v != null) {
                n++;
            }
        }
        return n;
    }

    static TimeSeries read(Fields f) {
        if (f == null) {
            return null;
        }
        Double interval = f.number("interval_ms");
        if (interval == null || !(interval > 0)) {
            throw f.error("interval_ms", "a positive number", interval);
        }
        List<Double> values = f.numbersWithGaps("values");
        Double start = f.number("start_offset_ms");
        return new TimeSeries(interval, f.string("unit"), start == null ? 0 : start,
                values == null ? List.of() : values);
    }
}
