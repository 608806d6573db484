package io.rdmaffm.perftest.json;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A minimal JSON reader, so the project needs no JSON library: it parses one JSON text into {@link Map}
 * (insertion-ordered, string keys), {@link List}, {@link String}, {@link Double}, {@link Boolean} and null.
 * Duplicate keys, trailing characters and nesting deeper than 200 levels are refused. The counterpart of
 * {@link JsonWriter}; the doctor reads {@code dcb -j} output with it and the report reads run documents.
 */
public final class JsonReader {
    private JsonReader() {
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
