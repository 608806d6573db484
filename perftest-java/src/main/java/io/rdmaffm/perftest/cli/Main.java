package io.rdmaffm.perftest.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code rdma-perftest} launcher: perftest's eight tools, the device report and the doctor as
 * subcommands. Exit codes: 0 success, 1 a measured failure or verdict, 2 bad input or setup failure.
 */
@Command(name = "rdma-perftest",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "RDMA latency/bandwidth tools compatible with linux-rdma perftest, and a NIC/PCIe doctor.",
        subcommands = {
                CommandLine.HelpCommand.class,
                DoctorCommand.class,
        })
public final class Main implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a subcommand is required");
    }

    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Main());
        cl.setExecutionExceptionHandler(new ErrorHandler());
        return cl;
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }
}
