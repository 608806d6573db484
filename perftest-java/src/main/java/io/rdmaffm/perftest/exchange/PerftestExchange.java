package io.rdmaffm.perftest.exchange;

import io.rdmaffm.perftest.vocab.BwReport;
import io.rdmaffm.perftest.vocab.Role;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The messages of perftest 4.5-0.17's TCP exchange, each as one method, over an {@link ExchangeChannel}.
 * Remembers the peer's version, because the MTU and report encodings depend on it. Which messages a tool
 * sends, and in what order, is the {@link HandshakeScript}'s business; {@link ScriptRunner} drives both.
 */
public final class PerftestExchange implements AutoCloseable {
    /** What perftest 4.5 writes after its closing handshake: "done" and its NUL. */
    static final byte[] DONE = "done\0".getBytes(StandardCharsets.US_ASCII);
    /** The largest page size a peer may report (64 KiB pages exist; larger ones are not sysconf's answer). */
    static final int MAX_PAGE_SIZE = 1 << 20;
    /** The largest cache line a peer may report. */
    static final int MAX_CACHE_LINE = 4096;

    private final ExchangeChannel channel;
    private final ExchangeTimeouts timeouts;
    private final boolean withGid;
    private final String localVersion;
    private int binaryKeyGidIndex;
    private boolean skipVersions;
    private String peerVersion;
    private double peerVersionValue;

    /**
     * @param channel  the connected channel
     * @param timeouts limits for reads
     * @param withGid  whether this side uses a GID (then the 108-byte key form is written and expected)
     */
    public PerftestExchange(ExchangeChannel channel, ExchangeTimeouts timeouts, boolean withGid) {
        this(channel, timeouts, withGid, VersionMessage.LOCAL_VERSION);
    }

    /** As above, advertising a different version string (for tests of version handling). */
    public PerftestExchange(ExchangeChannel channel, ExchangeTimeouts timeouts, boolean withGid,
            String localVersion) {
        this.channel = channel;
        this.timeouts = timeouts;
        this.withGid = withGid;
        this.localVersion = localVersion;
        this.peerVersion = localVersion;
        this.peerVersionValue = VersionMessage.numeric(localVersion);
    }

    /** Our role on the channel. */
    public Role role() {
        return channel.role();
    }

    /** Whether keys go in the 108-byte form with GID. */
    public boolean withGid() {
        return withGid;
    }

    /**
     * The GID index that binary keys carry (offset 52; perftest writes it and no reader uses it). Zero until
     * set, as in perftest's handshakes before its destinations are filled in.
     */
    public void binaryKeyGidIndex(int gidIndex) {
        this.binaryKeyGidIndex = gidIndex;
    }

    /**
     * {@code --dont_xchg_versions}: {@link #exchangeVersions()} sends and reads nothing. The peer's version then
     * stays empty, as in perftest 4.5 (its parameters are zeroed), and that counts as 0.
     */
    public void skipVersions() {
        this.skipVersions = true;
    }

    /** The peer's version string once {@link #exchangeVersions()} ran. */
    public String peerVersion() {
        return peerVersion;
    }

    /**
     * Exchanges version strings and refuses a peer older than 5.70.
     *
     * @return the peer's version string
     */
    public String exchangeVersions() throws ExchangeException {
        if (skipVersions) {
            // perftest 4.5 still checks the version it never received (check_version_compatibility): every run
            // with the flag ends here, on both perftests, after the control connection came up.
            peerVersion = "";
            peerVersionValue = 0;
            throw new ExchangeException("--dont_xchg_versions: the peer's version was not exchanged, so it counts as"
                    + " 0, and perftest 4.5 refuses peers older than 5.70 (C perftest: \"Current implementation is not"
                    + " compatible with versions older than 5.70\", exit 1)");
        }
        // The first message: a perftest-java peer may still be in its warm-up.
        byte[] theirs = channel.exchange(VersionMessage.encode(localVersion), VersionMessage.SIZE,
                "version exchange", timeouts.firstMessage());
        String v = VersionMessage.decode(theirs);
        VersionMessage.requireCompatible(v);
        peerVersion = v;
        peerVersionValue = VersionMessage.numeric(v);
        return v;
    }

