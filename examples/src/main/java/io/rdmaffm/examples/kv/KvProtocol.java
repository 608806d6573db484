package io.rdmaffm.examples.kv;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The key-value store's messages, little-endian, one request and one response per round trip:
 * <pre>
 * request   op (u8: P put, G get, E echo)   key length (u16)   value length (u32)   key   value
 * response  status (u8: 0 ok, 1 not found)  value length (u32)  value
 * </pre>
 */
final class KvProtocol {
    static final byte PUT = 'P';
    static final byte GET = 'G';
    static final byte ECHO = 'E';
    static final byte OK = 0;
    static final byte NOT_FOUND = 1;
    static final int REQUEST_HEADER = 7;
    static final int RESPONSE_HEADER = 5;

    private KvProtocol() {
    }

    /** A little-endian view of the first {@code length} bytes of {@code segment}. */
    static ByteBuffer view(MemorySegment segment, int length) {
        return segment.asSlice(0, length).asByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Writes a request; returns its length. */
    static int request(MemorySegment out, byte op, byte[] key, byte[] value) {
        ByteBuffer b = view(out, (int) out.byteSize());
        b.put(op).putShort((short) key.length).putInt(value.length).put(key).put(value);
        return b.position();
    }

    /** Writes a response; returns its length. */
    static int response(MemorySegment out, byte status, byte[] value) {
        ByteBuffer b = view(out, (int) out.byteSize());
        b.put(status).putInt(value.length).put(value);
        return b.position();
    }
}
