package io.rdmaffm.perftest.cluster;

import java.util.List;

/**
 * Slurm, inside an allocation: {@code srun --nodes=1 --ntasks=1 --nodelist=HOST --overlap --unbuffered
 * --input=none --quiet --job-name=rdma-matrix sh -c SCRIPT}, one job step per end.
 *
 * <ul>
 * <li>{@code --nodes=1 --ntasks=1 --nodelist=HOST}: exactly one task on exactly that node.</li>
 * <li>{@code --overlap} rather than {@code --exclusive}: a step with exclusive CPUs waits until CPUs of the
 *     allocation are free, and a node runs up to two steps per rail at once (one server, one client per NIC);
 *     with one CPU per node allocated (a plain {@code salloc -N}) the client's step would queue behind the
 *     server's and the pair would stall. Our steps mostly wait on the NIC, so sharing CPUs costs nothing
 *     measurable; the allocation itself keeps other jobs off the nodes. ({@code --overlap} is Slurm 20.11+.)</li>
 * <li>{@code --unbuffered}: the server's "Waiting for client" line must reach us when printed, not when the step
 *     ends. {@code --input=none}: nothing of ours goes to the task's stdin.</li>
 * </ul>
 * srun execs its arguments without a shell, so the script is one argument, quoted no further.
 *
 * <p>Stopping: ending the local srun (SIGTERM) makes Slurm signal the step's tasks and cancel the step; the
 * script forwards the signal to the tool. No remote kill is needed.
 */
public final class SrunLauncher implements Launcher {

    @Override
    public String name() {
        return "srun";
    }

    @Override
    public List<String> command(String host, String script) {
        return List.of("srun", "--nodes=1", "--ntasks=1", "--nodelist=" + Names.host(host, "srun"), "--overlap",
                "--unbuffered", "--input=none", "--quiet", "--job-name=rdma-matrix", "sh", "-c", script);
    }

    /**
     * Without {@code --input=none}: srun forwards its standard input to the one task, where the worker reads its
     * orders; cancelling the step (ending this srun) ends the worker as it ends a tool.
     */
    @Override
    public List<String> sessionCommand(String host, String script) {
        return List.of("srun", "--nodes=1", "--ntasks=1", "--nodelist=" + Names.host(host, "srun"), "--overlap",
                "--unbuffered", "--quiet", "--job-name=rdma-matrix", "sh", "-c", script);
    }

    @Override
    public List<String> killCommand(String host, long pid) {
        return null;
    }

    /**
     * srun's own failures (no such node in the allocation, step creation refused) exit 1 like a failing tool;
     * they are told apart by the pid line the script prints once it runs, not by the exit status.
     */
    @Override
    public boolean launcherFailed(int exitCode) {
        return false;
    }
}
