package io.rdmaffm.perftest.fabric.driver;

import java.util.Map;

/** Reading the workers' JSON trees, where any field may be missing, null or of another type than expected. */
final class Fields {
    private Fields() {
    }

    /** The value at a path of object keys, or null. */
    static Object path(Map<String, Object> m, String... keys) {
        Object v = m;
        for (String k : keys) {
            if (!(v instanceof Map<?, ?> o)) {
                return null;
            }
            v = o.get(k);
        }
        return v;
    }

    /** A finite number, or null. */
    static Double number(Object v) {
        return v instanceof Number n && Double.isFinite(n.doubleValue()) ? n.doubleValue() : null;
    }

    /** An object, or an empty one. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object v) {
        return v instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }
}
