package io.rdmaffm.perftest.health;

import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One {@code [section]} of the node-types file.
 *
 * @param name  the section name, what {@code --node-type} names
 * @param match hostname globs ({@code match = gpu-*, dgx[0-9]*}) that select this type when no --node-type is given
 * @param rules per HCA name, and {@code *} for every HCA
 */
public record NodeType(String name, List<String> match, Map<String, HcaRule> rules) {
    /** The key of the rule for every HCA. */
    public static final String ANY = "*";

    /**
     * @param name  name
     * @param match globs
     * @param rules rules
     */
    public NodeType {
        match = List.copyOf(match);
        rules = Map.copyOf(rules);
    }

    /** @return what this type asks of {@code hca}: its own keys over the {@code hca.*} ones */
    public HcaRule rule(String hca) {
        HcaRule general = rules.getOrDefault(ANY, HcaRule.NONE);
        HcaRule own = rules.get(hca);
        return own == null ? general : own.over(general);
    }

    /** @return the HCAs this type names one by one: each must be on the node */
    public List<String> namedHcas() {
        List<String> out = new ArrayList<>();
        for (String k : rules.keySet()) {
            if (!k.equals(ANY)) {
                out.add(k);
            }
        }
        out.sort(null);
        return out;
    }

    /** @return whether one of the {@code match} globs matches {@code host} */
    public boolean matches(String host) {
        for (String glob : match) {
            if (FileSystems.getDefault().getPathMatcher("glob:" + glob).matches(Path.of(host))) {
                return true;
            }
        }
        return false;
    }
}
