package io.rdmaffm.perftest.exchange;

import io.rdmaffm.perftest.vocab.Role;
import io.rdmaffm.perftest.vocab.Tool;

import static io.rdmaffm.perftest.exchange.Step.BW_REPORT;
import static io.rdmaffm.perftest.exchange.Step.CLOSE;
import static io.rdmaffm.perftest.exchange.Step.CLOSE_AFTER_PEER_RUN;
import static io.rdmaffm.perftest.exchange.Step.CM_BARRIER;
import static io.rdmaffm.perftest.exchange.Step.CM_CONNECT;
import static io.rdmaffm.perftest.exchange.Step.CM_LISTEN;
import static io.rdmaffm.perftest.exchange.Step.CONNECT;
import static io.rdmaffm.perftest.exchange.Step.FOOTER;
import static io.rdmaffm.perftest.exchange.Step.HEADER;
import static io.rdmaffm.perftest.exchange.Step.KEYS;
import static io.rdmaffm.perftest.exchange.Step.MTU;
import static io.rdmaffm.perftest.exchange.Step.PREPARE;
import static io.rdmaffm.perftest.exchange.Step.PRINT_LOCAL;
import static io.rdmaffm.perftest.exchange.Step.PRINT_PEER_ROW;
import static io.rdmaffm.perftest.exchange.Step.PRINT_REMOTE;
import static io.rdmaffm.perftest.exchange.Step.PRINT_ROW;
import static io.rdmaffm.perftest.exchange.Step.PRINT_SUM_ROW;
import static io.rdmaffm.perftest.exchange.Step.RUN;
import static io.rdmaffm.perftest.exchange.Step.SETUP;
import static io.rdmaffm.perftest.exchange.Step.SYNC;
import static io.rdmaffm.perftest.exchange.Step.SYNC_AFTER_PEER_RUN;
import static io.rdmaffm.perftest.exchange.Step.SYS_DATA;
import static io.rdmaffm.perftest.exchange.Step.VERSION;

import java.util.ArrayList;
import java.util.List;

/**
 * The order of steps one side of one perftest 4.5-0.17 tool goes through: a prologue,
 * a part repeated per message size (once, or for every size with {@code -a}), and an epilogue. The wire steps
 * must match the peer's exactly, message for message; the uni-directional sequences are checked against the
 * captured C runs in the tests. Bidirectional ({@code -b}) sequences follow the reference notes and have no
 * capture yet. With {@code -R} the same messages travel over an rdma_cm QP, and the test QPs are connected by
 * rdma_cm between two barriers before the destinations are set up ({@code create_rdma_cm_connection}).
 *
 * @param tool     the tool
 * @param role     client or server
 * @param prologue steps before the first size
 * @param perSize  steps repeated for each message size
 * @param epilogue steps after the last size
 */
public record HandshakeScript(Tool tool, Role role, List<Step> prologue, List<Step> perSize, List<Step> epilogue) {

    /** Copies the lists. */
    public HandshakeScript {
        prologue = List.copyOf(prologue);
        perSize = List.copyOf(perSize);
        epilogue = List.copyOf(epilogue);
    }

    /**
     * The script of a tool and role.
     *
     * @param allSizes      {@code -a}: the per-size part repeats, and some tools add a barrier per size
     * @param bidirectional {@code -b} (BW tools only)
     */
    public static HandshakeScript of(Tool tool, Role role, boolean allSizes, boolean bidirectional) {
        return of(tool, role, allSizes, bidirectional, false);
    }

    /**
     * The script of a tool and role.
     *
     * @param allSizes      {@code -a}: the per-size part repeats, and some tools add a barrier per size
     * @param bidirectional {@code -b} (BW tools only)
     * @param rdmaCm        {@code -R}: the test QPs are connected through rdma_cm
     */
    public static HandshakeScript of(Tool tool, Role role, boolean allSizes, boolean bidirectional,
            boolean rdmaCm) {
        return of(tool, role, allSizes, bidirectional, rdmaCm, false);
    }

