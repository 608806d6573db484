package io.rdmaffm.perftest.validate;

import io.rdmaffm.perftest.params.ParameterRules;
import picocli.CommandLine.Option;

/**
 * The options of the loopback runs, declared once for the two commands that make them ({@code validate} and
 * {@code health}, which mix them in with picocli's {@code @Mixin}).
 */
public final class LoopbackOptions {
    @Option(names = {"-s", "--size"}, paramLabel = "SIZE", defaultValue = "" + Settings.DEFAULT_SIZE,
            description = "Message size of the loopback runs in bytes (K/M suffixes). Default: ${DEFAULT-VALUE}")
    String size;

    @Option(names = {"-q", "--qps"}, paramLabel = "N",
            description = "QPs per loopback run (default: one per 100 Gb/s of port rate, 2..16).")
    Integer qps;

    @Option(names = {"-D", "--duration"}, paramLabel = "SEC", defaultValue = "" + Settings.DEFAULT_DURATION,
            description = "Seconds per loopback run (perftest's -D; the middle half is measured). Default: ${DEFAULT-VALUE}")
    int duration;

    @Option(names = "--warmup", paramLabel = "N", description = "The tools' --warmup (default: theirs).")
    Integer warmup;

    /** Creates the options; picocli fills them in. */
    public LoopbackOptions() {
    }

    /**
     * The runs' settings from these options.
     *
     * @throws IllegalArgumentException when the size does not parse
     */
    public Settings settings(Thresholds thresholds) {
        long bytes = ParameterRules.parseSize(size);
        return new Settings((int) Math.min(bytes, Integer.MAX_VALUE), qps, duration, warmup, thresholds);
    }
}
