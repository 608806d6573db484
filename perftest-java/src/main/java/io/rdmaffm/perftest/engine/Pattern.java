package io.rdmaffm.perftest.engine;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

/**
 * The --verify data pattern: byte k of a message is a fixed function of k, so a receiving perftest-java
 * can check what a sending perftest-java wrote without exchanging the data. (C perftest fills with rand(),
 * so --verify is for Java on both sides.)
 */
final class Pattern {
    private Pattern() {
    }

    static byte at(long k) {
        return (byte) (k * 131 + 17 + (k >>> 8));
    }

    static void fill(MemorySegment s, long offset, long length) {
        for (long k = 0; k < length; k++) {
            s.set(JAVA_BYTE, offset + k, at(k));
        }
    }

    /** Offset of the first byte that differs, or -1; reports at most the first mismatch of a run. */
    static long firstMismatch(MemorySegment s, long offset, long length) {
        for (long k = 0; k < length; k++) {
            if (s.get(JAVA_BYTE, offset + k) != at(k)) {
                return k;
            }
        }
        return -1;
    }

    /** Number of differing bytes. */
    static long mismatches(MemorySegment s, long offset, long length) {
        long bad = 0;
        for (long k = 0; k < length; k++) {
            if (s.get(JAVA_BYTE, offset + k) != at(k)) {
                bad++;
            }
        }
        return bad;
    }
}
