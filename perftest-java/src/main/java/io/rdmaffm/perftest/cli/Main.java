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
                Tools.WriteBw.class,
                Tools.WriteLat.class,
                Tools.ReadBw.class,
                Tools.ReadLat.class,
                Tools.SendBw.class,
                Tools.SendLat.class,
                Tools.AtomicBw.class,
                Tools.AtomicLat.class,
                DevicesCommand.class,
                DoctorCommand.class,
                CommandLine.HelpCommand.class,
                picocli.AutoComplete.GenerateCompletion.class,
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
        for (CommandLine sub : cl.getSubcommands().values()) {
            if (sub.getCommand() instanceof ToolCommand) {
                NotYetSupported.register(sub.getCommandSpec());
            }
        }
        cl.setExecutionExceptionHandler(new ErrorHandler());
        // Bad input: one line naming the problem, like perftest, not the whole usage text.
        cl.setParameterExceptionHandler((ex, args) -> {
            CommandLine c = ex.getCommandLine();
            c.getErr().println(c.getCommandName() + ": " + ex.getMessage() + " (see " + c.getCommandName() + " --help)");
            return ErrorHandler.EXIT_FAILURE;
        });
        return cl;
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }
}
