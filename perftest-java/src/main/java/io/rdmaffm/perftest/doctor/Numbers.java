package io.rdmaffm.perftest.doctor;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The figures behind a verdict, in a stable order: each a name and a typed value, {@code null} when unknown.
 * The JSON report writes them as the check's {@code numbers} object, in this order.
 *
 * @param figures the figures; names are unique
 */
public record Numbers(List<Figure> figures) {

    /** No figures (the usual N/A). */
    public static final Numbers NONE = new Numbers(List.of());

    /**
     * @param figures figures with unique names
     * @throws IllegalArgumentException on a repeated name
     */
    public Numbers {
        figures = List.copyOf(figures);
        Set<String> seen = new HashSet<>();
        for (Figure f : figures) {
            if (!seen.add(f.name())) {
                throw new IllegalArgumentException("figure " + f.name() + " given twice");
            }
        }
    }

    /** One named figure; the four kinds are JSON's string, integer, number and boolean. */
    public sealed interface Figure permits Text, Whole, Real, Flag {
        /** @return the name, e.g. {@code demandGbps} */
        String name();

        /** @return the value: a {@link String}, {@link Integer}, {@link Long}, {@link Double}, {@link Boolean}, null */
        Object value();
    }

    /**
     * @param name  the name
     * @param value text, or null
     */
    public record Text(String name, String value) implements Figure {
    }

    /**
     * @param name  the name
     * @param value an {@link Integer} or {@link Long} as the source had it, or null
     */
    public record Whole(String name, Number value) implements Figure {
        /**
         * @param name  name
         * @param value Integer, Long or null
         */
        public Whole {
            if (value != null && !(value instanceof Integer) && !(value instanceof Long)) {
                throw new IllegalArgumentException(name + ": not an integer: " + value.getClass().getName());
            }
        }
    }

    /**
     * @param name  the name
     * @param value a number, or null
     */
    public record Real(String name, Double value) implements Figure {
    }

    /**
     * @param name  the name
     * @param value true or false
     */
    public record Flag(String name, Boolean value) implements Figure {
        /**
         * @param name  name
         * @param value not null
         */
        public Flag {
            Objects.requireNonNull(value, name);
        }
    }

    /**
     * @param name a figure's name
     * @return its value ({@code null} also when absent; see {@link #containsKey})
     */
    public Object get(String name) {
        for (Figure f : figures) {
            if (f.name().equals(name)) {
                return f.value();
            }
        }
        return null;
    }

    /**
     * @param name a figure's name
     * @return whether the check gave that figure
     */
    public boolean containsKey(String name) {
        return figures.stream().anyMatch(f -> f.name().equals(name));
    }

    /** @return a builder that keeps the order figures are added in */
    static Builder builder() {
        return new Builder();
    }

    /** Collects figures while a check works; {@link #build()} may be called at each verdict. */
    static final class Builder {
        private final List<Figure> figures = new ArrayList<>();

        Builder text(String name, String value) { return add(new Text(name, value)); }

        Builder whole(String name, Number value) { return add(new Whole(name, value)); }

        Builder real(String name, Double value) { return add(new Real(name, value)); }

        Builder flag(String name, boolean value) { return add(new Flag(name, value)); }

        private Builder add(Figure f) {
            figures.add(f);
            return this;
        }

        Numbers build() {
            return new Numbers(figures);
        }
    }
}
