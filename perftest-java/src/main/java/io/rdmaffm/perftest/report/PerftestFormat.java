package io.rdmaffm.perftest.report;

import io.rdmaffm.perftest.exchange.PingPongDest;
import io.rdmaffm.perftest.vocab.BwReport;
import io.rdmaffm.perftest.vocab.BwUnit;
import io.rdmaffm.perftest.vocab.Role;
import io.rdmaffm.perftest.vocab.Tool;
import io.rdmaffm.perftest.vocab.Verb;

/**
 * perftest 4.5-0.17's text output, byte for byte: banner, address lines, BW and latency tables. Every method
 * returns complete lines ending in '\n', ready to print.
 */
public final class PerftestFormat {
    /** 87 dashes and a newline: perftest's separator. */
    public static final String RESULT_LINE = "-".repeat(87) + "\n";

    /** Printed by the server before it waits for the client. */
    public static final String WAITING_FOR_CLIENT = "\n************************************\n"
            + "* Waiting for client to connect... *\n"
            + "************************************\n";

    /** The BW table header in MB/s (the unit is 2^20 bytes despite the label). */
    public static final String BW_HEADER_MB =
            " #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]\n";
    /** The BW table header with {@code --report_gbits}. */
    public static final String BW_HEADER_GB =
            " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]\n";
    /** The latency table header (note the trailing space). */
    public static final String LAT_HEADER = " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]"
            + "    t_avg[usec]    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] \n";
    /** The latency table header in duration mode ({@code -D}). */
    public static final String LAT_DURATION_HEADER = " #bytes        #iterations       t_avg[usec]    tps average\n";

    private PerftestFormat() {
    }

    /**
     * What a tool prints before it connects: read and atomic tools print a result line first, and the server
     * then shows the "Waiting for client" box.
     */
    public static String preamble(Tool tool, Role role) {
        return role == Role.SERVER ? inlineDisabledLine(tool) + WAITING_FOR_CLIENT : inlineDisabledLine(tool);
    }

    /**
     * The result line read and atomic tools print first: C prints it with its stderr warning that the device
     * (Soft-RoCE, any it does not know) gets no inline data, whatever {@code --output} says.
     */
    public static String inlineDisabledLine(Tool tool) {
        return tool.verb() == Verb.READ || tool.verb() == Verb.ATOMIC ? RESULT_LINE : "";
    }

    /** The banner title: 20 spaces, verb, atomic type, "Bidirectional", "Post List", BW/Latency, "Test". */
    public static String title(BannerInfo info) {
        Tool tool = info.tool();
        StringBuilder b = new StringBuilder(" ".repeat(20)).append(tool.verb().title()).append(' ');
        if (tool.verb() == Verb.ATOMIC) {
            b.append(info.atomicType()).append(' ');
        }
        if (info.bidirectional()) {
            b.append("Bidirectional ");
        }
        if (info.postList() > 1) {
            b.append("Post List ");
        }
        b.append(tool.bandwidth() ? "BW " : "Latency ").append(info.multicast() ? "Multicast " : "").append("Test");
        return b.toString();
    }

    /** The whole banner, from the first result line to the last, as the given side prints it. */
    public static String banner(BannerInfo info) {
        Tool tool = info.tool();
        Verb verb = tool.verb();
        boolean sender = info.role() == Role.CLIENT || info.bidirectional();
        StringBuilder b = new StringBuilder(RESULT_LINE);
        b.append(title(info)).append('\n');
        if (info.eventsVector() >= 0) {
            b.append(" Test with events. Using ").append(info.device()).append("_comp").append(info.eventsVector())
                    .append('\n');
        }
        if (info.multicast()) {
            b.append(" MultiCast runs on UD!\n");
        }
        b.append(" Dual-port       : ").append(onOff(info.dualPort())).append("\t\tDevice         : ")
                .append(info.device()).append('\n');
        b.append(" Number of qps   : ").append(info.numQps()).append("\t\tTransport type : ")
                .append(info.transportType()).append('\n');
        b.append(" Connection type : ").append(info.connectionType()).append("\t\tUsing SRQ      : ")
                .append(onOff(info.useSrq())).append('\n');
        b.append(" PCIe relax order: ").append(info.pcieRelaxOrder()).append('\n');
        b.append(" ibv_wr* API     : ").append(onOff(info.wrApi())).append('\n');
        if (sender) {
            b.append(" TX depth        : ").append(info.txDepth()).append('\n');
        }
        if (info.postList() > 1) {
            b.append(" Post List       : ").append(info.postList()).append('\n');
        }
        if (info.recvPostList() > 1) {
            b.append(" Recv Post List  : ").append(info.recvPostList()).append('\n');
        }
        if (verb == Verb.SEND && (info.role() == Role.SERVER || info.bidirectional())) {
            b.append(" RX depth        : ").append(info.rxDepth()).append('\n');
        }
        if (tool.bandwidth()) {
            b.append(" CQ Moderation   : ").append(info.cqModeration()).append('\n');
        }
        b.append(" Mtu             : ").append(info.mtuBytes()).append("[B]\n");
        b.append(" Link type       : ").append(info.linkType()).append('\n');
        if (info.gidIndex() != -1) {
            b.append(" GID index       : ").append(info.gidIndex()).append('\n');
        }
        if (verb == Verb.SEND || verb == Verb.WRITE) {
            b.append(" Max inline data : ").append(info.maxInline()).append("[B]\n");
        } else {
            b.append(" Outstand reads  : ").append(info.outstandingReads()).append('\n');
        }
        b.append(" rdma_cm QPs\t : ").append(onOff(info.rdmaCmQps())).append('\n');
        b.append(" Data ex. method : ").append(info.rdmaCmExchange() ? "rdma_cm" : "Ethernet");
        if (info.rdmaCmExchange() && info.tos() >= 0) {
            b.append(" \tTOS    : ").append(info.tos()); // C: after the method, on its line
        }
        b.append('\n');
        b.append(RESULT_LINE);
        return b.toString();
    }

