package io.rdmaffm.perftest.cli;

import io.rdmaffm.perftest.cluster.MatrixWorker;
import io.rdmaffm.perftest.cluster.WorkerProtocol;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code rdma-perftest matrix-worker}: the host's end of a matrix run (hidden: {@code matrix} starts it over ssh
 * or srun, people do not). Serves {@link WorkerProtocol} orders on stdin, each tool run in this JVM as
 * {@code rdma-perftest TOOL ...} would run it, events on stdout.
 */
@Command(name = WorkerProtocol.COMMAND, hidden = true,
        description = "Runs a matrix's tests on this host, ordered over stdin (started by matrix).")
final class MatrixWorkerCommand implements Callable<Integer> {

    @Override
    public Integer call() throws Exception {
        PrintStream events = System.out;
        MatrixWorker w = new MatrixWorker(MatrixWorkerCommand::runTool, events,
                // The driver is gone while a tool runs: end now; the kernel frees the tool's QPs with the process.
                () -> Runtime.getRuntime().halt(3));
        return w.serve(System.in);
    }

    /** One tool, as the launcher runs it: its own command only, fresh (picocli's parse state is per line). */
    static int runTool(List<String> argv, PrintWriter out) {
        CommandLine cl = Main.commandLine(List.of(argv.getFirst()));
        cl.setOut(out);
        cl.setErr(out);
        return cl.execute(argv.toArray(String[]::new));
    }
}
