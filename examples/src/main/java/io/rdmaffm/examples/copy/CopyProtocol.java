package io.rdmaffm.examples.copy;

import io.rdmaffm.verbs.MemoryRegion;
import io.rdmaffm.verbs.connect.Connection;
import io.rdmaffm.verbs.connect.Message;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * rdma-copy's messages, little-endian, one per SEND; the file's bytes never travel in them but by RDMA WRITE into
 * the receiver's window, two halves used in turn:
 * <pre>
 * H  size (u64), half size (u32), name length (u16), name    sender: here is a file, and the window I want
 * W  window (RemoteBuffer encoding), half size (u32)         receiver: write into this (halves of this size)
 * C  half (u32), length (u32), file offset (u64)             sender: that half holds the next bytes
 * A  half (u32)                                              receiver: that half is on disk, reuse it
 * D  size (u64), CRC-32C (u32)                               sender: that was all
 * R  ok (u8), CRC-32C (u32)                                  receiver: what it wrote, and whether it matches
 * </pre>
 */
final class CopyProtocol {
    static final byte HEADER = 'H';
    static final byte WINDOW = 'W';
    static final byte CHUNK = 'C';
    static final byte ACK = 'A';
    static final byte DONE = 'D';
    static final byte RESULT = 'R';

    private final Connection connection;
    private final MemoryRegion out;
    private final Duration timeout;

    CopyProtocol(Connection connection, Duration timeout) {
        this.connection = connection;
        this.timeout = timeout;
        this.out = connection.allocateRegion(connection.maxMessageSize(), io.rdmaffm.verbs.Access.LOCAL_WRITE);
    }

    /** A buffer to fill with one message (type first), then {@link #send}. */
    ByteBuffer start(byte type) {
        ByteBuffer b = out.segment().asByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
        b.put(type);
        return b;
    }

    void send(ByteBuffer filled) {
        connection.send(out, 0, filled.position(), timeout);
    }

    /** The next message, copied out and its buffer released; its type is the first byte. */
    ByteBuffer receive() {
        Message m = connection.receive(timeout);
        try {
            return ByteBuffer.wrap(m.toByteArray()).order(ByteOrder.LITTLE_ENDIAN);
        } finally {
            m.release();
        }
    }

    /** The next message, which must be of {@code type}. */
    ByteBuffer expect(byte type) {
        ByteBuffer b = receive();
        byte got = b.get();
        if (got != type) {
            throw new IllegalStateException("protocol error: expected message '" + (char) type + "', got '" + (char) got
                    + "'");
        }
        return b;
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static String utf8(ByteBuffer b, int length) {
        byte[] a = new byte[length];
        b.get(a);
        return new String(a, StandardCharsets.UTF_8);
    }
}
