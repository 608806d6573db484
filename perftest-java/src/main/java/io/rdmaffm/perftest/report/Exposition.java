package io.rdmaffm.perftest.report;

import java.util.Locale;

/**
 * Prometheus' text exposition format (version 0.0.4), gauges only, for node_exporter's textfile collector: the one
 * writer that {@code health} and {@code matrix} both render with. Each family is declared once (HELP and TYPE)
 * and its samples follow it, as the format requires; a sample of any other family than the one last declared is
 * a programming error and throws, so a renderer cannot interleave families by mistake.
 */
public final class Exposition {
    private final StringBuilder b = new StringBuilder();
    private String family;

    /** An empty exposition. */
    public Exposition() {
    }

    /**
     * Declares the gauge family {@code name}; its samples come next.
     *
     * @param help one line (backslash and line feed are escaped)
     * @return this
     */
    public Exposition gauge(String name, String help) {
        family = name;
        b.append("# HELP ").append(name).append(' ').append(help.replace("\\", "\\\\").replace("\n", "\\n"))
                .append("\n# TYPE ").append(name).append(" gauge\n");
        return this;
    }

    /**
     * A sample with a whole number (a count, a 0/1 state, seconds since the epoch).
     *
     * @param labels label name, value, name, value, ... in the order they are written
     * @return this
     */
    public Exposition sample(String name, long value, String... labels) {
        line(name, labels).append(value).append('\n');
        return this;
    }

    /**
     * A sample with a measured figure, three decimals.
     *
     * @param labels label name, value, name, value, ... in the order they are written
     * @return this
     */
    public Exposition sample(String name, double value, String... labels) {
        line(name, labels).append(String.format(Locale.ROOT, "%.3f", value)).append('\n');
        return this;
    }

    private StringBuilder line(String name, String[] labels) {
        if (!name.equals(family)) {
            throw new IllegalStateException("sample of " + name + " outside its family (declared last: " + family
                    + ")");
        }
        if (labels.length % 2 != 0) {
            throw new IllegalArgumentException("labels come as name, value pairs: " + labels.length + " strings");
        }
        b.append(name);
        for (int i = 0; i < labels.length; i += 2) {
            b.append(i == 0 ? '{' : ',').append(labels[i]).append("=\"").append(escape(labels[i + 1])).append('"');
        }
        return b.append(labels.length == 0 ? " " : "} ");
    }

    /** @return the exposition text, ending in a newline when anything was declared */
    public String text() {
        return b.toString();
    }

    /** A label value as the format wants it: backslash, double quote and line feed escaped. */
    public static String escape(String v) {
        return v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
