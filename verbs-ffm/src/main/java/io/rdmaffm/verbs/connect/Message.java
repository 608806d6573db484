package io.rdmaffm.verbs.connect;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

/**
 * A received message: a view of one of the connection's registered receive buffers, valid until {@link #release()},
 * which posts the buffer again and gives the peer its send credit back. Release every message, from any thread, as
 * soon as its bytes are used or copied: the peer can have only as many messages in flight as this side has buffers
 * posted. The view object of a buffer is reused for the next message that lands in it, so keep no reference past
 * release; every accessor throws IllegalStateException after release.
 */
public final class Message {
    private final Connection connection;
    private final int slot;
    private final MemorySegment buffer;
    private int length;
    private volatile boolean held;

    Message(Connection connection, int slot, MemorySegment buffer) {
        this.connection = connection;
        this.slot = slot;
        this.buffer = buffer;
    }

    void arrived(int bytes) {
        length = bytes;
        held = true;
    }

    int slot() {
        return slot;
    }

    /** Bytes received. */
    public int length() {
        check();
        return length;
    }

    /**
     * The whole receive buffer (the connection's buffer size): the message is its first {@link #length()} bytes.
     * The same segment every time, so reading through it allocates nothing.
     */
    public MemorySegment buffer() {
        check();
        return buffer;
    }

    /** The message's bytes as a segment of {@link #length()} bytes (a new view of the buffer). */
    public MemorySegment segment() {
        check();
        return buffer.asSlice(0, length);
    }

    /** A copy of the message's bytes. */
    public byte[] toByteArray() {
        check();
        return buffer.asSlice(0, length).toArray(JAVA_BYTE);
    }

    /** Copies the message's bytes to {@code target} at {@code offset}. */
    public void copyTo(MemorySegment target, long offset) {
        check();
        MemorySegment.copy(buffer, 0, target, offset, length);
    }

    /**
     * Gives the buffer back: posts it for the next message ({@code ibv_post_recv}) and counts a credit for the peer.
     * Idempotent: a second release does nothing.
     */
    public void release() {
        if (held) {
            connection.release(this);
        }
    }

    /** Under the connection's lock: true if this call ends the hold (so exactly one release reposts the buffer). */
    boolean takeBack() {
        if (!held) {
            return false;
        }
        held = false;
        return true;
    }

    private void check() {
        if (!held) {
            throw new IllegalStateException("this message was released; its buffer may already hold another one");
        }
    }

    @Override
    public String toString() {
        return held ? "Message[" + length + " bytes]" : "Message[released]";
    }
}
