package io.rdmaffm.perftest.cli;

import io.rdmaffm.perftest.params.ToolOptions;
import io.rdmaffm.perftest.vocab.Tool;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** The eight perftest tools as subcommands, with the options each C tool has. */
final class Tools {
    private Tools() {
    }

    @Command(name = "ib_write_bw", description = "RDMA write bandwidth (perftest's ib_write_bw).")
    static final class WriteBw extends ToolCommand {
        @Mixin BwOptions bw;
        @Mixin InlineOption inline;

        @Override
        Tool tool() {
            return Tool.WRITE_BW;
        }

        @Override
        void collect(ToolOptions o) {
            bw.addTo(o);
            inline.addTo(o);
        }
    }

    @Command(name = "ib_write_lat", description = "RDMA write latency (perftest's ib_write_lat).")
    static final class WriteLat extends ToolCommand {
        @Mixin LatOptions lat;
        @Mixin InlineOption inline;

        @Override
        Tool tool() {
            return Tool.WRITE_LAT;
        }

        @Override
        void collect(ToolOptions o) {
            lat.addTo(o);
            inline.addTo(o);
        }
    }

    @Command(name = "ib_read_bw", description = "RDMA read bandwidth (perftest's ib_read_bw).")
    static final class ReadBw extends ToolCommand {
        @Mixin BwOptions bw;
        @Mixin OutstandingOption outs;

        @Override
        Tool tool() {
            return Tool.READ_BW;
        }

        @Override
        void collect(ToolOptions o) {
            bw.addTo(o);
            outs.addTo(o);
        }
    }

    @Command(name = "ib_read_lat", description = "RDMA read latency (perftest's ib_read_lat).")
    static final class ReadLat extends ToolCommand {
        @Mixin LatOptions lat;
        @Mixin OutstandingOption outs;

        @Override
        Tool tool() {
            return Tool.READ_LAT;
        }

        @Override
        void collect(ToolOptions o) {
            lat.addTo(o);
            outs.addTo(o);
        }
    }

    @Command(name = "ib_send_bw", description = "Send/receive bandwidth (perftest's ib_send_bw).")
    static final class SendBw extends ToolCommand {
        @Mixin BwOptions bw;
        @Mixin InlineOption inline;

        @Override
        Tool tool() {
            return Tool.SEND_BW;
        }

        @Override
        void collect(ToolOptions o) {
            bw.addTo(o);
            inline.addTo(o);
        }
    }

    @Command(name = "ib_send_lat", description = "Send/receive latency (perftest's ib_send_lat).")
    static final class SendLat extends ToolCommand {
        @Mixin LatOptions lat;
        @Mixin InlineOption inline;

        @Override
        Tool tool() {
            return Tool.SEND_LAT;
        }

        @Override
        void collect(ToolOptions o) {
            lat.addTo(o);
            inline.addTo(o);
        }
    }

    @Command(name = "ib_atomic_bw", description = "Atomic bandwidth (perftest's ib_atomic_bw).")
    static final class AtomicBw extends ToolCommand {
        @Mixin BwOptions bw;
        @Mixin OutstandingOption outs;
        @Mixin AtomicOption atomic;

        @Override
        Tool tool() {
            return Tool.ATOMIC_BW;
        }

        @Override
        void collect(ToolOptions o) {
            bw.addTo(o);
            outs.addTo(o);
            atomic.addTo(o);
        }
    }

    @Command(name = "ib_atomic_lat", description = "Atomic latency (perftest's ib_atomic_lat).")
    static final class AtomicLat extends ToolCommand {
        @Mixin LatOptions lat;
        @Mixin OutstandingOption outs;
        @Mixin AtomicOption atomic;

        @Override
        Tool tool() {
            return Tool.ATOMIC_LAT;
        }

        @Override
        void collect(ToolOptions o) {
            lat.addTo(o);
            outs.addTo(o);
            atomic.addTo(o);
        }
    }
}
