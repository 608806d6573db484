package io.rdmaffm.perftest.exchange;

/**
 * One step of a tool's run as perftest orders it. Wire steps are carried out by {@link ScriptRunner} over the
 * exchange; local steps are handed to the engine ({@link ScriptRunner.Participant#perform}).
 */
public enum Step {
    /** Wire: 16-byte version strings; refuse peers older than 5.70. */
    VERSION(true),
    /** Wire: page size, then cache-line size (4 bytes each way each); both keep the maxima. */
    SYS_DATA(true),
    /** Wire: MTU enum as ASCII + NUL; both keep the minimum. */
    MTU(true),
    /** Local, {@code -R} only: the server starts listening for the test QPs' rdma_cm connections. */
    CM_LISTEN(false),
    /** Wire, {@code -R} only: a key handshake with an all-zero destination, before and after {@link #CM_CONNECT}. */
    CM_BARRIER(true),
    /**
     * Local, {@code -R} only: create the resources on the rdma_cm device and connect every test QP through
     * rdma_cm (client: resolve, connect; server: accept).
     */
    CM_CONNECT(false),
    /** Local: create resources (PD, CQs, QPs, MRs), choose the GID and PSNs, print the banner. */
    SETUP(false),
    /** Wire: one key handshake per QP, QP order; the peer's destinations become known. */
    KEYS(true),
    /** Wire: one key handshake with QP 0 used as a barrier; the peer answers promptly. */
    SYNC(true),
    /** Wire: as {@link #SYNC}, but the peer answers only after its measured run (use the peer-run limit). */
    SYNC_AFTER_PEER_RUN(true),
    /** Local: move QPs to RTR (and RTS where this side sends); with {@code -R} rdma_cm has done that. */
    CONNECT(false),
    /** Local: print the " local address: …" lines (and GID lines). */
    PRINT_LOCAL(false),
    /** Local: print the " remote address: …" lines (and GID lines). */
    PRINT_REMOTE(false),
    /** Local: print the result line and the table header. */
    HEADER(false),
    /** Local, per size: what must happen before the pre-run barrier (send tools: post receives/sends). */
    PREPARE(false),
    /** Local, per size: the measured loop. */
    RUN(false),
    /** Local, per size: print this side's row. */
    PRINT_ROW(false),
    /** Wire: bandwidth report, five fields; returns the peer's figures (garbage from a uni-dir server). */
    BW_REPORT(true),
    /** Local: the uni-directional BW server prints the client's row it just received. */
    PRINT_PEER_ROW(false),
    /** Local, per size: bidirectional BW prints the sum of local and peer figures. */
    PRINT_SUM_ROW(false),
    /** Local: print the closing result line. */
    FOOTER(false),
    /** Wire: closing handshake plus "done\0"; the peer answers promptly. */
    CLOSE(true),
    /** Wire: as {@link #CLOSE}, but the peer answers only after its measured run. */
    CLOSE_AFTER_PEER_RUN(true);

    private final boolean wire;

    Step(boolean wire) {
        this.wire = wire;
    }

    /** True for steps that send and receive on the exchange connection. */
    public boolean wire() {
        return wire;
    }
}