    /**
     * The script of a tool and role.
     *
     * @param endless {@code --run_infinitely} where both sides loop (ib_send_bw, {@code -b}): perftest's sides go
     *                from the loop to the closing result line with no message between them and no closing
     *                handshake (its loops never return; Ctrl-C ends the process): the close of the connection
     *                is the end ({@code run.ExchangePeerEnd}), and {@link Step#PRINT_ROW} says who stopped
     */
    public static HandshakeScript of(Tool tool, Role role, boolean allSizes, boolean bidirectional,
            boolean rdmaCm, boolean endless) {
        if (endless) {
            HandshakeScript s = of(tool, role, false, bidirectional, rdmaCm, false);
            // ib_send_bw keeps its PREPARE, SYNC before the loop (C posts, then hand-shakes); -b runs at once.
            List<Step> each = tool == Tool.SEND_BW ? List.of(PREPARE, SYNC, RUN, PRINT_ROW) : List.of(RUN, PRINT_ROW);
            return new HandshakeScript(tool, role, s.prologue(), each, List.of(FOOTER));
        }
        if (bidirectional && !tool.bandwidth()) {
            throw new IllegalArgumentException("bidirectional mode exists for BW tools only");
        }
        boolean client = role == Role.CLIENT;
        List<Step> pro = new ArrayList<>(List.of(VERSION, SYS_DATA, MTU));
        if (rdmaCm) {
            pro.addAll(List.of(CM_LISTEN, CM_BARRIER, CM_CONNECT, CM_BARRIER));
        }
        pro.add(SETUP);
        List<Step> each = new ArrayList<>();
        List<Step> epi = new ArrayList<>();
        switch (tool) {
            case WRITE_BW, READ_BW, ATOMIC_BW -> {
                pro.addAll(List.of(KEYS, CONNECT, PRINT_LOCAL, KEYS, PRINT_REMOTE, SYNC, HEADER));
                if (bidirectional) {
                    each.addAll(List.of(SYNC, RUN));
                    if (allSizes) {
                        each.add(SYNC);
                    }
                    each.addAll(List.of(BW_REPORT, PRINT_SUM_ROW));
                    epi.addAll(List.of(FOOTER, CLOSE));
                } else if (client) {
                    // No per-size barrier: the server sleeps in one handshake until every size has run.
                    each.addAll(List.of(RUN, PRINT_ROW));
                    epi.addAll(List.of(FOOTER, SYNC, BW_REPORT, CLOSE));
                } else {
                    epi.addAll(List.of(SYNC_AFTER_PEER_RUN, BW_REPORT, PRINT_PEER_ROW, CLOSE, FOOTER));
                }
            }
            case SEND_BW -> {
                // Send tools do the post-connect barrier before printing the address lines.
                pro.addAll(List.of(KEYS, CONNECT, SYNC, PRINT_LOCAL, KEYS, PRINT_REMOTE, HEADER));
                each.addAll(List.of(PREPARE, SYNC, RUN));
                if (bidirectional) {
                    each.addAll(List.of(BW_REPORT, PRINT_SUM_ROW));
                } else {
                    each.add(PRINT_ROW);
                }
                if (allSizes) {
                    each.add(SYNC);
                }
                epi.addAll(List.of(FOOTER, CLOSE));
            }
            case SEND_LAT -> {
                pro.addAll(List.of(KEYS, CONNECT, SYNC, PRINT_LOCAL, KEYS, PRINT_REMOTE, HEADER));
                each.addAll(List.of(PREPARE, SYNC, RUN, PRINT_ROW));
                epi.addAll(List.of(FOOTER, CLOSE));
            }
            case WRITE_LAT -> {
                // write_lat never runs the closing handshake: both sides just exit after the loop.
                pro.addAll(List.of(SYNC, KEYS, CONNECT, PRINT_LOCAL, KEYS, PRINT_REMOTE, SYNC, HEADER));
                each.addAll(List.of(RUN, PRINT_ROW));
                epi.add(FOOTER);
            }
            case READ_LAT, ATOMIC_LAT -> {
                pro.addAll(List.of(SYNC, KEYS, CONNECT, PRINT_LOCAL, KEYS, PRINT_REMOTE, SYNC));
                if (client) {
                    pro.add(HEADER);
                    each.addAll(List.of(RUN, PRINT_ROW));
                    epi.addAll(List.of(FOOTER, CLOSE));
                } else {
                    // The passive side goes straight to the close, which returns when the client is done.
                    epi.addAll(List.of(CLOSE_AFTER_PEER_RUN, FOOTER));
                }
            }
            default -> throw new IllegalArgumentException("no script for " + tool);
        }
        return new HandshakeScript(tool, role, pro, each, epi);
    }

    /** Every step of a run over {@code sizes} message sizes, in order. */
    public List<Step> expand(int sizes) {
        if (sizes < 1) {
            throw new IllegalArgumentException("at least one size");
        }
        List<Step> all = new ArrayList<>(prologue);
        for (int i = 0; i < sizes; i++) {
            all.addAll(perSize);
        }
        all.addAll(epilogue);
        return all;
    }

    /** Only the wire steps of {@link #expand}: what the peer must mirror. */
    public List<Step> wireSteps(int sizes) {
        return expand(sizes).stream().filter(Step::wire).toList();
    }
}
