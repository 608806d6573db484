package io.rdmaffm.perftest.vocab;

/** What {@code --verify} found wrong in one buffer: plain values for the report to print. */
public sealed interface Mismatch {
    /** How many bytes (or values) this finding adds to the run's total. */
    long count();

    /**
     * Bytes that differ from the pattern.
     *
     * @param what        the buffer, e.g. "receive buffer of QP 0"
     * @param differing   bytes that differ
     * @param length      bytes checked
     * @param firstOffset offset of the first differing byte in the message
     */
    record Bytes(String what, long differing, long length, long firstOffset) implements Mismatch {
        @Override
        public long count() {
            return differing;
        }
    }

    /**
     * An atomic target holding another value than the peer's operations should have left.
     *
     * @param qp       the QP whose target it is
     * @param holds    the value found
     * @param expected the value expected
     */
    record AtomicValue(int qp, long holds, long expected) implements Mismatch {
        @Override
        public long count() {
            return 1;
        }
    }
}
