package io.rdmaffm.perftest.health;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The node-types file: INI-like, one {@code [type]} section per kind of node, as NHC keeps one config per SKU.
 *
 * <pre>
 * [gpu-h100]
 * match = gpu-*, dgx[0-9]*
 * hca.*.min_gbps = 180
 * hca.*.rate_gbps = 400
 * hca.*.pcie = Gen5 x16
 * hca.mlx5_4.min_gbps = 90
 * </pre>
 *
 * Strict, because a misspelt key would otherwise be a threshold silently not applied: an unknown key, a key
 * outside a section, a repeated key or section, or a value that does not parse is an error naming file and line.
 */
public final class NodeTypes {
    private static final Pattern SECTION = Pattern.compile("\\[([A-Za-z0-9_.@+-]+)]");
    private static final Pattern HCA_KEY = Pattern.compile("hca\\.([A-Za-z0-9_.-]+|\\*)\\.(min_gbps|rate_gbps|pcie)");
    private static final String KNOWN = "match, hca.NAME.min_gbps, hca.NAME.rate_gbps, hca.NAME.pcie (NAME an HCA or *)";

    private final Path file;
    private final Map<String, NodeType> types;

    private NodeTypes(Path file, Map<String, NodeType> types) {
        this.file = file;
        this.types = types;
    }

    /**
     * @param file the node-types file
     * @return its types
     * @throws IllegalArgumentException with one line (file:line: what) when it cannot be read or is not valid
     */
    public static NodeTypes read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read node types " + file + ": " + e.getMessage());
        }
        return parse(file, lines);
    }

    static NodeTypes parse(Path file, List<String> lines) {
        Map<String, NodeType> types = new LinkedHashMap<>();
        String section = null;
        List<String> match = new ArrayList<>();
        Map<String, Map<String, String>> values = new LinkedHashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            String where = file + ":" + (i + 1) + ": ";
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#") || line.startsWith(";")) {
                continue;
            }
            Matcher s = SECTION.matcher(line);
            if (s.matches()) {
                if (section != null) {
                    types.put(section, type(where, section, match, values));
                }
                section = s.group(1);
                if (types.containsKey(section)) {
                    throw new IllegalArgumentException(where + "section [" + section + "] appears twice");
                }
                match = new ArrayList<>();
                values = new LinkedHashMap<>();
                continue;
            }
            int eq = line.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException(where + "expected [type] or key = value, got '" + line + "'");
            }
            String key = line.substring(0, eq).strip();
            String value = line.substring(eq + 1).strip();
            if (section == null) {
                throw new IllegalArgumentException(where + "key '" + key + "' outside a [type] section");
            }
            if (value.isEmpty()) {
                throw new IllegalArgumentException(where + "key '" + key + "' has no value");
            }
            if (key.equals("match")) {
                if (!match.isEmpty()) {
                    throw new IllegalArgumentException(where + "'match' given twice in [" + section + "]");
                }
                for (String g : value.split(",")) {
                    if (!g.isBlank()) {
                        match.add(g.strip());
                    }
                }
                continue;
            }
            Matcher k = HCA_KEY.matcher(key);
            if (!k.matches()) {
                throw new IllegalArgumentException(where + "unknown key '" + key + "' in [" + section + "] (known: "
                        + KNOWN + ")");
            }
            if (values.computeIfAbsent(k.group(1), h -> new LinkedHashMap<>()).put(k.group(2), value) != null) {
                throw new IllegalArgumentException(where + "'" + key + "' given twice in [" + section + "]");
            }
            // parse now, so the error names this line
            rule(where, key, Map.of(k.group(2), value));
        }
        if (section != null) {
            types.put(section, type(file + ": ", section, match, values));
        }
        if (types.isEmpty()) {
            throw new IllegalArgumentException(file + ": no [type] section");
        }
        return new NodeTypes(file, types);
    }

    private static NodeType type(String where, String name, List<String> match, Map<String, Map<String, String>> values) {
        Map<String, HcaRule> rules = new LinkedHashMap<>();
        for (Map.Entry<String, Map<String, String>> e : values.entrySet()) {
            rules.put(e.getKey(), rule(where, "hca." + e.getKey(), e.getValue()));
        }
        return new NodeType(name, match, rules);
    }

    private static HcaRule rule(String where, String key, Map<String, String> v) {
        try {
            return new HcaRule(gbps(v.get("min_gbps")), gbps(v.get("rate_gbps")),
                    v.get("pcie") == null ? null : PcieLink.parse(v.get("pcie")));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + key + ": " + e.getMessage());
        }
    }

    private static Double gbps(String v) {
        if (v == null) {
            return null;
        }
        double d;
        try {
            d = Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a number of Gb/s: '" + v + "'");
        }
        if (!(d > 0) || Double.isInfinite(d)) {
            throw new IllegalArgumentException("Gb/s must be above 0, got " + v);
        }
        return d;
    }

    /**
     * @param name the --node-type, or null to match {@code host} against each type's globs (first match wins)
     * @param host this node's name
     * @return the type
     * @throws IllegalArgumentException with one line when the name is not in the file or no glob matches
     */
    public NodeType select(String name, String host) {
        if (name != null) {
            NodeType t = types.get(name);
            if (t == null) {
                throw new IllegalArgumentException("node type '" + name + "' is not in " + file + " (has: "
                        + String.join(", ", types.keySet()) + ")");
            }
            return t;
        }
        for (NodeType t : types.values()) {
            if (t.matches(host)) {
                return t;
            }
        }
        throw new IllegalArgumentException("no node type in " + file + " matches host '" + host
                + "' (no 'match' glob does); give --node-type");
    }
}
