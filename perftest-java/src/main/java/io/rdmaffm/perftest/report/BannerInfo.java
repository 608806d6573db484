package io.rdmaffm.perftest.report;

import io.rdmaffm.perftest.vocab.Role;
import io.rdmaffm.perftest.vocab.Tool;

import java.util.Objects;

/**
 * Everything perftest's banner shows, as plain values. Which lines appear depends on the tool and role the
 * same way as in perftest 4.5-0.17 (see {@link PerftestFormat#banner}). Build with {@link #builder}.
 *
 * @param tool             the tool
 * @param role             client or server
 * @param bidirectional    {@code -b}
 * @param device           device name, e.g. {@code rxe0}
 * @param numQps           {@code -q}
 * @param transportType    "IB" (also for RoCE), "IW" or "Unknown"
 * @param connectionType   "RC", "UC", "UD", ...
 * @param useSrq           {@code --use-srq}
 * @param dualPort         {@code -O}
 * @param pcieRelaxOrder   "ON", "OFF" or "Unsupported"
 * @param wrApi            whether the {@code ibv_wr_*} post API is used
 * @param txDepth          {@code -t}
 * @param postList         {@code -l}
 * @param recvPostList     {@code --recv_post_list}
 * @param rxDepth          {@code -r}
 * @param cqModeration     {@code -Q}
 * @param mtuBytes         MTU in bytes, after negotiation
 * @param linkType         "IB" or "Ethernet"
 * @param gidIndex         GID index, -1 when no GID is used
 * @param maxInline        inline size (send/write tools)
 * @param outstandingReads {@code -o} (read/atomic tools)
 * @param atomicType       "FETCH_AND_ADD" or "CMP_AND_SWAP" (atomic tools)
 * @param rdmaCmQps        {@code -R}
 * @param rdmaCmExchange   {@code -R} or {@code -z}: control data goes over rdma_cm
 * @param tos              {@code -T}, or -1 when not given
 * @param eventsVector     with {@code -e}: the CQs' completion vector ({@code -X}); -1 when polling
 * @param multicast        {@code -g}: "Multicast" in the title and perftest's "MultiCast runs on UD!" line
 */
