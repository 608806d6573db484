package io.rdmaffm.verbs.connect;

/**
 * How a {@link Connection} is built: its receive buffers, send queue, completion signaling and the private data for
 * the peer. A small mutable builder; {@link Connection#connect} and {@link RdmaServer#listen} copy it, so changing it
 * later affects no connection.
 *
 * <p>Defaults: {@value #DEFAULT_RECEIVE_BUFFERS} receive buffers of {@value #DEFAULT_BUFFER_SIZE} bytes (a message
 * from the peer is at most the peer's buffer size), a send queue of {@value #DEFAULT_SEND_QUEUE_DEPTH} work requests,
 * every operation signaled ({@link #signalInterval} 1), up to {@value #DEFAULT_READS_IN_FLIGHT} RDMA READs in flight
 * (lowered to what both devices allow), sends and writes up to {@value #DEFAULT_INLINE_THRESHOLD} bytes inline, no
 * private data.
 */
public final class ConnectionOptions {
    public static final int DEFAULT_RECEIVE_BUFFERS = 16;
    public static final int DEFAULT_BUFFER_SIZE = 4096;
    public static final int DEFAULT_SEND_QUEUE_DEPTH = 64;
    public static final int DEFAULT_READS_IN_FLIGHT = 16;
    public static final int DEFAULT_INLINE_THRESHOLD = 64;
    /** Bytes of the caller's private data a connect request carries (56 on the wire, less this API's header). */
    public static final int MAX_CONNECT_PRIVATE_DATA = 56 - Handshake.HEADER;
    /** Bytes of the caller's private data an accept carries (196 on the wire, less this API's header). */
    public static final int MAX_ACCEPT_PRIVATE_DATA = 196 - Handshake.HEADER;

    int receiveBuffers = DEFAULT_RECEIVE_BUFFERS;
    int bufferSize = DEFAULT_BUFFER_SIZE;
    int sendQueueDepth = DEFAULT_SEND_QUEUE_DEPTH;
    int signalInterval = 1;
    int readsInFlight = DEFAULT_READS_IN_FLIGHT;
    int inlineThreshold = DEFAULT_INLINE_THRESHOLD;
    byte[] privateData = new byte[0];
    SharedDomain sharedDomain;

    public ConnectionOptions() {
    }

    ConnectionOptions(ConnectionOptions o) {
        receiveBuffers = o.receiveBuffers;
        bufferSize = o.bufferSize;
        sendQueueDepth = o.sendQueueDepth;
        signalInterval = o.signalInterval;
        readsInFlight = o.readsInFlight;
        inlineThreshold = o.inlineThreshold;
        privateData = o.privateData.clone();
        sharedDomain = o.sharedDomain;
    }

    /**
     * Registered receive buffers this side keeps posted (2..65535): how many messages the peer may have in flight
     * before it has to wait for this side to release one ({@link Message#release()}).
     */
    public ConnectionOptions receiveBuffers(int n) {
        receiveBuffers = range("receiveBuffers", n, 2, 65535);
        return this;
    }

    /** Bytes of each receive buffer (1..2^30): the largest message the peer may send to this side. */
    public ConnectionOptions bufferSize(int bytes) {
        bufferSize = range("bufferSize", bytes, 1, 1 << 30);
        return this;
    }

    /**
     * Send work requests in flight at once (4..65535; the device may grant more): sends, writes, reads and the
     * library's own credit updates share it. Posting waits (blocking), queues (async) or returns -1 (poll style)
     * when it is full.
     */
    public ConnectionOptions sendQueueDepth(int n) {
        sendQueueDepth = range("sendQueueDepth", n, 4, 65535);
        return this;
    }

    /**
     * Ask for a completion on every k-th operation of the poll style (1..sendQueueDepth/2; default 1, every one): a
     * completion reports the operations before it too (RC completes in order), so a pipeline of writes costs fewer
     * completions with k = 8 or 16. The library also signals the operation that fills the send queue, one posted
     * when nothing was in flight (so operations done one at a time report themselves at any k), blocking and
     * asynchronous operations, and, when someone waits for an operation no signaled one follows, a small fence.
     */
    public ConnectionOptions signalInterval(int k) {
        signalInterval = range("signalInterval", k, 1, 32768);
        return this;
    }

    /** RDMA READs this side may have in flight (initiator depth, 1..255), lowered to what the devices allow. */
    public ConnectionOptions readsInFlight(int n) {
        readsInFlight = range("readsInFlight", n, 1, 255);
        return this;
    }

    /**
     * Sends and writes of at most this many bytes (0..1024) are posted inline ({@code IBV_SEND_INLINE}): the bytes are
     * copied into the work request when it is posted, which saves the device a read of the buffer (the buffer may be
     * reused as soon as the post returns, though the API still waits for the completion). Lowered to what the device
     * grants; 0 turns it off.
     */
    public ConnectionOptions inlineThreshold(int bytes) {
        inlineThreshold = range("inlineThreshold", bytes, 0, 1024);
        return this;
    }

    /**
     * Bytes for the peer, delivered exactly ({@link Connection#peerPrivateData()}): at most
     * {@value #MAX_CONNECT_PRIVATE_DATA} from a client, {@value #MAX_ACCEPT_PRIVATE_DATA} from a server. A
     * {@link RemoteBuffer#encode()} ({@value RemoteBuffer#ENCODED_LENGTH} bytes) fits either way.
     */
    public ConnectionOptions privateData(byte[] data) {
        byte[] d = data == null ? new byte[0] : data.clone();
        if (d.length > MAX_ACCEPT_PRIVATE_DATA) {
            throw new IllegalArgumentException("private data is at most " + MAX_ACCEPT_PRIVATE_DATA + " bytes (accept) or "
                    + MAX_CONNECT_PRIVATE_DATA + " (connect), not " + d.length);
        }
        privateData = d;
        return this;
    }

    /**
     * Build connections on {@code domain}'s protection domain instead of one of their own, so regions registered once
     * on it serve every such connection (see {@link SharedDomain}); null (the default) for a domain per connection.
     * The domain must stay open while connections are made with these options.
     */
    public ConnectionOptions sharedDomain(SharedDomain domain) {
        sharedDomain = domain;
        return this;
    }

    /** The shared domain connections are built on, or null for a protection domain of their own. */
    public SharedDomain sharedDomain() {
        return sharedDomain;
    }

    public int receiveBuffers() {
        return receiveBuffers;
    }

    public int bufferSize() {
        return bufferSize;
    }

    public int sendQueueDepth() {
        return sendQueueDepth;
    }

    public int signalInterval() {
        return signalInterval;
    }

    public int readsInFlight() {
        return readsInFlight;
    }

    public int inlineThreshold() {
        return inlineThreshold;
    }

    public byte[] privateData() {
        return privateData.clone();
    }

    private static int range(String what, int n, int min, int max) {
        if (n < min || n > max) {
            throw new IllegalArgumentException(what + " must be in " + min + ".." + max + ", not " + n);
        }
        return n;
    }

    @Override
    public String toString() {
        return "ConnectionOptions[receiveBuffers " + receiveBuffers + " x " + bufferSize + " bytes, sendQueueDepth "
                + sendQueueDepth + ", signalInterval " + signalInterval + ", readsInFlight " + readsInFlight
                + ", inlineThreshold " + inlineThreshold + ", private data " + privateData.length + " bytes"
                + (sharedDomain == null ? "" : ", " + sharedDomain) + "]";
    }
}
