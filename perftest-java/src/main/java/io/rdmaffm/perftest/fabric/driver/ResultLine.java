package io.rdmaffm.perftest.fabric.driver;

import io.rdmaffm.perftest.json.JsonReader;
import java.util.Map;

/**
 * The worker's result line, {@value #MARK} followed by one JSON object (docs/fabric-contract.md): found as the
 * last such line of a rank's standard output, parsed into the JSON tree.
 */
public final class ResultLine {
    /** The line's prefix. */
    public static final String MARK = "@rdma-fabric result ";

    private ResultLine() {
    }

    /**
     * The object of the last result line in {@code stdout}.
     *
     * @return the object, or null when there is no result line
     * @throws IllegalArgumentException when the line is there but not a JSON object
     */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> find(String stdout) {
        String found = null;
        for (String line : stdout.split("\n", -1)) {
            String l = line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
            if (l.startsWith(MARK)) {
                found = l.substring(MARK.length());
            }
        }
        if (found == null) {
            return null;
        }
        Object v = JsonReader.parse(found);
        if (!(v instanceof Map<?, ?> m)) {
            throw new IllegalArgumentException("not a JSON object");
        }
        return (Map<String, Object>) m;
    }
}
