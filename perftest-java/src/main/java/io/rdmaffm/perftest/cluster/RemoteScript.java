package io.rdmaffm.perftest.cluster;

import java.util.ArrayList;
import java.util.List;

/**
 * The POSIX shell script one end of a rail test runs on its host (through {@code sh -c}, whatever the launcher).
 *
 * <p>It checks the tool is installed (exit 127 with a line saying so), starts the tool in the background and
 * prints its pid as {@value #PID_MARK} N, so the driver can stop exactly that process later; forwards
 * SIGTERM/SIGHUP/SIGINT to it (srun signals the script when its step is cancelled); waits for it; and for
 * perftest-java prints {@value #JSON_MARK} followed by the {@code --out_json} file, which it then deletes. Every
 * value from the user is single-quoted ({@link Names#quote}) on top of the name checks, so no host, device or
 * tool argument can change the script.
 */
public final class RemoteScript {
    /** Printed (with the tool's pid) once the tool started. */
    public static final String PID_MARK = "@rdma-matrix pid";
    /** Printed before the tool's JSON document. */
    public static final String JSON_MARK = "@rdma-matrix json";
    /** Printed (on stderr, exit 127) when the tool is not installed. */
    public static final String MISSING_MARK = "@rdma-matrix missing";
    /** The line both C perftest's and perftest-java's servers print once they listen on TCP or rdma_cm. */
    public static final String LISTENING = "Waiting for client";

    private RemoteScript() {
    }

    /**
     * The script for one end.
     *
     * @param peer     perftest-java or C perftest
     * @param toolPath perftest-java's launcher (default {@code rdma-perftest}) or the C binaries' directory (null:
     *                 PATH)
     * @param tool     e.g. "ib_write_bw"
     * @param device   RDMA device, null for the tool's default
     * @param port     TCP port of the exchange
     * @param extra    extra tool arguments
     * @param server   the server's host name for the client end; null for the server end
     * @param acceptSeconds perftest-java server only: its own bound on waiting for the client, so a server the
     *                 driver could not stop still ends by itself
     */
    public static String of(MatrixRequest.Peer peer, String toolPath, String tool, String device, int port,
            List<String> extra, String server, long acceptSeconds) {
        boolean java = peer == MatrixRequest.Peer.JAVA;
        String program = java ? (toolPath == null ? "rdma-perftest" : toolPath)
                : (toolPath == null ? tool : toolPath.replaceAll("/+$", "") + "/" + tool);
        List<String> argv = new ArrayList<>();
        if (java) {
            argv.add(tool);
        }
        if (device != null) {
            argv.add("-d");
            argv.add(device);
        }
        argv.add("-p");
        argv.add(Integer.toString(port));
        if (java && server == null) {
            argv.add("--accept-timeout");
            argv.add(Long.toString(acceptSeconds));
        }
        argv.addAll(extra);
        // No progress line in what the driver keeps: under srun the tool's output can be a terminal, and the
        // line drawn there (CSI erase sequences) ended up in front of the table's row.
        StringBuilder cmd = new StringBuilder(java ? "RDMAFFM_PROGRESS=never " : "").append(Names.quote(program));
        for (String a : argv) {
            cmd.append(' ').append(Names.quote(a));
        }
        boolean json = java && server != null;
        if (json) {
            cmd.append(" --out_json_file \"$f\"");
        }
        if (server != null) {
            cmd.append(' ').append(Names.quote(server));
        }
        String q = Names.quote(program);
        StringBuilder s = new StringBuilder();
        s.append("command -v ").append(q).append(" >/dev/null 2>&1 || { echo \"").append(MISSING_MARK)
                .append(" \"").append(q).append("\" on $(hostname)\" >&2; exit 127; }\n");
        if (json) {
            s.append("f=$(mktemp \"${TMPDIR:-/tmp}/rdma-matrix.XXXXXX\") || exit 96\n");
        }
        s.append(cmd).append(" 2>&1 &\n");
        s.append("p=$!\n");
        s.append("trap 'kill -TERM $p 2>/dev/null' HUP INT TERM\n");
        s.append("echo \"").append(PID_MARK).append(" $p\"\n");
        s.append("wait $p; rc=$?\n");
        if (json) {
            s.append("echo \"").append(JSON_MARK).append("\"\n");
            s.append("cat \"$f\" 2>/dev/null; rm -f \"$f\"\n");
        }
        s.append("exit $rc");
        return s.toString();
    }

    /**
     * The script that starts a host's worker ({@link MatrixWorker}) and becomes it ({@code exec}, so a signal
     * from srun or the kill command reaches the JVM itself): the same check that the tool is installed as
     * {@link #of}'s, no progress line.
     *
     * @param toolPath perftest-java's launcher, null for {@code rdma-perftest} on PATH
     */
    public static String worker(String toolPath) {
        String q = Names.quote(toolPath == null ? "rdma-perftest" : toolPath);
        return "command -v " + q + " >/dev/null 2>&1 || { echo \"" + MISSING_MARK + " \"" + q
                + "\" on $(hostname)\" >&2; exit 127; }\n"
                + "RDMAFFM_PROGRESS=never exec " + q + " " + WorkerProtocol.COMMAND;
    }

    /**
     * One end's perftest-java command line for a worker's order: what {@link #of} runs, without the program (the
     * worker is it) and without {@code --out_json_file} (the worker adds its own file).
     */
    public static List<String> workerArgv(String tool, String device, int port, List<String> extra, String server,
            long acceptSeconds) {
        List<String> argv = new ArrayList<>();
        argv.add(tool);
        if (device != null) {
            argv.add("-d");
            argv.add(device);
        }
        argv.add("-p");
        argv.add(Integer.toString(port));
        if (server == null) {
            argv.add("--accept-timeout");
            argv.add(Long.toString(acceptSeconds));
        }
        argv.addAll(extra);
        if (server != null) {
            argv.add(server);
        }
        return argv;
    }

    /** The tool's pid from an end's output, or -1 when it never started. */
    public static long pid(String stdout) {
        int i = stdout.indexOf(PID_MARK + " ");
        if (i < 0) {
            return -1;
        }
        int start = i + PID_MARK.length() + 1;
        int end = start;
        while (end < stdout.length() && Character.isDigit(stdout.charAt(end))) {
            end++;
        }
        return end == start ? -1 : Long.parseLong(stdout.substring(start, end));
    }
}
