package io.rdmaffm.verbs.connect;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * What the two sides tell each other in rdma_cm's private data when they connect: the version of this protocol,
 * their receive buffers (count and size: the peer's send credits and largest message), where the peer writes credit
 * updates (address and rkey of this side's credit word), and the caller's own private data with its exact length
 * (rdma_cm pads private data with zeros to the protocol's fixed size). Little-endian:
 * <pre>
 * 0  version (1)     1  flags (0)        2  receive buffers (u16)   4  buffer size (i32)
 * 8  credit word address (i64)           16 credit word rkey (i32)  20 length of the caller's data (u8)
 * 21 the caller's data
 * </pre>
 */
record Handshake(int receiveBuffers, int bufferSize, long creditAddress, int creditRkey, byte[] userData) {
    static final int VERSION = 1;
    static final int HEADER = 21;

    byte[] encode() {
        ByteBuffer b = ByteBuffer.allocate(HEADER + userData.length).order(ByteOrder.LITTLE_ENDIAN);
        b.put((byte) VERSION).put((byte) 0).putShort((short) receiveBuffers).putInt(bufferSize).putLong(creditAddress)
                .putInt(creditRkey).put((byte) userData.length).put(userData);
        return b.array();
    }

    /** The peer's handshake; IllegalArgumentException naming what is wrong when it is not one of this version. */
    static Handshake decode(byte[] data) {
        if (data.length < HEADER) {
            throw new IllegalArgumentException("the peer sent " + data.length + " bytes of private data, not a "
                    + "connection handshake (" + HEADER + " bytes at least): is it a verbs-ffm Connection?");
        }
        ByteBuffer b = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
        int version = Byte.toUnsignedInt(b.get());
        if (version != VERSION) {
            throw new IllegalArgumentException("the peer speaks connection protocol version " + version + ", this side "
                    + VERSION);
        }
        b.get();
        int buffers = Short.toUnsignedInt(b.getShort());
        int size = b.getInt();
        long address = b.getLong();
        int rkey = b.getInt();
        int n = Byte.toUnsignedInt(b.get());
        if (buffers < 2 || size < 1 || n > data.length - HEADER) {
            throw new IllegalArgumentException("the peer's handshake is malformed: " + buffers + " buffers of " + size
                    + " bytes, " + n + " bytes of private data in " + (data.length - HEADER));
        }
        return new Handshake(buffers, size, address, rkey, Arrays.copyOfRange(data, HEADER, HEADER + n));
    }
}
