package io.rdmaffm.examples.copy;

import io.rdmaffm.examples.Cli;

import java.util.Set;

/**
 * rdma-copy: copies one file to another host's file system over a verbs-ffm {@code Connection}. The receiver listens
 * and writes what arrives; the sender moves the file's bytes with pipelined RDMA WRITEs into a registered window of
 * the receiver (two halves, one written while the other goes to disk) and both compare a CRC-32C at the end.
 * <pre>
 * rdma-copy receive ADDRESS:PORT [--dir DIR] [--timeout SECONDS]
 * rdma-copy send FILE ADDRESS:PORT [--window MIB] [--timeout SECONDS]
 * </pre>
 * Exit status 0 when the file arrived whole (same size and checksum), 1 when the copy failed, 2 for bad input.
 */
public final class RdmaCopy {
    private RdmaCopy() {
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs one side; returns the exit status. */
    public static int run(String... args) {
        return Cli.run("rdma-copy", args, Set.of("dir", "timeout", "window"), cli -> {
            String mode = cli.arg(0, "mode: receive or send");
            return switch (mode) {
                case "receive" -> {
                    cli.noMoreThan(2);
                    yield new CopyReceiver(Cli.address(cli.arg(1, "ADDRESS:PORT to listen on")),
                            java.nio.file.Path.of(cli.option("dir", ".")), cli.seconds("timeout", 60)).run();
                }
                case "send" -> {
                    cli.noMoreThan(3);
                    yield new CopySender(java.nio.file.Path.of(cli.arg(1, "FILE")),
                            Cli.address(cli.arg(2, "ADDRESS:PORT of the receiver")),
                            cli.intOption("window", 8, 1, 1024), cli.seconds("timeout", 60)).run();
                }
                default -> throw new Cli.BadInput("mode must be receive or send, not '" + mode + "'");
            };
        });
    }
}
