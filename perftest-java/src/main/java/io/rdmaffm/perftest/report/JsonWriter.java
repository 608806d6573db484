package io.rdmaffm.perftest.report;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * A minimal streaming JSON writer (objects, arrays, strings, numbers, booleans, null) with two-space
 * indentation. Enough for the {@code --out_json} report without a dependency; tracks commas itself so callers
 * cannot produce perftest 4.5's trailing-comma documents.
 */
public final class JsonWriter {
    private final StringBuilder out = new StringBuilder();
    private final Deque<boolean[]> firstInScope = new ArrayDeque<>();
    private boolean afterName;

    /** Starts an object (as a value, or at top level). */
    public JsonWriter beginObject() {
        beforeValue();
        out.append('{');
        firstInScope.push(new boolean[] {true});
        return this;
    }

    /** Ends the current object. */
    public JsonWriter endObject() {
        return end('}');
    }

    /** Starts an array. */
    public JsonWriter beginArray() {
        beforeValue();
        out.append('[');
        firstInScope.push(new boolean[] {true});
        return this;
    }

    /** Ends the current array. */
    public JsonWriter endArray() {
        return end(']');
    }

    /** Writes a member name; the next call writes its value. */
    public JsonWriter name(String name) {
        separator();
        string(name);
        out.append(": ");
        afterName = true;
        return this;
    }

    /** A string value (null writes null). */
    public JsonWriter value(String s) {
        beforeValue();
        if (s == null) {
            out.append("null");
        } else {
            string(s);
        }
        return this;
    }

    /** An integer value. */
    public JsonWriter value(long v) {
        beforeValue();
        out.append(v);
        return this;
    }

    /** A boolean value. */
    public JsonWriter value(boolean v) {
        beforeValue();
        out.append(v);
        return this;
    }

    /**
     * A number already formatted (e.g. with perftest's decimals); NaN and infinities have no JSON form and
     * become null.
     */
    public JsonWriter number(double v, int decimals) {
        beforeValue();
        out.append(Double.isFinite(v) ? CFormat.fixed(v, decimals) : "null");
        return this;
    }

    /** Any of String, Number, Boolean or null. */
    public JsonWriter any(Object v) {
        if (v == null || v instanceof String) {
            return value((String) v);
        }
        if (v instanceof Boolean b) {
            return value(b);
        }
        if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            beforeValue();
            out.append(Double.isFinite(d) ? Double.toString(d) : "null");
            return this;
        }
        if (v instanceof Number n) {
            return value(n.longValue());
        }
        return value(v.toString());
    }

    /** The document written so far. */
    @Override
    public String toString() {
        return out.toString();
    }

    private JsonWriter end(char c) {
        boolean empty = firstInScope.pop()[0];
        if (!empty) {
            newline();
        }
        out.append(c);
        return this;
    }

    private void beforeValue() {
        if (afterName) {
            afterName = false;
            return;
        }
        if (!firstInScope.isEmpty()) {
            separator();
        }
    }

    private void separator() {
        boolean[] first = firstInScope.peek();
        if (first == null) {
            throw new IllegalStateException("member outside an object");
        }
        if (!first[0]) {
            out.append(',');
        }
        first[0] = false;
        newline();
    }

    private void newline() {
        out.append('\n').append("  ".repeat(firstInScope.size()));
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
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
