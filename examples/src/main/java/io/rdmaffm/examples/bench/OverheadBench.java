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
 * rdma-overhead ADDRESS [--rounds N] [--mib N] [--reads N] [--warmup N] [--threads platform|virtual]
 *               [--style poll|blocking]
 * </pre>
 * {@code --threads virtual} runs every round of both sides on a fresh virtual thread (what a JDK 25 application's
 * client is); {@code --style blocking} makes the connection API's READs the blocking {@code read(..., timeout)}, which
 * parks the caller until the driver thread signals the completion, instead of the poll style (raw verbs always polls).
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
        return Cli.run("rdma-overhead", args, Set.of("rounds", "mib", "reads", "warmup", "threads", "style"), cli -> {
            cli.noMoreThan(1);
            InetAddress ip = Cli.address(cli.arg(0, "ADDRESS (the device's IP)") + ":0").getAddress();
            int rounds = cli.intOption("rounds", 5, 1, 1000);
            long bytes = (long) cli.intOption("mib", 64, 1, 4096) << 20;
            int reads = cli.intOption("reads", 10_000, 1, 10_000_000);
            int warmup = cli.intOption("warmup", 20_000, 0, 10_000_000);
            boolean virtual = choice(cli.option("threads", "platform"), "threads", "platform", "virtual");
            boolean blocking = choice(cli.option("style", "poll"), "style", "poll", "blocking");
            System.out.printf("threads %s, connection API style %s%n", virtual ? "virtual" : "platform",
                    blocking ? "blocking" : "poll");
            try (Workload raw = new RawVerbsWorkload(ip, bytes);
                 Workload conn = new ConnectionWorkload(ip, bytes, blocking)) {
                for (Workload w : new Workload[] {raw, conn}) {
                    on(virtual, () -> {
                        w.transfer();
                        w.reads(warmup, null);
                        return null;
                    });
                }
                List<Result[]> results = new ArrayList<>();
                for (int r = 0; r < rounds; r++) {
                    Workload first = r % 2 == 0 ? raw : conn;
                    Workload second = first == raw ? conn : raw;
                    Result a = on(virtual, () -> once(first, bytes, reads));
                    Result b = on(virtual, () -> once(second, bytes, reads));
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

    /** False for the first choice, true for the second; Cli.BadInput for anything else. */
    private static boolean choice(String value, String option, String first, String second) {
        if (value.equals(first) || value.equals(second)) {
            return value.equals(second);
        }
        throw new Cli.BadInput("--" + option + " is " + first + " or " + second + ", not " + value);
    }

    /** Runs {@code body} here, or on a fresh virtual thread that this thread joins. */
    private static <T> T on(boolean virtual, java.util.concurrent.Callable<T> body) {
        if (!virtual) {
            try {
                return body.call();
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
        java.util.concurrent.FutureTask<T> task = new java.util.concurrent.FutureTask<>(body);
        Thread t = Thread.ofVirtual().name("bench client").start(task);
        try {
            t.join();
            return task.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        }
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
