package io.rdmaffm.perftest.report.model;

import io.rdmaffm.perftest.json.JsonReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What {@code report} reads of a matrix document ({@code rdma-ffm matrix --json}, schema
 * {@code rdma-ffm.matrix/1}, docs/matrix.md): its endpoints (host/device, in plan order) and each rail test's
 * verdict and figures.
 *
 * @param source the file, for messages and the page
 * @param endpoints {@code host/device} of servers and clients alike, sorted
 * @param pairs the rail tests
 * @param bestBwGbps the summary's best bandwidth, or null
 */
public record MatrixDocument(String source, List<String> endpoints, List<Pair> pairs, Double bestBwGbps) {
    /** The schema prefix of a matrix document. */
    public static final String SCHEMA_PREFIX = "rdma-ffm.matrix/";

    /**
     * One rail test: {@code server} served, {@code client} ran the client.
     *
     * @param status {@code OK}, {@code OK_ON_RETEST}, {@code FLAGGED} or {@code FAILED}
     * @param flags the rules broken (messages), empty unless flagged
     * @param cause the matrix's reading of the cause, or null
     */
    public record Pair(String server, String client, String status, Double bwGbps, Double latUsec, List<String> flags,
                       String cause) {
        public Pair {
            flags = List.copyOf(flags);
        }
    }

    public MatrixDocument {
        endpoints = List.copyOf(endpoints);
        pairs = List.copyOf(pairs);
    }

    /** Whether a parsed JSON document is a matrix document (its {@code schema} starts with the prefix). */
    public static boolean isMatrix(Object parsed) {
        return parsed instanceof Map<?, ?> m && m.get("schema") instanceof String s && s.startsWith(SCHEMA_PREFIX);
    }

    /** Reads the file as JSON: the parsed document, or a {@link RunFormatException} naming the file. */
    public static Object parse(Path file) {
        try {
            return JsonReader.parse(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new RunFormatException(file + ": cannot read: " + e.getMessage());
        } catch (IllegalArgumentException e) {
            throw new RunFormatException(file + ": not JSON: " + e.getMessage());
        }
    }

    /** The matrix document of a parsed file that {@link #isMatrix} accepted. */
    public static MatrixDocument of(String source, Object parsed) {
        Map<?, ?> doc = (Map<?, ?>) parsed;
        if (!(doc.get("pairs") instanceof List<?> rawPairs)) {
            throw new RunFormatException(source + ": a matrix document without \"pairs\"");
        }
        Set<String> endpoints = new LinkedHashSet<>();
        List<Pair> pairs = new ArrayList<>();
        for (Object o : rawPairs) {
            if (!(o instanceof Map<?, ?> p)) {
                throw new RunFormatException(source + ": \"pairs\" holds a " + o + ", not an object");
            }
            String server = endpoint(source, p, "server");
            String client = endpoint(source, p, "client");
            endpoints.add(server);
            endpoints.add(client);
            List<String> flags = new ArrayList<>();
            if (p.get("flags") instanceof List<?> fl) {
                for (Object f : fl) {
                    if (f instanceof Map<?, ?> fm && fm.get("message") instanceof String msg) {
                        flags.add(msg);
                    }
                }
            }
            pairs.add(new Pair(server, client, String.valueOf(p.get("status")), number(p.get("bwGbps")),
                    number(p.get("latUsec")), flags, p.get("cause") instanceof String c ? c : null));
        }
        List<String> ordered = new ArrayList<>(endpoints);
        ordered.sort(null);
        Double best = doc.get("summary") instanceof Map<?, ?> s ? number(s.get("bestBwGbps")) : null;
        return new MatrixDocument(source, ordered, pairs, best);
    }

    private static String endpoint(String source, Map<?, ?> p, String role) {
        if (!(p.get(role) instanceof String host)) {
            throw new RunFormatException(source + ": a pair without \"" + role + "\"");
        }
        return p.get(role + "Device") instanceof String dev ? host + "/" + dev : host;
    }

    private static Double number(Object o) {
        return o instanceof Double d ? d : null;
    }
}
