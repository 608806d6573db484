package io.rdmaffm.verbs.connect;

import io.rdmaffm.verbs.MemoryRegion;
import io.rdmaffm.verbs.QueuePair;
import io.rdmaffm.verbs.RecvWorkRequests;

/**
 * The connection's receive buffers: one registered region cut into {@code count} buffers of {@code size} bytes,
 * each with a receive work request (wr_id = {@link #TAG} | index) that is posted at the start and again whenever its
 * message is released; arrived messages wait in order in a ring. Under the connection's lock; allocation-free.
 */
final class ReceivePool implements AutoCloseable {
    /** Marks receive completions' wr_id (send work requests carry sequence numbers, far below it). */
    static final long TAG = 1L << 62;

    final int count;
    final int size;
    private final MemoryRegion region;
    private final RecvWorkRequests wrs;
    private Message[] views;
    private final int[] ring;
    private int head;
    private int queued;
    /** Buffers released and posted again since the start, and the count the peer was last told. */
    long released;
    long advertised;

    ReceivePool(MemoryRegion region, int count, int size) {
        this.region = region;
        this.count = count;
        this.size = size;
        this.wrs = new RecvWorkRequests(count, 1);
        this.ring = new int[count];
        for (int i = 0; i < count; i++) {
            wrs.set(i, TAG | i, region, (long) i * size, size);
        }
    }

    void views(Message[] v) {
        views = v;
    }

    MemoryRegion region() {
        return region;
    }

    void postAll(QueuePair qp) {
        qp.postRecv(wrs, 0, count);
    }

    /** Buffer {@code slot} is released: post it again. */
    void repost(QueuePair qp, int slot) {
        long t0 = CarrierTime.start();
        qp.postRecv(wrs, slot, 1);
        CarrierTime.end(CarrierTime.POST_RECV, t0);
        released++;
    }

    /** A message of {@code bytes} landed in buffer {@code slot}; returns its view. */
    Message arrived(int slot, int bytes) {
        Message m = views[slot];
        m.arrived(bytes);
        return m;
    }

    void enqueue(Message m) {
        ring[(head + queued) % count] = m.slot();
        queued++;
    }

    /** The oldest arrived message nobody has taken, or null. */
    Message next() {
        if (queued == 0) {
            return null;
        }
        Message m = views[ring[head]];
        head = (head + 1) % count;
        queued--;
        return m;
    }

    @Override
    public void close() {
        wrs.close();
    }
}
