package io.rdmaffm.perftest.fabric.driver;

import io.rdmaffm.perftest.cluster.Names;
import io.rdmaffm.perftest.cluster.RemoteScript;
import java.util.List;

/**
 * The POSIX shell script a rank runs on its host (through {@code sh -c}, whatever the launcher), with
 * {@link RemoteScript}'s marks: exit 127 and {@value RemoteScript#MISSING_MARK} when {@code rdma-perftest} is not
 * installed; the worker started in the background and its pid printed as {@value RemoteScript#PID_MARK} N, so the
 * driver can stop exactly it over a fresh connection; SIGHUP/SIGINT/SIGTERM forwarded to it (srun signals the
 * script when its step is cancelled); its exit status passed on. Every argument is single-quoted
 * ({@link Names#quote}).
 */
public final class FabricScript {
    private FabricScript() {
    }

    /**
     * @param toolPath rdma-perftest on the host, null for PATH
     * @param argv     the worker's arguments ({@link FabricPlan#workerArgv})
     */
    public static String of(String toolPath, List<String> argv) {
        String q = Names.quote(toolPath == null ? "rdma-perftest" : toolPath);
        StringBuilder cmd = new StringBuilder("RDMAFFM_PROGRESS=never ").append(q);
        for (String a : argv) {
            cmd.append(' ').append(Names.quote(a));
        }
        return "command -v " + q + " >/dev/null 2>&1 || { echo \"" + RemoteScript.MISSING_MARK + " \"" + q
                + "\" on $(hostname)\" >&2; exit 127; }\n"
                + cmd + " &\n"
                + "p=$!\n"
                + "trap 'kill -TERM $p 2>/dev/null' HUP INT TERM\n"
                + "echo \"" + RemoteScript.PID_MARK + " $p\"\n"
                // wait returns early when a trapped signal arrives: wait again for the worker's own exit status.
                + "wait $p; rc=$?\n"
                + "while kill -0 $p 2>/dev/null; do wait $p; rc=$?; done\n"
                + "exit $rc";
    }
}
