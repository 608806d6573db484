package io.rdmaffm.perftest.doctor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A minimal JSON writer and reader, so the doctor needs no JSON library: the writer renders maps, lists,
 * strings, numbers, booleans and null; the reader parses {@code dcb -j} output (and lets tests check the
 * doctor's own output) into the same types, numbers as {@link Double}.
 */
public final class Json {
    private Json() {
    }

    /**
     * @param value a {@link Map} (string keys), {@link List}, {@link String}, {@link Number}, {@link Boolean} or null
     * @return compact JSON
     */
    public static String write(Object value) {
        StringBuilder b = new StringBuilder();
        write(b, value, 0, true);
        return b.toString();
    }

    /**
     * @param value as for {@link #write(Object)}
     * @return JSON indented by two spaces
     */
    public static String pretty(Object value) {
        StringBuilder b = new StringBuilder();
        write(b, value, 0, false);
        return b.toString();
    }

    private static void write(StringBuilder b, Object v, int depth, boolean compact) {
        switch (v) {
            case null -> b.append("null");
            case String s -> string(b, s);
            case Boolean bo -> b.append(bo);
            case Double d when d.isNaN() || d.isInfinite() -> b.append("null");
            case Float f when f.isNaN() || f.isInfinite() -> b.append("null");
            case Double d -> b.append(number(d));
            case Float f -> b.append(number(f.doubleValue()));
            case Number n -> b.append(n);
            case Map<?, ?> m -> {
                b.append('{');
                int i = 0;
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    b.append(i++ > 0 ? "," : "");
                    newline(b, depth + 1, compact);
                    string(b, String.valueOf(e.getKey()));
                    b.append(compact ? ":" : ": ");
                    write(b, e.getValue(), depth + 1, compact);
                }
                if (i > 0) {
                    newline(b, depth, compact);
                }
                b.append('}');
            }
            case List<?> l -> {
                b.append('[');
                int i = 0;
                for (Object o : l) {
                    b.append(i++ > 0 ? "," : "");
                    newline(b, depth + 1, compact);
                    write(b, o, depth + 1, compact);
                }
                if (i > 0) {
                    newline(b, depth, compact);
                }
                b.append(']');
            }
            default -> string(b, v.toString());
        }
    }

    private static String number(double d) {
        if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            return Long.toString((long) d);
        }
        return String.format(Locale.ROOT, "%.4f", d).replaceAll("0+$", "");
    }

    private static void newline(StringBuilder b, int depth, boolean compact) {
        if (!compact) {
            b.append('\n').append("  ".repeat(depth));
        }
    }

    private static void string(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x2028 || c == 0x2029) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('"');
    }

    /**
     * Parses one JSON value; the whole text must be that value (white space aside).
     *
     * @param text the JSON
     * @return Map, List, String, Double, Boolean or null
     * @throws IllegalArgumentException with the offset when the text is not JSON
     */
    public static Object parse(String text) {
        Parser p = new Parser(text);
        Object v = p.value(0);
        p.ws();
        if (p.pos != text.length()) {
            throw p.error("trailing characters");
        }
        return v;
    }

    private static final class Parser {
        private final String s;
        private int pos;

        Parser(String s) {
            this.s = s;
        }

        IllegalArgumentException error(String what) {
            return new IllegalArgumentException("bad JSON at offset " + pos + ": " + what);
        }

        void ws() {
            while (pos < s.length() && " \t\r\n".indexOf(s.charAt(pos)) >= 0) {
                pos++;
            }
        }

        Object value(int depth) {
            if (depth > 200) {
                throw error("nested too deeply");
            }
            ws();
            if (pos >= s.length()) {
                throw error("unexpected end");
            }
            char c = s.charAt(pos);
            switch (c) {
                case '{' -> {
                    pos++;
                    Map<String, Object> m = new LinkedHashMap<>();
                    ws();
                    if (peek('}')) {
                        return m;
                    }
                    do {
                        ws();
                        if (pos >= s.length() || s.charAt(pos) != '"') {
                            throw error("expected a key");
                        }
                        String k = str();
                        ws();
                        expect(':');
                        if (m.put(k, value(depth + 1)) != null) {
                            throw error("duplicate key " + k);
                        }
                        ws();
                    } while (peek(','));
                    expect('}');
                    return m;
                }
                case '[' -> {
                    pos++;
                    List<Object> l = new ArrayList<>();
                    ws();
                    if (peek(']')) {
                        return l;
                    }
                    do {
                        l.add(value(depth + 1));
                        ws();
                    } while (peek(','));
                    expect(']');
                    return l;
                }
                case '"' -> {
                    return str();
                }
                default -> {
                    if (s.startsWith("true", pos)) {
                        pos += 4;
                        return Boolean.TRUE;
                    }
                    if (s.startsWith("false", pos)) {
                        pos += 5;
                        return Boolean.FALSE;
                    }
                    if (s.startsWith("null", pos)) {
                        pos += 4;
                        return null;
                    }
                    int start = pos;
                    while (pos < s.length() && "+-0123456789.eE".indexOf(s.charAt(pos)) >= 0) {
                        pos++;
                    }
                    String num = s.substring(start, pos);
                    if (!num.matches("-?(0|[1-9]\\d*)(\\.\\d+)?([eE][+-]?\\d+)?")) {
                        pos = start;
                        throw error("unexpected character '" + c + "'");
                    }
                    return Double.parseDouble(num);
                }
            }
        }

        boolean peek(char c) {
            if (pos < s.length() && s.charAt(pos) == c) {
                pos++;
                return true;
            }
            return false;
        }

        void expect(char c) {
            if (!peek(c)) {
                throw error("expected '" + c + "'");
            }
        }

        String str() {
            pos++; // opening quote
            StringBuilder b = new StringBuilder();
            while (true) {
                if (pos >= s.length()) {
                    throw error("unterminated string");
                }
                char c = s.charAt(pos++);
                if (c == '"') {
                    return b.toString();
                }
                if (c < 0x20) {
                    throw error("control character in string");
                }
                if (c != '\\') {
                    b.append(c);
                    continue;
                }
                if (pos >= s.length()) {
                    throw error("unterminated escape");
                }
                char e = s.charAt(pos++);
                switch (e) {
                    case '"', '\\', '/' -> b.append(e);
                    case 'b' -> b.append('\b');
                    case 'f' -> b.append('\f');
                    case 'n' -> b.append('\n');
                    case 'r' -> b.append('\r');
                    case 't' -> b.append('\t');
                    case 'u' -> {
                        if (pos + 4 > s.length()) {
                            throw error("short \\u escape");
                        }
                        try {
                            b.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
                        } catch (NumberFormatException ex) {
                            throw error("bad \\u escape");
                        }
                        pos += 4;
                    }
                    default -> throw error("bad escape \\" + e);
                }
            }
        }
    }
}
