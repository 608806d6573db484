package io.rdmaffm.perftest.fabric.driver;

import io.rdmaffm.perftest.cluster.DiscoveredHosts;
import io.rdmaffm.perftest.cluster.HostInput;
import io.rdmaffm.perftest.json.JsonReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/** Plans and rank results for the driver's tests: recorded result objects (test resources), changed per case. */
final class FabricFixtures {
    private FabricFixtures() {
    }

    /** A plan over {@code hosts} on device rxe0, with the given expected Gb/s per "host/rxe0" (may be empty). */
    static FabricPlan plan(String hosts, Consumer<FabricRequest.Builder> options, Map<String, Double> rates) {
        FabricRequest.Builder b = FabricRequest.builder();
        b.hosts.hosts = hosts;
        b.hosts.devices = List.of("rxe0");
        options.accept(b);
        FabricRequest o = b.build();
        HostInput.Hosts h = HostInput.fromList(hosts);
        return FabricPlanner.plan(o, new DiscoveredHosts(h, Map.of(), rates, Map.of(), List.of()));
    }

    /** A recorded result object from {@code fabric/NAME}, as a mutable tree. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> recorded(String name) {
        try (InputStream in = FabricFixtures.class.getClassLoader().getResourceAsStream("fabric/" + name)) {
            return (Map<String, Object>) deepCopy(JsonReader.parse(new String(in.readAllBytes(),
                    StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The recorded rxe rank, as rank {@code r} of {@code plan} with the given mean µs. */
    static RankResult rxeRank(FabricPlan plan, int r, double meanUs) {
        Map<String, Object> j = recorded("rxe-allreduce-rank1.json");
        FabricPlan.Rank rank = plan.rail(0).get(r);
        j.put("rank", (double) r);
        j.put("host", rank.host());
        j.put("pattern", plan.request().pattern().cli());
        j.put("bytes", (double) plan.request().bytes());
        time(j, meanUs);
        return new RankResult(rank, 0, j, null, "");
    }

    @SuppressWarnings("unchecked")
    static void time(Map<String, Object> j, double meanUs) {
        ((Map<String, Object>) j.get("time_us")).put("mean", meanUs);
    }

    @SuppressWarnings("unchecked")
    static void delta(Map<String, Object> j, String key, Double value) {
        ((Map<String, Object>) ((Map<String, Object>) j.get("counters")).get("delta")).put(key, value);
    }

    @SuppressWarnings("unchecked")
    private static Object deepCopy(Object o) {
        if (o instanceof Map<?, ?> m) {
            Map<String, Object> c = new LinkedHashMap<>();
            ((Map<String, Object>) m).forEach((k, v) -> c.put(k, deepCopy(v)));
            return c;
        }
        if (o instanceof List<?> l) {
            return new java.util.ArrayList<>(l.stream().map(FabricFixtures::deepCopy).toList());
        }
        return o;
    }
}
