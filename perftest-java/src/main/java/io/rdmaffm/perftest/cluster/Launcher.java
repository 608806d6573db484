package io.rdmaffm.perftest.cluster;

import java.util.List;

/**
 * Starts a shell script on a host through an existing launcher (ssh, srun): builds the local command lines
 * only; a {@link ProcessRunner} runs them. Never a daemon of ours.
 */
public interface Launcher {

    /** "ssh" or "srun", for messages. */
    String name();

    /** The local command that runs {@code sh -c script} on {@code host}. */
    List<String> command(String host, String script);

    /**
     * The local command that runs {@code sh -c script} on {@code host} with our standard input reaching the
     * script's: a worker's session, which takes its orders there for the whole run ({@link WorkerSession}).
     */
    List<String> sessionCommand(String host, String script);

    /**
     * The local command that stops process {@code pid} on {@code host}, or null when ending the local launcher
     * process already stops the remote one.
     */
    List<String> killCommand(String host, long pid);

    /** Whether {@code exitCode} is the launcher's own failure (could not reach the host, lost the connection). */
    boolean launcherFailed(int exitCode);
}
