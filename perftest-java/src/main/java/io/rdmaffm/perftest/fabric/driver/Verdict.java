package io.rdmaffm.perftest.fabric.driver;

/**
 * One judged rule of a fabric run.
 *
 * @param level   how it came out
 * @param rule    the rule's short name ("loss", "busbw", "ecn", ...)
 * @param host    the host it names, or null when it is about the run as a whole
 * @param message one line
 */
public record Verdict(Level level, String rule, String host, String message) {

    /** How a rule came out, from best to worst; {@link #NOT_JUDGED} is never a pass. */
    public enum Level {
        /** Judged and good. */
        OK("ok"),
        /** Could not be judged (a counter or rate the host lacks): said so, never passed. */
        NOT_JUDGED("not judged"),
        /** Judged and suspicious: exit 1. */
        FLAGGED("flagged"),
        /** Judged and bad: exit 2. */
        FAILED("failed");

        private final String label;

        Level(String label) {
            this.label = label;
        }

        /** The label in the report. */
        public String label() {
            return label;
        }
    }

    /** The report's line. */
    public String line() {
        return level.label() + ": " + rule + ": " + message;
    }
}