    /** What the {@code -R} server prints after its banner while it waits for the rdma_cm connection. */
    public static String rdmaCmServerWaiting() {
        return " Waiting for client rdma_cm QP to connect\n"
                + " Please run the same command with the IB/RoCE interface IP\n" + RESULT_LINE;
    }

    /**
     * One QP's address line, and its GID line when a GID is in use. Read prints OUT, RKey and VAddr; write
     * prints RKey and VAddr; send and atomic print neither. GID bytes are decimal, as in perftest.
     *
     * @param side "local" or "remote"
     */
    public static String address(String side, PingPongDest d, Verb verb, boolean withGid) {
        return address(side, d, verb, withGid, false);
    }

    /**
     * As {@link #address(String, PingPongDest, Verb, boolean)}; with {@code rdmaCm} ({@code -R}) perftest leaves
     * out the remote-memory fields (captured for write; assumed the same for read's OUT, RKey and VAddr).
     */
    public static String address(String side, PingPongDest d, Verb verb, boolean withGid, boolean rdmaCm) {
        return address(side, d, verb, withGid, rdmaCm, false);
    }

    /**
     * As above; {@code mgid}: the GID line is a multicast group's, labelled "MGID" (perftest labels the
     * receiving side's own group and, on the sender, the remote group; with -g every GID line is printed).
     */
    public static String address(String side, PingPongDest d, Verb verb, boolean withGid, boolean rdmaCm,
                                 boolean mgid) {
        StringBuilder b = new StringBuilder(" ").append(side).append(" address: LID ")
                .append(CFormat.altHex(d.lid(), 4)).append(" QPN ").append(CFormat.altHex(d.qpn(), 6))
                .append(" PSN ").append(CFormat.altHex(d.psn(), 6));
        if (verb == Verb.READ && !rdmaCm) {
            b.append(" OUT ").append(CFormat.altHex(d.outReads(), 4));
        }
        if ((verb == Verb.READ || verb == Verb.WRITE) && !rdmaCm) {
            b.append(" RKey ").append(CFormat.altHex(Integer.toUnsignedLong(d.rkey()), 8)).append(" VAddr ")
                    .append(CFormat.altHex(d.vaddr(), 16));
        }
        b.append('\n');
        if (withGid) {
            b.append(mgid ? " MGID: " : " GID: ");
            for (int i = 0; i < PingPongDest.GID_LENGTH; i++) {
                if (i > 0) {
                    b.append(':');
                }
                b.append(CFormat.zeroPadded(d.gidByte(i), 2));
            }
            b.append('\n');
        }
        return b.toString();
    }

    /** The address lines of all QPs of one side, in QP order. */
    public static String addresses(String side, PingPongDest[] dests, Verb verb, boolean withGid, boolean rdmaCm) {
        return addresses(side, dests, verb, withGid, rdmaCm, false);
    }

    /** As above; {@code mgid}: their GID lines are a multicast group's ("MGID"). */
    public static String addresses(String side, PingPongDest[] dests, Verb verb, boolean withGid, boolean rdmaCm,
                                   boolean mgid) {
        StringBuilder b = new StringBuilder();
        for (PingPongDest d : dests) {
            b.append(address(side, d, verb, withGid, rdmaCm, mgid));
        }
        return b.toString();
    }

    /** The BW table header for a unit. */
    public static String bwHeader(BwUnit unit) {
        return unit == BwUnit.MB_PER_SEC ? BW_HEADER_MB : BW_HEADER_GB;
    }

    /** A table header (ending in a newline) with {@code --cpu_util}'s column. */
    public static String withCpuUtilHeader(String header) {
        return header.substring(0, header.length() - 1) + "    CPU_Util[%]\n";
    }

    /** A row (ending in a newline) with {@code --cpu_util}'s figure: C's {@code "\t    %-3.2f\n"}. */
    public static String withCpuUtil(String row, float percent) {
        return row.substring(0, row.length() - 1) + "\t    " + CFormat.fixedLeft(percent, 3, 2) + "\n";
    }

    /** What {@code --report-both} prints before one side's row: "Local" or "Remote" between result lines. */
    public static String sideHeader(String side, BwUnit unit) {
        return RESULT_LINE + "\n " + side + " results: \n" + RESULT_LINE + bwHeader(unit);
    }

