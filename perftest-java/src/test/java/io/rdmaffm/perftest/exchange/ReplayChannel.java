package io.rdmaffm.perftest.exchange;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.rdmaffm.perftest.vocab.Role;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * Plays the C peer from a capture: every write of ours must equal the captured write of the same side, byte for
 * byte, and every read returns what the C side read. Writes whose position {@code skipCompare} accepts are only
 * checked for length (the uni-dir server's report answers: uninitialised memory in C).
 */
final class ReplayChannel implements ExchangeChannel {
    private final Role role;
    private final List<Capture.Io> view;
    private final IntPredicate skipCompare;
    private int pos;

    ReplayChannel(Role role, List<Capture.Io> view, IntPredicate skipCompare) {
        this.role = role;
        this.view = view;
        this.skipCompare = skipCompare;
    }

    @Override
    public Role role() {
        return role;
    }

    @Override
    public byte[] exchange(byte[] mine, int peerLength, String phase, Duration timeout) {
        if (role == Role.CLIENT) {
            expectSend(mine, phase);
            return expectRecv(peerLength, phase);
        }
        byte[] theirs = expectRecv(peerLength, phase);
        expectSend(mine, phase);
        return theirs;
    }

    @Override
    public void sendAndForget(byte[] bytes) {
        expectSend(bytes, "done");
    }

    @Override
    public void close() {
    }

    /** How many captured writes and reads have been replayed. */
    int position() {
        return pos;
    }

    /** All captured I/O was replayed. */
    void assertFinished() {
        assertEquals(view.size(), pos, "captured I/O left over at position " + pos);
    }

    private void expectSend(byte[] mine, String phase) {
        if (pos >= view.size()) {
            fail("extra write during " + phase + ": " + HexFormat.of().formatHex(mine));
        }
        Capture.Io io = view.get(pos);
        assertTrue(io.send(), "wrote during " + phase + " at position " + pos + " where C read");
        if (skipCompare.test(pos)) {
            assertEquals(io.bytes().length, mine.length, "length of write at " + pos + " (" + phase + ")");
        } else {
            assertArrayEquals(io.bytes(), mine, "write at " + pos + " (" + phase + ")");
        }
        pos++;
    }

    private byte[] expectRecv(int length, String phase) {
        if (pos >= view.size()) {
            fail("extra read during " + phase);
        }
        Capture.Io io = view.get(pos);
        assertTrue(!io.send(), "read during " + phase + " at position " + pos + " where C wrote");
        assertEquals(io.bytes().length, length, "read size at " + pos + " (" + phase + ")");
        pos++;
        return io.bytes();
    }
}
