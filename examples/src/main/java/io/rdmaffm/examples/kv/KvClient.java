package io.rdmaffm.examples.kv;

import io.rdmaffm.verbs.Access;
import io.rdmaffm.verbs.MemoryRegion;
import io.rdmaffm.verbs.connect.Connection;
import io.rdmaffm.verbs.connect.ConnectionOptions;
import io.rdmaffm.verbs.connect.Message;
import org.HdrHistogram.Histogram;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The benchmark client: {@code ops} requests, one at a time (a PUT of every key first, then 90% GET, 10% PUT, or
 * ECHO with {@code --echo}), each timed from send to response into an HdrHistogram; prints the percentiles and
 * optionally the whole distribution ({@code --hgrm}). Checks every GET against what it put.
 */
final class KvClient {
    private final InetSocketAddress address;
    private final int ops;
    private final int valueSize;
    private final int keys;
    private final boolean echo;
    private final String hgrm;
    private final Duration timeout;

    KvClient(InetSocketAddress address, int ops, int valueSize, int keys, boolean echo, String hgrm, Duration timeout) {
        this.address = address;
        this.ops = ops;
        this.valueSize = valueSize;
        this.keys = keys;
        this.echo = echo;
        this.hgrm = hgrm;
        this.timeout = timeout;
    }

    int run() throws IOException {
        ConnectionOptions options = new ConnectionOptions().bufferSize(RdmaKv.MAX_MESSAGE);
        try (Connection c = Connection.connect(address, options, timeout)) {
            MemoryRegion out = c.allocateRegion(RdmaKv.MAX_MESSAGE, Access.LOCAL_WRITE);
            byte[][] values = new byte[keys][];
            SplittableRandom random = new SplittableRandom(42);
            for (int k = 0; k < keys; k++) {
                values[k] = value(random, k);
                call(c, out, KvProtocol.PUT, k, values[k]);
            }
            Histogram latencies = new Histogram(3_600_000_000_000L, 3);
            long start = System.nanoTime();
            for (int i = 0; i < ops; i++) {
                int k = random.nextInt(keys);
                byte op = echo ? KvProtocol.ECHO : random.nextInt(10) == 0 ? KvProtocol.PUT : KvProtocol.GET;
                if (op == KvProtocol.PUT) {
                    values[k] = value(random, k);
                }
                long t0 = System.nanoTime();
                byte[] got = call(c, out, op, k, op == KvProtocol.GET ? new byte[0] : values[k]);
                latencies.recordValue(System.nanoTime() - t0);
                if (op != KvProtocol.PUT && !Arrays.equals(got, values[k])) {
                    throw new IllegalStateException("request " + i + ": key " + k + " came back wrong");
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            report(latencies, seconds);
            return 0;
        }
    }

    private byte[] value(SplittableRandom random, int k) {
        byte[] v = new byte[valueSize];
        random.nextBytes(v);
        v[0] = (byte) k;
        return v;
    }

    /** One request and its response; returns the response's value. */
    private byte[] call(Connection c, MemoryRegion out, byte op, int key, byte[] value) {
        byte[] k = ("key-" + key).getBytes(StandardCharsets.UTF_8);
        int length = KvProtocol.request(out.segment(), op, k, value);
        c.send(out, 0, length, timeout);
        Message m = c.receive(timeout);
        try {
            ByteBuffer in = KvProtocol.view(m.buffer(), m.length());
            byte status = in.get();
            byte[] v = new byte[in.getInt()];
            in.get(v);
            if (status != KvProtocol.OK) {
                throw new IllegalStateException("key " + key + ": status " + status);
            }
            return v;
        } finally {
            m.release();
        }
    }

    private void report(Histogram h, double seconds) throws IOException {
        System.out.printf("rdma-kv: %d %s requests of %d-byte values in %.3f s, %.0f requests/s%n", ops,
                echo ? "ECHO" : "GET/PUT", valueSize, seconds, ops / seconds);
        System.out.printf("rdma-kv: latency us: min %.1f  p50 %.1f  p90 %.1f  p99 %.1f  p99.9 %.1f  max %.1f  mean %.1f%n",
                h.getMinValue() / 1e3, h.getValueAtPercentile(50) / 1e3, h.getValueAtPercentile(90) / 1e3,
                h.getValueAtPercentile(99) / 1e3, h.getValueAtPercentile(99.9) / 1e3, h.getMaxValue() / 1e3,
                h.getMean() / 1e3);
        if (hgrm != null) {
            try (PrintStream p = new PrintStream(new FileOutputStream(hgrm), true, StandardCharsets.UTF_8)) {
                h.outputPercentileDistribution(p, 1000.0);
            }
        }
    }
}
