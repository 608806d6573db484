package io.rdmaffm.perftest.cluster;

/**
 * Why a rail test produced no figures.
 *
 * @param kind    what went wrong
 * @param host    the host it is blamed on, or null when the pair as a whole failed (a stall, a run that died)
 * @param message one line for the matrix: which side said what
 */
public record Failure(Kind kind, String host, String message) {

    /** What went wrong, in the order of how sure we are whom to blame. */
    public enum Kind {
        /** The launcher could not reach the host (ssh exit 255, srun could not start the step) or lost it. */
        UNREACHABLE("unreachable"),
        /** The tool is not installed (not on PATH) on the host. */
        TOOL_MISSING("tool missing"),
        /** The tool says the RDMA device does not exist on the host. */
        DEVICE_MISSING("device missing"),
        /** Nothing within the time bound: the server never listened, or the run did not end; both stopped. */
        STALLED("stalled"),
        /** The tool ran and failed (a peer died, a transport error, a refused connection). */
        RUN_FAILED("run failed"),
        /** The tool said it succeeded but its output held no figures. */
        NO_RESULT("no result");

        private final String label;

        Kind(String label) {
            this.label = label;
        }

        /** Short label for the matrix. */
        public String label() {
            return label;
        }

        /** Whether the same attempt is worth repeating: not when a host is missing something. */
        public boolean worthRetesting() {
            return this == STALLED || this == RUN_FAILED || this == NO_RESULT;
        }
    }
}
