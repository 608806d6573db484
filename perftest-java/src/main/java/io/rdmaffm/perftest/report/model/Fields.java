package io.rdmaffm.perftest.report.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Typed access to one JSON object of a run document, naming the file and the key path in every error. Absent
 * keys and JSON null both read as Java null: version-0 files lack the newer keys, and the schema writes an
 * unknown value as null.
 */
final class Fields {
    private final String source;
    private final String path;
    private final Map<?, ?> map;

    Fields(String source, String path, Map<?, ?> map) {
        this.source = source;
        this.path = path;
        this.map = map;
    }

    /** The object itself, key order kept. */
    Map<?, ?> raw() {
        return map;
    }

    boolean has(String key) {
        return map.get(key) != null;
    }

    RunFormatException error(String key, String expected, Object got) {
        String shown = got instanceof String s ? "\"" + s + "\"" : String.valueOf(got);
        if (shown.length() > 40) {
            shown = shown.substring(0, 40) + "...";
        }
        return new RunFormatException(source + ": " + where(key) + ": expected " + expected + ", got " + shown);
    }

    /** A problem with the object as a whole, e.g. a row of no known kind. */
    RunFormatException problem(String message) {
        return new RunFormatException(source + ": " + (path.isEmpty() ? "" : path + ": ") + message);
    }

    private String where(String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    String string(String key) {
        Object v = map.get(key);
        if (v == null || v instanceof String) {
            return (String) v;
        }
        throw error(key, "a string", v);
    }

    Double number(String key) {
        Object v = map.get(key);
        if (v == null || v instanceof Double) {
            return (Double) v;
        }
        throw error(key, "a number", v);
    }

    /** A whole number (counts, sizes, indexes); JSON has only doubles, so 2.5 is refused here. */
    Long integer(String key) {
        Double d = number(key);
        if (d == null) {
            return null;
        }
        if (d != Math.rint(d) || Math.abs(d) > 9.007199254740992E15) {
            throw error(key, "a whole number", d);
        }
        return d.longValue();
    }

    Integer smallInt(String key) {
        Long l = integer(key);
        if (l == null) {
            return null;
        }
        if (l < Integer.MIN_VALUE || l > Integer.MAX_VALUE) {
            throw error(key, "a whole number of int range", l);
        }
        return l.intValue();
    }

    int intOr(String key, int absent) {
        Integer i = smallInt(key);
        return i == null ? absent : i;
    }

    Boolean bool(String key) {
        Object v = map.get(key);
        if (v == null || v instanceof Boolean) {
            return (Boolean) v;
        }
        throw error(key, "true or false", v);
    }

    Fields object(String key) {
        Object v = map.get(key);
        if (v == null) {
            return null;
        }
        if (v instanceof Map<?, ?> m) {
            return new Fields(source, where(key), m);
        }
        throw error(key, "an object", v);
    }

    List<?> array(String key) {
        Object v = map.get(key);
        if (v == null || v instanceof List<?>) {
            return (List<?>) v;
        }
        throw error(key, "an array", v);
    }

    /** The elements of an array of objects, each with its index in the key path. */
    List<Fields> objects(String key) {
        List<?> l = array(key);
        List<Fields> out = new ArrayList<>();
        if (l == null) {
            return out;
        }
        for (int i = 0; i < l.size(); i++) {
            if (!(l.get(i) instanceof Map<?, ?> m)) {
                throw error(key + "[" + i + "]", "an object", l.get(i));
            }
            out.add(new Fields(source, where(key) + "[" + i + "]", m));
        }
        return out;
    }

    /** An array of strings; null when absent. */
    List<String> strings(String key) {
        List<?> l = array(key);
        if (l == null) {
            return null;
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < l.size(); i++) {
            if (!(l.get(i) instanceof String s)) {
                throw error(key + "[" + i + "]", "a string", l.get(i));
            }
            out.add(s);
        }
        return out;
    }

    /** An array of numbers whose elements may be null (an interval with no sample). */
    List<Double> numbersWithGaps(String key) {
        List<?> l = array(key);
        if (l == null) {
            return null;
        }
        List<Double> out = new ArrayList<>();
        for (int i = 0; i < l.size(); i++) {
            Object v = l.get(i);
            if (v != null && !(v instanceof Double)) {
                throw error(key + "[" + i + "]", "a number or null", v);
            }
            out.add((Double) v);
        }
        return out;
    }
}
