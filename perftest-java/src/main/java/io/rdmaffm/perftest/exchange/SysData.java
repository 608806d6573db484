package io.rdmaffm.perftest.exchange;

/**
 * The system data both sides exchange after the versions: page size ("cycle buffer") and cache-line size,
 * each a big-endian int32 in its own message. Both sides continue with the larger of each, so buffer
 * strides match and neither side writes outside the peer's region.
 *
 * @param pageSize      local {@code sysconf(_SC_PAGESIZE)} equivalent, bytes
 * @param cacheLineSize L1 data cache line, bytes
 */
public record SysData(int pageSize, int cacheLineSize) {
    /** Size of each of the two messages. */
    public static final int FIELD_SIZE = 4;
    /** Peers older than this do not send system data. */
    public static final double MIN_PEER_VERSION = 5.32;

    /** Validates that both sizes are positive. */
    public SysData {
        if (pageSize <= 0 || cacheLineSize <= 0) {
            throw new IllegalArgumentException("page and cache-line sizes must be positive");
        }
    }

    /** What both sides use after the exchange: the larger of each value. */
    public SysData merge(SysData peer) {
        return new SysData(Math.max(pageSize, peer.pageSize), Math.max(cacheLineSize, peer.cacheLineSize));
    }

    /** The wire form of one value: big-endian int32. */
    public static byte[] encodeInt(int value) {
        return new byte[] {(byte) (value >>> 24), (byte) (value >>> 16), (byte) (value >>> 8), (byte) value};
    }

    /** Reads a big-endian int32. */
    public static int decodeInt(byte[] message) {
        if (message.length != FIELD_SIZE) {
            throw new IllegalArgumentException("expected 4 bytes, got " + message.length);
        }
        return ((message[0] & 0xff) << 24) | ((message[1] & 0xff) << 16) | ((message[2] & 0xff) << 8)
                | (message[3] & 0xff);
    }
}