    /**
     * One BW row. With Gb/s and an average under 0.1 perftest switches to six decimals everywhere
     * ({@code REPORT_FMT_EXT}).
     */
    public static String bwRow(BwReport r, BwUnit unit) {
        if (unit == BwUnit.GB_PER_SEC && r.bwAvg() < 0.1) {
            return " " + CFormat.unsignedLeft(r.size(), 7) + "    " + Long.toUnsignedString(r.iters())
                    + "           " + CFormat.fixedLeft(r.bwPeak(), 7, 6) + "            "
                    + CFormat.fixedLeft(r.bwAvg(), 7, 6) + "            " + CFormat.fixedLeft(r.msgRate(), 7, 6)
                    + "\n";
        }
        return " " + CFormat.unsignedLeft(r.size(), 7) + "    " + CFormat.unsignedLeft(r.iters(), 10) + "       "
                + CFormat.fixedLeft(r.bwPeak(), 7, 2) + "            " + CFormat.fixedLeft(r.bwAvg(), 7, 2)
                + "\t\t   " + CFormat.fixedLeft(r.msgRate(), 7, 6) + "\n";
    }

    /**
     * What {@code -U} prints before a latency row: every round trip of {@code iters} post stamps (ns), unsorted,
     * numbered from 1 in {@code %g}, then (at full verbosity) the result line and the table header again, as
     * perftest does.
     */
    public static String unsortedSamples(long[] tposted, int iters, int rttFactor, boolean withHeader) {
        return unsortedSamples(tposted, iters, rttFactor, 1000.0, "usec")
                + (withHeader ? RESULT_LINE + LAT_HEADER : "");
    }

    /** The same in {@code units} of {@code nanos} nanoseconds each ({@code -C}: cycles). */
    public static String unsortedSamples(long[] tposted, int iters, int rttFactor, double nanos, String units) {
        StringBuilder b = new StringBuilder(32 * iters).append("#, ").append(units).append('\n');
        double nanosPerUnit = nanos * rttFactor;
        for (int i = 0; i < iters - 1; i++) {
            b.append(i + 1).append(", ").append(CFormat.general((tposted[i + 1] - tposted[i]) / nanosPerUnit))
                    .append('\n');
        }
        return b.toString();
    }

    /**
     * What {@code -H} prints before a latency row: the round trips of {@code iters} post stamps (ns) the row is
     * computed from (all but the two largest), sorted, numbered from 1 in {@code %g}.
     */
    public static String sortedSamples(long[] tposted, int iters, int rttFactor) {
        return sortedSamples(tposted, iters, rttFactor, 1000.0, "usec");
    }

    /** The same in {@code units} of {@code nanos} nanoseconds each ({@code -C}: cycles). */
    public static String sortedSamples(long[] tposted, int iters, int rttFactor, double nanos, String units) {
        long[] deltas = new long[iters - 1];
        for (int i = 0; i < deltas.length; i++) {
            deltas[i] = tposted[i + 1] - tposted[i];
        }
        java.util.Arrays.sort(deltas);
        int kept = deltas.length - LatencyArithmetic.MEASURE_TAIL;
        StringBuilder b = new StringBuilder(32 * Math.max(kept, 1)).append("#, ").append(units).append('\n');
        double nanosPerUnit = nanos * rttFactor;
        for (int i = 0; i < kept; i++) {
            b.append(i + 1).append(", ").append(CFormat.general(deltas[i] / nanosPerUnit)).append('\n');
        }
        return b.toString();
    }

    /** The one figure {@code --output} prints for a row: C's {@code "%lf\n"}. */
    public static String figure(double v) {
        return CFormat.fixed(v, 6) + "\n";
    }

    /** One latency row (iteration mode); note the TABs perftest's format string contains. */
    public static String latencyRow(long size, long iters, LatencyResult r) {
        return " " + CFormat.unsignedLeft(size, 7) + " " + Long.toUnsignedString(iters) + "          "
                + CFormat.fixedLeft(r.tMin(), 7, 2) + "        " + CFormat.fixedLeft(r.tMax(), 7, 2) + "      "
                + CFormat.fixedLeft(r.typical(), 7, 2) + "  \t       " + CFormat.fixedLeft(r.avg(), 7, 2)
                + "     \t" + CFormat.fixedLeft(r.stdev(), 7, 2) + "\t\t" + CFormat.fixedLeft(r.p99(), 7, 2)
                + " \t\t" + CFormat.fixedLeft(r.p999(), 7, 2) + "\n";
    }

    /** One latency row in duration mode: average latency and transactions per second. */
    public static String latencyDurationRow(long size, long iters, double avgUsec, double tps) {
        return " " + CFormat.unsignedLeft(size, 7) + "       " + Long.toUnsignedString(iters) + "            "
                + CFormat.fixedLeft(avgUsec, 7, 2) + "        " + CFormat.fixedLeft(tps, 7, 2) + "\n";
    }

    private static String onOff(boolean v) {
        return v ? "ON" : "OFF";
    }
}
