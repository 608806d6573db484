package io.rdmaffm.perftest.doctor;

import io.rdmaffm.perftest.json.JsonReader;
import io.rdmaffm.perftest.json.JsonWriter;
import java.util.List;
import java.util.Map;

/**
 * The doctor's JSON helpers over {@link Map}, {@link List}, {@link String}, {@link Double}, {@link Boolean} and
 * null trees: it parses {@code dcb -j} output (and lets tests read the doctor's own output). Reading is
 * {@link JsonReader}'s, writing {@link JsonWriter}'s.
 */
public final class Json {
    private Json() {
    }

    /**
     * @param value a {@link Map} (string keys), {@link List}, {@link String}, {@link Number}, {@link Boolean} or null
     * @return compact JSON
     */
    public static String write(Object value) {
        return JsonWriter.compact().any(value).toString();
    }

    /**
     * @param value as for {@link #write(Object)}
     * @return JSON indented by two spaces
     */
    public static String pretty(Object value) {
        return JsonWriter.pretty().any(value).toString();
    }

    /**
     * Parses one JSON value; the whole text must be that value (white space aside).
     *
     * @param text the JSON
     * @return Map, List, String, Double, Boolean or null
     * @throws IllegalArgumentException with the offset when the text is not JSON
     */
    public static Object parse(String text) {
        return JsonReader.parse(text);
    }
}
