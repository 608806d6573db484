package io.rdmaffm.perftest.report.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A {@code fabric --json} document as the report reads it (docs/fabric.md): the pattern, each rail's figures, the
 * verdicts, and per rank its host and the counters that moved. Host names and counter names come from the hosts
 * and are untrusted: the report escapes them.
 *
 * @param source  the file
 * @param pattern allreduce, incast, ...
 * @param figures one per rail and case (size; incast: target)
 * @param verdicts every verdict, in the document's order
 * @param ranks   every rank
 */
public record FabricDocument(String source, String pattern, List<Figure> figures, List<Verdict> verdicts,
        List<Rank> ranks) {
    /** The schema this project writes; documents from before it have {@code "command": "fabric"} alone. */
    public static final String SCHEMA_PREFIX = "rdma-ffm.fabric/";

    /**
     * One rail's figures for one size (a sweep has one per size; incast one per target and size); null where the
     * run gave none.
     *
     * @param target incast's target host, or null (other patterns, documents from before rotation)
     */
    public record Figure(int rail, long bytes, Double timeUs, Double algbwGBps, Double busbwGBps, Double expectedGBps,
            Long wrong, String target) {
    }

    /** One verdict. */
    public record Verdict(String level, String rule, String host, String message) {
    }

    /**
     * One rank: where it ran, and its counter deltas (name → value; null = the counter could not be read).
     *
     * @param absent how many counters the host lacks
     */
    public record Rank(int rail, int rank, String host, String device, Map<String, Double> deltas, int absent) {
        /** "host/device". */
        public String where() {
            return host + "/" + device;
        }
    }

    /** Copies the lists. */
    public FabricDocument {
        figures = List.copyOf(figures);
        verdicts = List.copyOf(verdicts);
        ranks = List.copyOf(ranks);
    }

    /** Whether a parsed JSON document is a fabric document (its schema, or an older one's {@code command}). */
    public static boolean isFabric(Object parsed) {
        return parsed instanceof Map<?, ?> m && (m.get("schema") instanceof String s ? s.startsWith(SCHEMA_PREFIX)
                : "fabric".equals(m.get("command")));
    }

    /** The fabric document of a parsed file that {@link #isFabric} accepted. */
    public static FabricDocument of(String source, Object parsed) {
        Map<?, ?> doc = (Map<?, ?>) parsed;
        if (!(doc.get("pattern") instanceof String pattern) || !(doc.get("figures") instanceof List<?> fs)) {
            throw new RunFormatException(source + ": a fabric document without \"pattern\" or \"figures\"");
        }
        List<Figure> figures = new ArrayList<>();
        for (Object o : fs) {
            if (o instanceof Map<?, ?> f && number(f.get("bytes")) != null) {
                Double wrong = number(f.get("wrong"));
                figures.add(new Figure(integer(f.get("rail")), number(f.get("bytes")).longValue(),
                        number(f.get("time_us")), number(f.get("algbw_GBps")), number(f.get("busbw_GBps")),
                        number(f.get("expected_busbw_GBps")), wrong == null ? null : wrong.longValue(),
                        f.get("target") instanceof String t ? t : null));
            }
        }
        List<Verdict> verdicts = new ArrayList<>();
        if (doc.get("verdicts") instanceof List<?> vs) {
            for (Object o : vs) {
                if (o instanceof Map<?, ?> v) {
                    verdicts.add(new Verdict(text(v.get("level")), text(v.get("rule")),
                            v.get("host") instanceof String h ? h : null, text(v.get("message"))));
                }
            }
        }
        List<Rank> ranks = new ArrayList<>();
        if (doc.get("ranks") instanceof List<?> rs) {
            for (Object o : rs) {
                if (!(o instanceof Map<?, ?> r)) {
                    continue;
                }
                Map<String, Double> deltas = new TreeMap<>();
                int absent = 0;
                if (r.get("result") instanceof Map<?, ?> res && res.get("counters") instanceof Map<?, ?> c) {
                    if (c.get("delta") instanceof Map<?, ?> d) {
                        d.forEach((k, v) -> deltas.put(String.valueOf(k), number(v)));
                    }
                    if (c.get("absent") instanceof Map<?, ?> a) {
                        absent = a.size();
                    }
                }
                ranks.add(new Rank(integer(r.get("rail")), integer(r.get("rank")), text(r.get("host")),
                        text(r.get("device")), deltas, absent));
            }
        }
        return new FabricDocument(source, pattern, figures, verdicts, ranks);
    }

    private static Double number(Object o) {
        return o instanceof Number n && Double.isFinite(n.doubleValue()) ? n.doubleValue() : null;
    }

    private static int integer(Object o) {
        Double d = number(o);
        return d == null ? -1 : d.intValue();
    }

    private static String text(Object o) {
        return o == null ? "" : String.valueOf(o);
    }
}
