package io.rdmaffm.verbs.topology;

import java.util.Objects;
import java.util.function.Function;

/**
 * A value read from sysfs, or the reason it could not be read or understood.
 *
 * <p>sysfs is full of files that are legitimately absent (virtual devices, old kernels, containers),
 * unreadable (permission, {@code EINVAL} on unused GID slots) or in a format this code does not know.
 * The topology model never throws for such a file; it records "unknown, because ..." so a caller can
 * say why a check could not be made.
 *
 * @param value   the value, or {@code null} when unknown
 * @param problem why the value is unknown, or {@code null} when it is known
 * @param <T>     the value's type
 */
public record Reading<T>(T value, String problem) {

    /**
     * Exactly one of the two components is non-null.
     *
     * @param value   the value, or {@code null}
     * @param problem the reason, or {@code null}
     */
    public Reading {
        if ((value == null) == (problem == null)) {
            throw new IllegalArgumentException("exactly one of value and problem must be set");
        }
    }

    /**
     * A known value.
     *
     * @param value the value, not null
     * @param <T>   its type
     * @return the reading
     */
    public static <T> Reading<T> of(T value) {
        return new Reading<>(Objects.requireNonNull(value, "value"), null);
    }

    /**
     * An unknown value with its reason.
     *
     * @param problem why it is unknown, e.g. {@code "ports/1/rate: permission denied"}
     * @param <T>     the value type it stands for
     * @return the reading
     */
    public static <T> Reading<T> unknown(String problem) {
        return new Reading<>(null, Objects.requireNonNull(problem, "problem"));
    }

    /** @return whether the value is known */
    public boolean known() {
        return value != null;
    }

    /**
     * @param other the fallback
     * @return the value, or {@code other} when unknown
     */
    public T orElse(T other) {
        return value != null ? value : other;
    }

    /**
     * Transforms a known value; an unknown one keeps its reason.
     *
     * @param f   the transformation, must not return null
     * @param <U> the new type
     * @return the transformed reading
     */
    public <U> Reading<U> map(Function<? super T, ? extends U> f) {
        return value != null ? Reading.of(f.apply(value)) : Reading.unknown(problem);
    }

    /**
     * Transforms a known value by a parse that may itself fail.
     *
     * @param f   the parse
     * @param <U> the new type
     * @return the parsed reading, or this reading's reason when unknown
     */
    public <U> Reading<U> flatMap(Function<? super T, Reading<U>> f) {
        return value != null ? f.apply(value) : Reading.unknown(problem);
    }

    /** @return the value as text, or {@code "unknown (reason)"} */
    public String describe() {
        return value != null ? String.valueOf(value) : "unknown (" + problem + ")";
    }
}
