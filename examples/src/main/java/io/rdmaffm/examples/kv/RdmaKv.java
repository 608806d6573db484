package io.rdmaffm.examples.kv;

import io.rdmaffm.examples.Cli;

import java.util.Set;

/**
 * rdma-kv: an RPC key-value store over a verbs-ffm {@code Connection} (request and response as messages), and a
 * client that measures the latency of each request with an HdrHistogram.
 * <pre>
 * rdma-kv serve ADDRESS:PORT [--clients N] [--timeout SECONDS]
 * rdma-kv bench ADDRESS:PORT [--ops N] [--value BYTES] [--keys N] [--echo true] [--hgrm FILE] [--timeout SECONDS]
 * </pre>
 */
public final class RdmaKv {
    /** The largest request or response: the connections' buffer size. */
    static final int MAX_MESSAGE = 8192;

    private RdmaKv() {
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    public static int run(String... args) {
        return Cli.run("rdma-kv", args, Set.of("clients", "timeout", "ops", "value", "keys", "echo", "hgrm"), cli -> {
            String mode = cli.arg(0, "mode: serve or bench");
            cli.noMoreThan(2);
            java.net.InetSocketAddress address = Cli.address(cli.arg(1, "ADDRESS:PORT"));
            return switch (mode) {
                case "serve" -> new KvServer(address, cli.intOption("clients", 1, 1, 1000), cli.seconds("timeout", 60))
                        .run();
                case "bench" -> new KvClient(address, cli.intOption("ops", 10_000, 1, Integer.MAX_VALUE),
                        cli.intOption("value", 64, 1, MAX_MESSAGE - 64), cli.intOption("keys", 100, 1, 1_000_000),
                        Boolean.parseBoolean(cli.option("echo", "false")), cli.option("hgrm", null),
                        cli.seconds("timeout", 60)).run();
                default -> throw new Cli.BadInput("mode must be serve or bench, not '" + mode + "'");
            };
        });
    }
}
