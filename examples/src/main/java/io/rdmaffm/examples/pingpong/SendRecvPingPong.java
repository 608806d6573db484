package io.rdmaffm.examples.pingpong;

import io.rdmaffm.examples.Cli;
import io.rdmaffm.verbs.Access;
import io.rdmaffm.verbs.MemoryRegion;
import io.rdmaffm.verbs.connect.Connection;
import io.rdmaffm.verbs.connect.ConnectionException;
import io.rdmaffm.verbs.connect.ConnectionOptions;
import io.rdmaffm.verbs.connect.Message;
import io.rdmaffm.verbs.connect.RdmaServer;
import org.HdrHistogram.Histogram;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Set;

/**
 * DiSNI's SendRecv benchmark (com.ibm.disni.benchmarks.SendRecvClient/Server: an endpoint group, an endpoint
 * factory, registered buffers, SVCPostSend/SVCPostRecv/SVCPollCq) as a ping-pong on the connection API: the client
 * sends {@code --size} bytes, the server answers with as many, {@code --loop} times after {@code --warmup} untimed
 * round trips, both polling (the allocation-free style). Prints the one-way latency (half the round trip, as
 * ib_send_lat counts it) as percentiles.
 * <pre>
 * rdma-pingpong server ADDRESS:PORT [--size BYTES] [--timeout SECONDS]
 * rdma-pingpong client ADDRESS:PORT [--size BYTES] [--loop N] [--warmup N] [--timeout SECONDS]
 * </pre>
 */
public final class SendRecvPingPong {
    private SendRecvPingPong() {
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    public static int run(String... args) {
        return Cli.run("rdma-pingpong", args, Set.of("size", "loop", "warmup", "timeout"), cli -> {
            String mode = cli.arg(0, "mode: server or client");
            cli.noMoreThan(2);
            InetSocketAddress address = Cli.address(cli.arg(1, "ADDRESS:PORT"));
            int size = cli.intOption("size", 2, 1, 1 << 20);
            Duration timeout = cli.seconds("timeout", 60);
            ConnectionOptions options = new ConnectionOptions().bufferSize(Math.max(size, 64)).receiveBuffers(4);
            return switch (mode) {
                case "server" -> server(address, size, options, timeout);
                case "client" -> client(address, size, cli.intOption("loop", 10_000, 1, Integer.MAX_VALUE),
                        cli.intOption("warmup", 20_000, 0, Integer.MAX_VALUE), options, timeout);
                default -> throw new Cli.BadInput("mode must be server or client, not '" + mode + "'");
            };
        });
    }

    /** Answers every message with one of the same size until the client disconnects. */
    static int server(InetSocketAddress address, int size, ConnectionOptions options, Duration timeout) {
        Connection c;
        try (RdmaServer server = RdmaServer.listen(address, options)) {
            System.out.println("rdma-pingpong: server on " + server.localAddress());
            System.out.flush();
            c = server.accept(timeout);
        }
        try (c) {
            MemoryRegion buf = c.allocateRegion(size, Access.LOCAL_WRITE);
            long served = 0;
            while (true) {
                Message m;
                try {
                    while ((m = c.tryReceive()) == null) {
                        Thread.onSpinWait();
                    }
                } catch (ConnectionException e) {
                    if (e.reason() == ConnectionException.Reason.PEER_DISCONNECTED) {
                        System.out.println("rdma-pingpong: served " + served + " round trips");
                        return 0;
                    }
                    throw e;
                }
                m.release();
                while (c.trySend(buf, 0, size) < 0) {
                    c.progress();
                }
                served++;
            }
        }
    }

    static int client(InetSocketAddress address, int size, int loop, int warmup, ConnectionOptions options,
                      Duration timeout) {
        try (Connection c = Connection.connect(address, options, timeout)) {
            MemoryRegion buf = c.allocateRegion(size, Access.LOCAL_WRITE);
            Histogram rtt = new Histogram(60_000_000_000L, 3);
            roundTrips(c, buf, size, warmup, null);
            long start = System.nanoTime();
            roundTrips(c, buf, size, loop, rtt);
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.printf("rdma-pingpong: %d round trips of %d bytes in %.3f s%n", loop, size, seconds);
            System.out.printf("rdma-pingpong: one-way latency us (RTT/2): min %.2f  typical (p50) %.2f  p90 %.2f  "
                    + "p99 %.2f  p99.9 %.2f  max %.2f%n", rtt.getMinValue() / 2e3, rtt.getValueAtPercentile(50) / 2e3,
                    rtt.getValueAtPercentile(90) / 2e3, rtt.getValueAtPercentile(99) / 2e3,
                    rtt.getValueAtPercentile(99.9) / 2e3, rtt.getMaxValue() / 2e3);
            return 0;
        }
    }

    /** {@code n} round trips, polled; each timed into {@code rtt} unless it is null. Allocation-free. */
    private static void roundTrips(Connection c, MemoryRegion buf, int size, int n, Histogram rtt) {
        for (int i = 0; i < n; i++) {
            long t0 = System.nanoTime();
            while (c.trySend(buf, 0, size) < 0) {
                c.progress();
            }
            Message m;
            while ((m = c.tryReceive()) == null) {
                Thread.onSpinWait();
            }
            m.release();
            if (rtt != null) {
                rtt.recordValue(System.nanoTime() - t0);
            }
        }
    }
}
