package io.rdmaffm.examples.bench;

import io.rdmaffm.examples.Cli;
import org.HdrHistogram.Histogram;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * What the connection API costs over raw verbs, in one process and one boot: the same transfer (pipelined RDMA
 * WRITEs of a buffer, 16 in flight, every 8th signaled) and the same 8-byte RDMA READs, one at a time, through
 * both ({@link RawVerbsWorkload}, {@link ConnectionWorkload}), alternating A B B A ... for {@code --rounds} rounds
 * after an untimed warm-up round, each transfer checked byte for byte. Prints every round and the median of the
 * per-round ratios connection/raw (time, latency: above 1 is slower).
 * <pre>
 * rdma-overhead ADDRESS [--rounds N] [--mib N] [--reads N] [--warmup N]
 * </pre>
 */
public final class OverheadBench {
    private OverheadBench() {
    }

    /** One round of one implementation. */
    record Result(String name, long transferNanos, long bytes, Histogram reads) {
        double mbPerSecond() {
            return bytes / (transferNanos / 1e9) / (1 << 20);
        }

        double readP50Micros() {
            return reads.getValueAtPercentile(50) / 1e3;
        }

        double readP99Micros() {
            return reads.getValueAtPercentile(99) / 1e3;
        }
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    public static int run(String... args) {
        return Cli.run("rdma-overhead", args, Set.of("rounds", "mib", "reads", "warmup"), cli -> {
            cli.noMoreThan(1);
            InetAddress ip = Cli.address(cli.arg(0, "ADDRESS (the device's IP)") + ":0").getAddress();
            int rounds = cli.intOption("rounds", 5, 1, 1000);
            long bytes = (long) cli.intOption("mib", 64, 1, 4096) << 20;
            int reads = cli.intOption("reads", 10_000, 1, 10_000_000);
            int warmup = cli.intOption("warmup", 20_000, 0, 10_000_000);
            try (Workload raw = new RawVerbsWorkload(ip, bytes);
                 Workload conn = new ConnectionWorkload(ip, bytes)) {
                for (Workload w : new Workload[] {raw, conn}) {
                    w.transfer();
                    w.reads(warmup, null);
                }
                List<Result[]> results = new ArrayList<>();
                for (int r = 0; r < rounds; r++) {
                    Workload first = r % 2 == 0 ? raw : conn;
                    Workload second = first == raw ? conn : raw;
                    Result a = once(first, bytes, reads);
                    Result b = once(second, bytes, reads);
                    Result[] pair = first == raw ? new Result[] {a, b} : new Result[] {b, a};
                    results.add(pair);
                    System.out.printf("round %d: %-14s %8.1f MB/s  READ p50 %7.2f us  p99 %8.2f us | %-14s %8.1f MB/s"
                            + "  READ p50 %7.2f us  p99 %8.2f us%n", r + 1, pair[0].name(), pair[0].mbPerSecond(),
                            pair[0].readP50Micros(), pair[0].readP99Micros(), pair[1].name(), pair[1].mbPerSecond(),
                            pair[1].readP50Micros(), pair[1].readP99Micros());
                }
                report(results, bytes, reads);
            }
            return 0;
        });
    }

    private static Result once(Workload w, long bytes, int reads) {
        long nanos = w.transfer();
        if (!w.verify()) {
            throw new IllegalStateException(w.name() + ": the transferred bytes differ from the source");
        }
        Histogram h = new Histogram(60_000_000_000L, 3);
        w.reads(reads, h);
        return new Result(w.name(), nanos, bytes, h);
    }

    private static void report(List<Result[]> results, long bytes, int reads) {
        int n = results.size();
        double[] transfer = new double[n];
        double[] p50 = new double[n];
        double[] p99 = new double[n];
        for (int i = 0; i < n; i++) {
            Result raw = results.get(i)[0];
            Result conn = results.get(i)[1];
            transfer[i] = (double) conn.transferNanos() / raw.transferNanos();
            p50[i] = conn.readP50Micros() / raw.readP50Micros();
            p99[i] = conn.readP99Micros() / raw.readP99Micros();
        }
        System.out.printf("connection API / raw verbs, median of %d rounds (above 1: slower):%n", n);
        System.out.printf("  %d MiB transfer time     %.3f  (rounds: %s)%n", bytes >> 20, median(transfer),
                list(transfer));
        System.out.printf("  8-byte READ latency p50  %.3f  (rounds: %s)%n", median(p50), list(p50));
        System.out.printf("  8-byte READ latency p99  %.3f  (rounds: %s), %d READs per round%n", median(p99), list(p99),
                reads);
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    private static String list(double[] v) {
        StringBuilder sb = new StringBuilder();
        for (double d : v) {
            sb.append(sb.isEmpty() ? "" : " ").append(String.format("%.3f", d));
        }
        return sb.toString();
    }
}
