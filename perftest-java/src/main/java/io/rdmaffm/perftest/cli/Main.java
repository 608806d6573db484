package io.rdmaffm.perftest.cli;

import io.rdmaffm.perftest.cluster.WorkerProtocol;
import io.rdmaffm.perftest.vocab.Tool;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.util.List;

/**
 * The {@code rdma-perftest} launcher: perftest's eight tools, the device report and the doctor as
 * subcommands. Exit codes: 0 success, 1 a measured failure or verdict, 2 bad input or setup failure.
 */
@Command(name = "rdma-perftest",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "RDMA latency/bandwidth tools compatible with linux-rdma perftest, and a NIC/PCIe doctor.")
public final class Main implements Runnable {
    /** Every subcommand, in the order the help lists them. */
    private static final List<String> SUBCOMMANDS = List.of("ib_write_bw", "ib_write_lat", "ib_read_bw",
            "ib_read_lat", "ib_send_bw", "ib_send_lat", "ib_atomic_bw", "ib_atomic_lat", "devices", "doctor", "validate",
            "health", "report", "compare", "matrix", "fabric", WorkerProtocol.COMMAND, FabricWorkerCommand.NAME, "help",
            "generate-completion");

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a subcommand is required");
    }

    /** The launcher with every subcommand. */
    public static CommandLine commandLine() {
        return commandLine(SUBCOMMANDS);
    }

    /**
     * The launcher with the named subcommands only: a tool's run builds just its own command, so the server
     * gets to listening without picocli modelling (and loading) the other nine.
     */
    static CommandLine commandLine(List<String> subcommands) {
        CommandLine cl = new CommandLine(new Main());
        for (String name : subcommands) {
            cl.addSubcommand(name, subcommand(name));
        }
        cl.setExecutionExceptionHandler(new ErrorHandler());
        // Bad input: one line naming the problem, like perftest, not the whole usage text.
        cl.setParameterExceptionHandler(new ParameterErrors());
        return cl;
    }

    private static Object subcommand(String name) {
        return switch (name) {
            case "ib_write_bw", "ib_write_lat", "ib_read_bw", "ib_read_lat", "ib_send_bw", "ib_send_lat",
                 "ib_atomic_bw", "ib_atomic_lat" -> ToolCommand.spec(Tool.fromPerftestName(name));
            case "devices" -> new DevicesCommand();
            case "doctor" -> new DoctorCommand();
            case "validate" -> new ValidateCommand();
            case "matrix" -> new MatrixCommand();
            case "fabric" -> new FabricCommand();
            case WorkerProtocol.COMMAND -> new MatrixWorkerCommand();
            case FabricWorkerCommand.NAME -> new FabricWorkerCommand();
            case "health" -> new io.rdmaffm.perftest.health.HealthCommand();
            case "report" -> new io.rdmaffm.perftest.cli.reports.ReportCommand();
            case "compare" -> new io.rdmaffm.perftest.cli.reports.CompareCommand();
            case "help" -> new CommandLine.HelpCommand();
            case "generate-completion" -> new CompletionCommand();
            default -> throw new IllegalArgumentException("no subcommand " + name);
        };
    }

    public static void main(String[] args) {
        EarlyListen.claim(args);
        execute(args);
    }

    /** Runs the command line and exits with its status; a server's port may already be bound (EarlyListen). */
    static void execute(String[] args) {
        boolean tool = args.length > 0 && args[0].startsWith("ib_") && SUBCOMMANDS.contains(args[0]);
        System.exit(commandLine(tool ? List.of(args[0]) : SUBCOMMANDS).execute(args));
    }
}
