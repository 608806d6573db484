package io.rdmaffm.verbs.connect;

import io.rdmaffm.verbs.MemoryRegion;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

/**
 * Memory of the peer that this side may write and read with {@link Connection#write} and {@link Connection#read}:
 * the address and rkey of a registered region (the peer registered it with REMOTE_WRITE and/or REMOTE_READ) and its
 * length. Offsets of an operation are checked against the length before anything is posted.
 *
 * <p>Encoding, for private data or a message ({@link #encode()}, {@link #decode(byte[])}): {@value #ENCODED_LENGTH}
 * bytes, little-endian: version (1 byte, {@value #VERSION}), address (8), rkey (4), length (8). Trailing bytes (e.g.
 * the zero padding of rdma_cm private data) are ignored, so a buffer can be the prefix of something longer.
 *
 * @param address the peer's virtual address of the first byte (what remote_addr names)
 * @param rkey    the remote key of the region
 * @param length  bytes from {@code address} this side may use
 */
public record RemoteBuffer(long address, int rkey, long length) {
    /** The encoding's version byte. */
    public static final int VERSION = 1;
    /** Bytes of the encoding. */
    public static final int ENCODED_LENGTH = 21;
    private static final ValueLayout.OfLong LE_LONG = JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt LE_INT = JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    public RemoteBuffer {
        if (length < 0) {
            throw new IllegalArgumentException("a remote buffer's length cannot be negative: " + length);
        }
    }

    /** The whole region, for the peer. */
    public static RemoteBuffer of(MemoryRegion region) {
        return new RemoteBuffer(region.address(), region.rkey(), region.length());
    }

    /** {@code length} bytes at {@code offset} of the region (bounds-checked), for the peer. */
    public static RemoteBuffer of(MemoryRegion region, long offset, long length) {
        return new RemoteBuffer(region.addressOf(offset, length), region.rkey(), length);
    }

    /** The part [offset, offset+length) of this buffer, bounds-checked. */
    public RemoteBuffer slice(long offset, long length) {
        check(offset, length);
        return new RemoteBuffer(address + offset, rkey, length);
    }

    /** The remote address of {@code offset}, checked to leave {@code length} bytes inside this buffer. */
    public long addressOf(long offset, long length) {
        check(offset, length);
        return address + offset;
    }

    private void check(long offset, long n) {
        if (offset < 0 || n < 0 || offset > this.length - n) {
            throw new IndexOutOfBoundsException("bytes [" + offset + ", " + (offset + n) + ") are outside this "
                    + this.length + "-byte remote buffer (address 0x" + Long.toHexString(address) + ", rkey 0x"
                    + Integer.toHexString(rkey) + ")");
        }
    }

    /** The {@value #ENCODED_LENGTH}-byte encoding. */
    public byte[] encode() {
        byte[] out = new byte[ENCODED_LENGTH];
        encodeTo(MemorySegment.ofArray(out), 0);
        return out;
    }

    /** Writes the encoding at {@code offset} of {@code target} (e.g. a send buffer); allocation-free. */
    public void encodeTo(MemorySegment target, long offset) {
        target.set(JAVA_BYTE, offset, (byte) VERSION);
        target.set(LE_LONG, offset + 1, address);
        target.set(LE_INT, offset + 9, rkey);
        target.set(LE_LONG, offset + 13, length);
    }

    /** Decodes the first {@value #ENCODED_LENGTH} bytes of {@code data}. */
    public static RemoteBuffer decode(byte[] data) {
        if (data == null || data.length < ENCODED_LENGTH) {
            throw new IllegalArgumentException("a remote buffer takes " + ENCODED_LENGTH + " bytes, not "
                    + (data == null ? "null" : data.length));
        }
        return decode(MemorySegment.ofArray(data), 0);
    }

    /** Decodes the encoding at {@code offset} of {@code source} (e.g. a received message). */
    public static RemoteBuffer decode(MemorySegment source, long offset) {
        if (offset < 0 || source.byteSize() - offset < ENCODED_LENGTH) {
            throw new IllegalArgumentException("a remote buffer takes " + ENCODED_LENGTH + " bytes; "
                    + Math.max(0, source.byteSize() - offset) + " at offset " + offset);
        }
        int version = Byte.toUnsignedInt(source.get(JAVA_BYTE, offset));
        if (version != VERSION) {
            throw new IllegalArgumentException("remote buffer encoding version " + version + ", this library reads "
                    + VERSION);
        }
        return new RemoteBuffer(source.get(LE_LONG, offset + 1),
                source.get(LE_INT, offset + 9),
                source.get(LE_LONG, offset + 13));
    }

    @Override
    public String toString() {
        return "RemoteBuffer[0x" + Long.toHexString(address) + ", rkey 0x" + Integer.toHexString(rkey) + ", " + length
                + " bytes]";
    }
}