public record BannerInfo(Tool tool, Role role, boolean bidirectional, String device, int numQps,
        String transportType, String connectionType, boolean useSrq, boolean dualPort, String pcieRelaxOrder,
        boolean wrApi, int txDepth, int postList, int recvPostList, int rxDepth, int cqModeration, int mtuBytes,
        String linkType, int gidIndex, int maxInline, int outstandingReads, String atomicType, boolean rdmaCmQps,
        boolean rdmaCmExchange, int tos, int eventsVector, boolean multicast) {

    /** Checks required values are present. */
    public BannerInfo {
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(transportType, "transportType");
        Objects.requireNonNull(connectionType, "connectionType");
        Objects.requireNonNull(pcieRelaxOrder, "pcieRelaxOrder");
        Objects.requireNonNull(linkType, "linkType");
        Objects.requireNonNull(atomicType, "atomicType");
    }

    /** A builder with perftest's defaults for the tool (RC, 1 QP, IB transport, Ethernet link, ...). */
    public static Builder builder(Tool tool, Role role) {
        return new Builder(tool, role);
    }

    /** Mutable builder for {@link BannerInfo}; setters return {@code this}. */
    public static final class Builder {
        private final Tool tool;
        private final Role role;
        private boolean bidirectional;
        private String device = "";
        private int numQps = 1;
        private String transportType = "IB";
        private String connectionType = "RC";
        private boolean useSrq;
        private boolean dualPort;
        private String pcieRelaxOrder = "ON";
        private boolean wrApi;
        private int txDepth;
        private int postList = 1;
        private int recvPostList = 1;
        private int rxDepth;
        private int cqModeration;
        private int mtuBytes = 1024;
        private String linkType = "Ethernet";
        private int gidIndex = -1;
        private int maxInline;
        private int outstandingReads;
        private String atomicType = "FETCH_AND_ADD";
        private boolean rdmaCmQps;
        private boolean rdmaCmExchange;
        private int tos = -1;
        private int eventsVector = -1;
        private boolean multicast;

        private Builder(Tool tool, Role role) {
            this.tool = tool;
            this.role = role;
            this.txDepth = tool.bandwidth() ? 128 : 1;
            this.rxDepth = tool.verb() == io.rdmaffm.perftest.vocab.Verb.SEND ? 512 : 1;
            this.cqModeration = 100;
        }

        /** {@code -b}. */
        public Builder bidirectional(boolean v) { this.bidirectional = v; return this; }
        /** Device name. */
        public Builder device(String v) { this.device = v; return this; }
        /** {@code -q}. */
        public Builder numQps(int v) { this.numQps = v; return this; }
        /** "IB", "IW", "Unknown". */
        public Builder transportType(String v) { this.transportType = v; return this; }
        /** "RC", "UC", "UD". */
        public Builder connectionType(String v) { this.connectionType = v; return this; }
        /** SRQ in use. */
        public Builder useSrq(boolean v) { this.useSrq = v; return this; }
        /** {@code -O}. */
        public Builder dualPort(boolean v) { this.dualPort = v; return this; }
        /** "ON", "OFF", "Unsupported". */
        public Builder pcieRelaxOrder(String v) { this.pcieRelaxOrder = v; return this; }
        /** {@code ibv_wr_*} API in use. */
        public Builder wrApi(boolean v) { this.wrApi = v; return this; }
        /** {@code -t}. */
        public Builder txDepth(int v) { this.txDepth = v; return this; }
        /** {@code -l}. */
        public Builder postList(int v) { this.postList = v; return this; }
        /** {@code --recv_post_list}. */
        public Builder recvPostList(int v) { this.recvPostList = v; return this; }
        /** {@code -r}. */
        public Builder rxDepth(int v) { this.rxDepth = v; return this; }
        /** {@code -Q}. */
        public Builder cqModeration(int v) { this.cqModeration = v; return this; }
        /** Negotiated MTU in bytes. */
        public Builder mtuBytes(int v) { this.mtuBytes = v; return this; }
        /** "IB" or "Ethernet". */
        public Builder linkType(String v) { this.linkType = v; return this; }
        /** GID index or -1. */
        public Builder gidIndex(int v) { this.gidIndex = v; return this; }
        /** {@code -I}. */
        public Builder maxInline(int v) { this.maxInline = v; return this; }
        /** {@code -o}. */
        public Builder outstandingReads(int v) { this.outstandingReads = v; return this; }
        /** {@code -A}: "FETCH_AND_ADD" or "CMP_AND_SWAP". */
        public Builder atomicType(String v) { this.atomicType = v; return this; }
        /** {@code -R}. */
        public Builder rdmaCmQps(boolean v) { this.rdmaCmQps = v; return this; }
        /** {@code -R} or {@code -z}. */
        public Builder rdmaCmExchange(boolean v) { this.rdmaCmExchange = v; return this; }
        /** {@code -T}, or -1. */
        public Builder tos(int v) { this.tos = v; return this; }
        /** With {@code -e}: the completion vector ({@code -X}); -1 (the default) when polling. */
        public Builder eventsVector(int v) { this.eventsVector = v; return this; }
        public Builder multicast(boolean v) { this.multicast = v; return this; }

        /** The immutable banner data. */
        public BannerInfo build() {
            return new BannerInfo(tool, role, bidirectional, device, numQps, transportType, connectionType, useSrq,
                    dualPort, pcieRelaxOrder, wrApi, txDepth, postList, recvPostList, rxDepth, cqModeration,
                    mtuBytes, linkType, gidIndex, maxInline, outstandingReads, atomicType, rdmaCmQps,
                    rdmaCmExchange, tos, eventsVector, multicast);
        }
    }
}
