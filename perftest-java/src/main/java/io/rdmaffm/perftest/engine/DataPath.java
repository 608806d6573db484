package io.rdmaffm.perftest.engine;

import java.lang.foreign.MemorySegment;

/**
 * Everything a measured loop touches outside itself: posting prepared work requests, polling the two
 * completion queues, the message buffer and the clock. {@link VerbsSide} is the one implementation a run
 * loads, so the JIT sees a single receiver at every call and inlines it; the engine tests drive the same
 * loops through a fake to check their accounting without a device.
 *
 * <p>Send work requests are prepared before the loop (one batch of post-list size per QP, wr_id = the QP's
 * index); a loop only changes their flags. Receives carry wr_id = (QP index &lt;&lt; 32) | slot.
 */
interface DataPath {
    /** The most completions one batch poll returns. */
    int BATCH = 16;

    /** Number of queue pairs. */
    int queuePairs();

    /** Sets the send flags ({@code SendFlags} bits) of prepared request {@code request} of QP {@code qp}. */
    void sendFlags(int qp, int request, int flags);

    /** Posts the first {@code count} prepared send requests of QP {@code qp} as one list. */
    void postSend(int qp, int count);

    /** Posts {@code count} prepared receives of QP {@code qp} starting at {@code slot}. */
    void postRecv(int qp, int slot, int count);

    /**
     * Polls the send CQ for up to {@code max} completions ({@link #BATCH}, or 1 where exactly one is
     * outstanding); returns how many, readable with the send accessors until the next send poll.
     */
    int pollSends(int max);

    /** Whether send completion {@code k} of the last poll succeeded. */
    boolean sendOk(int k);

    /** The wr_id of send completion {@code k}. */
    long sendWrId(int k);

    /** A one-line description of send completion {@code k} (for errors). */
    String describeSend(int k);

    /** As {@link #pollSends}, for the receive CQ. */
    int pollRecvs(int max);

    /** Whether receive completion {@code k} of the last poll succeeded. */
    boolean recvOk(int k);

    /** The wr_id of receive completion {@code k}. */
    long recvWrId(int k);

    /** A one-line description of receive completion {@code k} (for errors). */
    String describeRecv(int k);

    /** The registered buffer (write latency polls the peer's byte in it). */
    MemorySegment memory();

    /** Offset in {@link #memory()} of QP {@code qp}'s send area. */
    long sendOffset(int qp);

    /** Offset in {@link #memory()} of QP {@code qp}'s receive area. */
    long recvOffset(int qp);

    /** The loops' clock, in nanoseconds. */
    long nanoTime();
}
