package io.rdmaffm.perftest.report;

import io.rdmaffm.perftest.json.JsonWriter;
import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * Which build this is: the version, the git commit it was built from and whether the tree differed from that
 * commit, written at build time by {@code scripts/build-info.sh} into {@code build.properties} beside this class.
 * {@code --version} prints it and the run, doctor and matrix documents record it, so runs from many hosts can be told apart by
 * build.
 *
 * @param version the project version, or {@code "unknown"} (classes built without Maven)
 * @param commit  the full commit hash, or null when unknown (built outside a git checkout or without git)
 * @param dirty   whether the tree had changes or untracked files; null when unknown
 */
public record BuildInfo(String version, String commit, Boolean dirty) {
    /** The build these classes came from. */
    public static final BuildInfo CURRENT = load();

    private static BuildInfo load() {
        Properties p = new Properties();
        try (InputStream in = BuildInfo.class.getResourceAsStream("build.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            // unreadable: every field unknown, as for classes built without Maven
        }
        return of(p);
    }

    /** From the properties {@code version}, {@code commit} and {@code dirty}; missing or "unknown" is unknown. */
    static BuildInfo of(Properties p) {
        String version = known(p.getProperty("version"));
        String commit = known(p.getProperty("commit"));
        String dirty = known(p.getProperty("dirty"));
        return new BuildInfo(version == null ? "unknown" : version, commit,
                dirty == null ? null : Boolean.valueOf(dirty));
    }

    private static String known(String v) {
        return v == null || v.isBlank() || v.equals("unknown") || v.startsWith("${") ? null : v.strip();
    }

    /**
     * Writes the keys {@code tool_version}, {@code tool_commit} and {@code tool_dirty} (null where unknown) into
     * the object {@code w} is in: what the doctor and matrix documents say of the build, with the run document's
     * names (there under {@code environment}).
     */
    public void writeJson(JsonWriter w) {
        w.name("tool_version").value(version);
        w.name("tool_commit").value(commit);
        w.name("tool_dirty");
        if (dirty == null) {
            w.nullValue();
        } else {
            w.value(dirty.booleanValue());
        }
    }

    /**
     * One line: {@code 0.1.0 (commit 0123456789ab)}, {@code 0.1.0 (commit 0123456789ab, dirty tree)} or
     * {@code 0.1.0 (unknown commit)}.
     */
    public String describe() {
        if (commit == null) {
            return version + " (unknown commit)";
        }
        String state = dirty == null ? ", tree state unknown" : dirty ? ", dirty tree" : "";
        return version + " (commit " + commit.substring(0, Math.min(12, commit.length())) + state + ")";
    }
}
