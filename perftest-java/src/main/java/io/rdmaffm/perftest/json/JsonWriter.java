package io.rdmaffm.perftest.json;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A small streaming JSON writer: objects, arrays, strings, numbers, booleans and null, pretty-printed with
 * two-space indentation or compact. It keeps the commas and checks the nesting itself, so a caller cannot
 * produce the unquoted keys and trailing commas of perftest 4.5's JSON; misuse (a value without a name in an
 * object, a name in an array, an unbalanced end, a second top-level value) throws
 * {@link IllegalStateException}.
 *
 * <p>Numbers: NaN and the infinities have no JSON form and are written as {@code null}. A {@code double} is
 * written in the shortest decimal that reads back as the same value, without exponent and without a
 * fraction when it is integral ({@code 400}, {@code 12.75}); {@link #fixed(double, int)} writes a given
 * number of decimals as C's {@code printf("%.Nf")} does, for figures that must match a table.
 *
 * <p>A document too large to hold goes to an {@link Appendable} ({@link #pretty(Appendable)}): the caller
 * {@link #flush()}es it there as it goes, e.g. after each element of a long array.
 *
 * <pre>{@code
 * String doc = JsonWriter.pretty().beginObject().name("size").value(65536).name("unit").value("usec")
 *         .endObject().toString();
 * }</pre>
 */
public final class JsonWriter {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private final StringBuilder out = new StringBuilder();
    private final Appendable sink;
    private final boolean pretty;
    private final Deque<Scope> scopes = new ArrayDeque<>();
    private boolean afterName;
    private boolean started;

    /** One open object or array, and whether anything has been written into it yet. */
    private static final class Scope {
        final boolean object;
        boolean empty = true;

        Scope(boolean object) {
            this.object = object;
        }
    }

    private JsonWriter(boolean pretty, Appendable sink) {
        this.pretty = pretty;
        this.sink = sink;
    }

    /** @return a writer that puts each member on its own line, indented by two spaces a level */
    public static JsonWriter pretty() {
        return new JsonWriter(true, null);
    }

    /**
     * @param sink where {@link #flush()} moves what has been written
     * @return a pretty writer whose document goes to {@code sink} a flush at a time
     */
    public static JsonWriter pretty(Appendable sink) {
        return new JsonWriter(true, Objects.requireNonNull(sink, "sink"));
    }

    /** @return a writer without any white space */
    public static JsonWriter compact() {
        return new JsonWriter(false, null);
    }

    /**
     * Moves what has been written since the last flush to the sink of {@link #pretty(Appendable)}.
     *
     * @throws IOException          when the sink cannot take it
     * @throws IllegalStateException when this writer has no sink
     */
    public void flush() throws IOException {
        if (sink == null) {
            throw new IllegalStateException("a writer without a sink keeps its document: use toString()");
        }
        sink.append(out);
        out.setLength(0);
    }

    /** @return this; starts an object, as a value or at the top */
    public JsonWriter beginObject() {
        return begin(true, '{');
    }

    /** @return this; ends the innermost object */
    public JsonWriter endObject() {
        return end(true, '}');
    }

    /** @return this; starts an array, as a value or at the top */
    public JsonWriter beginArray() {
        return begin(false, '[');
    }

    /** @return this; ends the innermost array */
    public JsonWriter endArray() {
        return end(false, ']');
    }

    /**
     * Writes a member name; the next call writes its value.
     *
     * @param name the name
     * @return this
     */
    public JsonWriter name(String name) {
        Scope s = scopes.peek();
        if (s == null || !s.object || afterName) {
            throw new IllegalStateException(afterName ? "two names in a row" : "a name outside an object");
        }
        separate(s);
        string(name);
        out.append(pretty ? ": " : ":");
        afterName = true;
        return this;
    }

    /**
     * @param s a string, or {@code null} for JSON null
     * @return this
     */
    public JsonWriter value(String s) {
        if (s == null) {
            return nullValue();
        }
        beforeValue();
        string(s);
        return this;
    }

    /**
     * @param v an integer
     * @return this
     */
    public JsonWriter value(long v) {
        return raw(Long.toString(v));
    }

    /**
     * @param v a boolean
     * @return this
     */
    public JsonWriter value(boolean v) {
        return raw(v ? "true" : "false");
    }

    /**
     * @param v a number: the shortest decimal that reads back as {@code v}, no exponent; NaN and the
     *          infinities as null
     * @return this
     */
    public JsonWriter value(double v) {
        if (!Double.isFinite(v)) {
            return nullValue();
        }
        return raw(plain(new BigDecimal(Double.toString(v))));
    }

    /**
     * @param n a boxed number, or {@code null}: integers exactly, {@code BigDecimal} as it is, {@code Float}
     *          by its own shortest decimal, anything else as a {@code double}
     * @return this
     */
    public JsonWriter value(Number n) {
        return switch (n) {
            case null -> nullValue();
            case Integer i -> value(i.longValue());
            case Long l -> value(l.longValue());
            case Short s -> value(s.longValue());
            case Byte b -> value(b.longValue());
            case BigInteger b -> raw(b.toString());
            case BigDecimal b -> raw(plain(b));
            case Float f -> Float.isFinite(f) ? raw(plain(new BigDecimal(Float.toString(f)))) : nullValue();
            default -> value(n.doubleValue());
        };
    }

    /**
     * A number with exactly {@code decimals} places, rounded as C's {@code printf("%.Nf")} rounds: the exact
     * binary value, ties to even, a negative that rounds to zero keeping its sign ({@code -0.00}).
     *
     * @param v        the number; NaN and the infinities are written as null
     * @param decimals places after the point, 0 or more
     * @return this
     */
    public JsonWriter fixed(double v, int decimals) {
        if (!Double.isFinite(v)) {
            return nullValue();
        }
        String s = new BigDecimal(v).setScale(decimals, RoundingMode.HALF_EVEN).toPlainString();
        boolean negative = (Double.doubleToRawLongBits(v) & Long.MIN_VALUE) != 0;
        return raw(negative && !s.startsWith("-") ? "-" + s : s);
    }

    /**
     * Writes a value that is already JSON, as it is: e.g. a compact document read back from a spool file, which
     * a pretty writer then puts on a line of its own. The caller vouches that it is exactly one JSON value.
     *
     * @param json one JSON value, not blank
     * @return this
     */
    public JsonWriter json(String json) {
        if (json == null || json.isBlank()) {
            throw new IllegalArgumentException("not a JSON value: " + (json == null ? "null" : "blank"));
        }
        return raw(json.strip());
    }

    /** @return this; writes null */
    public JsonWriter nullValue() {
        return raw("null");
    }

    /**
     * Writes a value of any of the types JSON has in Java: {@link Map} (keys by {@link String#valueOf}) and
     * {@link List} recursively, {@link String}, {@link Number}, {@link Boolean} and {@code null}; anything
     * else as its {@code toString()}.
     *
     * @param v the value
     * @return this
     */
    public JsonWriter any(Object v) {
        switch (v) {
            case null -> nullValue();
            case String s -> value(s);
            case Boolean b -> value(b.booleanValue());
            case Number n -> value(n);
            case Map<?, ?> m -> {
                beginObject();
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    name(String.valueOf(e.getKey())).any(e.getValue());
                }
                endObject();
            }
            case List<?> l -> {
                beginArray();
                for (Object o : l) {
                    any(o);
                }
                endArray();
            }
            default -> value(v.toString());
        }
        return this;
    }

    /** @return the document written so far (with a sink: since the last {@link #flush()}) */
    @Override
    public String toString() {
        return out.toString();
    }

    private JsonWriter begin(boolean object, char open) {
        raw(String.valueOf(open));
        scopes.push(new Scope(object));
        return this;
    }

    private JsonWriter end(boolean object, char close) {
        Scope s = scopes.peek();
        if (s == null || s.object != object || afterName) {
            throw new IllegalStateException(afterName ? "a name without a value" : "no " + (object ? "object"
                    : "array") + " to end here");
        }
        scopes.pop();
        if (!s.empty) {
            newline();
        }
        out.append(close);
        return this;
    }

    /** Writes a value already in JSON form. */
    private JsonWriter raw(String json) {
        beforeValue();
        out.append(json);
        return this;
    }

    private void beforeValue() {
        if (afterName) {
            afterName = false;
            return;
        }
        Scope s = scopes.peek();
        if (s == null) {
            if (started) {
                throw new IllegalStateException("a JSON document holds one value");
            }
            started = true;
        } else if (s.object) {
            throw new IllegalStateException("a value in an object needs a name first");
        } else {
            separate(s);
        }
    }

    private void separate(Scope s) {
        if (!s.empty) {
            out.append(',');
        }
        s.empty = false;
        newline();
    }

    private void newline() {
        if (pretty) {
            out.append('\n').repeat("  ", scopes.size());
        }
    }

    private static String plain(BigDecimal d) {
        return d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString();
    }

    private void string(String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    // U+2028/2029 are valid in JSON but end a line in JavaScript source; DEL, C1 controls,
                    // bidirectional overrides and zero-width marks are valid too, but values read from a
                    // broken sysfs tree or a peer would reach the terminal of whoever prints the document.
                    if (c < 0x20 || (c >= 0x7f && c < 0xa0) || (c >= 0x200b && c <= 0x200f)
                            || (c >= 0x2028 && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) || c == 0xfeff) {
                        out.append("\\u").append(HEX[c >> 12]).append(HEX[(c >> 8) & 0xf])
                                .append(HEX[(c >> 4) & 0xf]).append(HEX[c & 0xf]);
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
