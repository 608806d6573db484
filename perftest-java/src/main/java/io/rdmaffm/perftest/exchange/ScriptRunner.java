package io.rdmaffm.perftest.exchange;

import io.rdmaffm.perftest.vocab.BwReport;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs a {@link HandshakeScript}: wire steps go over the {@link PerftestExchange}, local steps go to the
 * engine through {@link Participant}. Keeps the engine free of protocol order and the protocol free of verbs.
 */
public final class ScriptRunner {
    private ScriptRunner() {
    }

    /** What the engine supplies and does while a script runs. */
    public interface Participant {
        /** Our page and cache-line sizes. */
        SysData localSysData();

        /** Our MTU as {@code enum ibv_mtu} (1..5), before negotiation. */
        int localMtu();

        /** After {@link Step#SYS_DATA}: the page and cache-line sizes both sides use (the maxima). */
        void negotiatedSysData(SysData sysData);

        /** After {@link Step#MTU}: the MTU enum both sides use (the minimum). */
        void negotiatedMtu(int mtuEnum);

        /**
         * How many sizes the per-size part runs, asked after the prologue: the MTU both sides agreed on can shorten
         * {@code -a}'s sweep on UD (perftest stops it at that MTU). {@code planned} by default.
         */
        default int sizeCount(int planned) {
            return planned;
        }

        /** Our destinations, one per QP; asked for after {@link Step#SETUP}, at every key handshake. */
        PingPongDest[] localDestinations();

        /** The peer's destinations, after each {@link Step#KEYS}. */
        void remoteDestinations(PingPongDest[] remote);

        /** Our report for size number {@code sizeIndex} (for a uni-dir server: anything, e.g. zeros). */
        BwReport localReport(int sizeIndex);

        /** The peer's report for size number {@code sizeIndex} (garbage when we are the uni-dir client). */
        void peerReport(BwReport peer, int sizeIndex);

        /**
         * A local step. {@code sizeIndex} is the size's position for per-size steps, -1 in the prologue and
         * epilogue.
         */
        void perform(Step step, int sizeIndex) throws Exception;

        /**
         * Once, just before the barrier that precedes the first measured loop (the peer then waits in that barrier
         * and measures nothing). Nothing by default.
         */
        default void beforeFirstRunBarrier() throws Exception {
        }
    }

    /**
     * Runs the whole script for {@code sizes} message sizes. Wire failures propagate as
     * {@link ExchangeException}; failures of local steps propagate unchanged.
     */
    public static void run(HandshakeScript script, PerftestExchange exchange, int sizes, Participant p)
            throws Exception {
        run(script, exchange, sizes, p, false);
    }

    /**
     * The same; with {@code reversed} ({@code --reversed}) the script is the other role's: perftest flips the
     * test's roles and keeps the connection's, whose side writes first in each exchange.
     */
    public static void run(HandshakeScript script, PerftestExchange exchange, int sizes, Participant p,
            boolean reversed) throws Exception {
        if ((script.role() != exchange.role()) != reversed) {
            throw new IllegalArgumentException("script is for the " + script.role() + ", channel is "
                    + exchange.role() + (reversed ? " (--reversed: they differ)" : ""));
        }
        int gate = firstRunBarrier(script);
        steps(script.prologue(), -1, exchange, p, gate);
        int count = p.sizeCount(sizes);
        for (int i = 0; i < count; i++) {
            steps(script.perSize(), i, exchange, p, i == 0 ? gate - script.prologue().size() : -1);
        }
        steps(script.epilogue(), -1, exchange, p, -1);
    }

    /**
     * The position of the barrier before the first measured loop, counted through the prologue and the first
     * size's steps: the last {@link Step#SYNC} before the first {@link Step#RUN}; -1 where there is none.
     */
    static int firstRunBarrier(HandshakeScript script) {
        List<Step> upToFirstRun = new ArrayList<>(script.prologue());
        upToFirstRun.addAll(script.perSize());
        int run = upToFirstRun.indexOf(Step.RUN);
        return run < 0 ? -1 : upToFirstRun.subList(0, run).lastIndexOf(Step.SYNC);
    }

    private static void steps(List<Step> steps, int sizeIndex, PerftestExchange ex, Participant p, int gate)
            throws Exception {
        for (int i = 0; i < steps.size(); i++) {
            Step s = steps.get(i);
            if (i == gate) {
                p.beforeFirstRunBarrier();
            }
            switch (s) {
                case VERSION -> ex.exchangeVersions();
                case SYS_DATA -> p.negotiatedSysData(ex.exchangeSysData(p.localSysData()));
                case MTU -> p.negotiatedMtu(ex.exchangeMtu(p.localMtu()));
                case KEYS -> p.remoteDestinations(ex.exchangeKeys(p.localDestinations()));
                case SYNC -> ex.sync(p.localDestinations()[0], false);
                case CM_BARRIER -> ex.rdmaCmBarrier("rdma_cm connection barrier");
                case SYNC_AFTER_PEER_RUN -> ex.sync(p.localDestinations()[0], true);
                case BW_REPORT -> p.peerReport(ex.exchangeBwReport(p.localReport(sizeIndex)), sizeIndex);
                case CLOSE -> ex.closeHandshake(p.localDestinations()[0], false);
                case CLOSE_AFTER_PEER_RUN -> ex.closeHandshake(p.localDestinations()[0], true);
                default -> p.perform(s, sizeIndex);
            }
        }
    }
}
