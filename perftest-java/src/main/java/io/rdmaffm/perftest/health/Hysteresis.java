package io.rdmaffm.perftest.health;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

/**
 * Hysteresis across runs, kept in a small state file: the node's state changes (PASS to FAIL, or back) only after
 * {@code k} consecutive runs that disagree with it, so one slow run does not drain a node and one good run does
 * not return a flapping one. Without a state file the run's own result is the state (a first run that fails,
 * fails: nothing has passed yet).
 *
 * @param passing whether the node's state is PASS
 * @param streak  consecutive runs so far that disagreed with the state (below k)
 */
public record Hysteresis(boolean passing, int streak) {

    /**
     * @param raw this run's own result
     * @param k   consecutive disagreeing runs needed to change the state (1: none of hysteresis)
     * @return the state after this run
     */
    public Hysteresis next(boolean raw, int k) {
        if (raw == passing) {
            return new Hysteresis(passing, 0);
        }
        return streak + 1 >= k ? new Hysteresis(raw, 0) : new Hysteresis(passing, streak + 1);
    }

    /**
     * @param file the state file
     * @return the state it holds, or null when there is none yet
     * @throws IllegalArgumentException with one line when it cannot be read or is not a state file
     */
    public static Hysteresis read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read --state " + file + ": " + e.getMessage());
        }
        String state = null;
        Integer streak = null;
        for (String l : lines) {
            String[] kv = l.split("=", 2);
            if (l.isBlank() || l.startsWith("#") || kv.length != 2) {
                continue;
            }
            String v = kv[1].strip();
            switch (kv[0].strip()) {
                case "state" -> state = v;
                case "streak" -> streak = v.matches("\\d{1,6}") ? Integer.parseInt(v) : null;
                default -> { }
            }
        }
        if (!("PASS".equals(state) || "FAIL".equals(state)) || streak == null) {
            throw new IllegalArgumentException("--state " + file + " is not a health state file (want state = "
                    + "PASS|FAIL and streak = N); remove it to start afresh");
        }
        return new Hysteresis("PASS".equals(state), streak);
    }

    /** Writes the state to {@code file} atomically (a temporary file renamed over it). */
    public void write(Path file) throws IOException {
        AtomicFiles.write(file, "# rdma-perftest health: the node's state and how many runs in a row disagreed\n"
                + "state = " + (passing ? "PASS" : "FAIL") + "\nstreak = " + streak + "\n");
    }
}