    /** Exchanges page and cache-line sizes; returns the larger of each (ours unchanged for old peers). */
    public SysData exchangeSysData(SysData local) throws ExchangeException {
        if (peerVersionValue < SysData.MIN_PEER_VERSION) {
            return local;
        }
        int page = SysData.decodeInt(channel.exchange(SysData.encodeInt(local.pageSize()), SysData.FIELD_SIZE,
                "page size exchange", timeouts.io()));
        int line = SysData.decodeInt(channel.exchange(SysData.encodeInt(local.cacheLineSize()),
                SysData.FIELD_SIZE, "cache line size exchange", timeouts.io()));
        if (!plausible(page, MAX_PAGE_SIZE) || !plausible(line, MAX_CACHE_LINE)) {
            // Both sides size their buffers from the larger values: a hostile 2 GiB "page" must not become a
            // 4 GiB registration.
            throw new ExchangeException("peer sent an invalid page size " + page + " or cache line size " + line
                    + " (powers of two up to " + MAX_PAGE_SIZE + " and " + MAX_CACHE_LINE + " bytes)");
        }
        return local.merge(new SysData(page, line));
    }

    private static boolean plausible(int v, int max) {
        return v > 0 && v <= max && Integer.bitCount(v) == 1;
    }

    /** Exchanges MTU enum values (1..5); returns the one both use. */
    public int exchangeMtu(int localMtuEnum) throws ExchangeException {
        int size = MtuMessage.size(peerVersionValue);
        if (size == 0) {
            return localMtuEnum;
        }
        byte[] theirs = channel.exchange(MtuMessage.encode(localMtuEnum, size), size, "MTU exchange",
                timeouts.io());
        return MtuMessage.negotiate(localMtuEnum, MtuMessage.decode(theirs));
    }

    /** One key handshake per QP, in QP order; returns the peer's destinations in the same order. */
    public PingPongDest[] exchangeKeys(PingPongDest[] local) throws ExchangeException {
        PingPongDest[] remote = new PingPongDest[local.length];
        for (int i = 0; i < local.length; i++) {
            remote[i] = handshake(local[i], "key exchange", timeouts.io());
        }
        return remote;
    }

    /**
     * A single key handshake with QP 0's destination, which perftest uses as a barrier.
     *
     * @param peerRunning the peer may be running its measurement meanwhile: wait up to the peer-run limit
     */
    public PingPongDest sync(PingPongDest local0, boolean peerRunning) throws ExchangeException {
        return handshake(local0, peerRunning ? "key exchange (waiting for the peer's test run)" : "key exchange",
                peerRunning ? timeouts.peerRun() : timeouts.io());
    }

    /**
     * The barrier perftest runs around its rdma_cm connection of the test QPs ({@code -R}): a key handshake with
     * an all-zero destination, because perftest has not filled its destinations in yet. What the peer sends is
     * zeros too and is dropped.
     */
    public void rdmaCmBarrier(String phase) throws ExchangeException {
        byte[] zeros = new byte[PingPongDest.GID_LENGTH];
        int saved = binaryKeyGidIndex;
        binaryKeyGidIndex = 0;
        try {
            handshake(new PingPongDest(0, 0, 0, 0, 0, 0, zeros, 0), phase, timeouts.io());
        } finally {
            binaryKeyGidIndex = saved;
        }
    }

    /**
     * Exchanges bandwidth reports, field by field. In a uni-directional test the server's answers are
     * meaningless (C sends uninitialised memory): the client must ignore what this returns.
     */
    public BwReport exchangeBwReport(BwReport local) throws ExchangeException {
        byte[][] mine = BwReportMessage.encode(local, peerVersionValue);
        byte[][] theirs = new byte[BwReportMessage.FIELDS][];
        for (int i = 0; i < mine.length; i++) {
            theirs[i] = channel.exchange(mine[i], BwReportMessage.fieldSize(i, peerVersionValue),
                    "result exchange", timeouts.io());
        }
        return BwReportMessage.decode(theirs);
    }

    /**
     * perftest 4.5's close: one more key handshake, then (over TCP only) "done\0" that nobody reads. Failures after the
     * handshake are ignored; the caller still closes the channel.
     *
     * @param peerRunning the peer may still be running its measurement (read/atomic latency server)
     */
    public void closeHandshake(PingPongDest local0, boolean peerRunning) throws ExchangeException {
        handshake(local0, peerRunning ? "closing handshake (waiting for the peer's test run)" : "closing handshake",
                peerRunning ? timeouts.peerRun() : timeouts.io());
        if (!channel.binaryKeys()) {
            channel.sendAndForget(DONE.clone());
        }
    }

    @Override
    public void close() {
        channel.close();
    }

    private PingPongDest handshake(PingPongDest mine, String phase, Duration timeout) throws ExchangeException {
        if (channel.binaryKeys()) {
            return BinaryKeyMessage.decode(channel.exchange(BinaryKeyMessage.encode(mine, binaryKeyGidIndex),
                    BinaryKeyMessage.SIZE, phase, timeout));
        }
        int size = KeyMessage.size(withGid);
        return KeyMessage.decode(channel.exchange(KeyMessage.encode(mine, withGid), size, phase, timeout), withGid);
    }
}
