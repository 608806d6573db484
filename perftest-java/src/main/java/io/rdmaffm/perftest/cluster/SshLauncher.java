package io.rdmaffm.perftest.cluster;

import java.util.ArrayList;
import java.util.List;

/**
 * OpenSSH: {@code ssh -n -T -o BatchMode=yes … -- HOST 'sh -c SCRIPT'}.
 *
 * <ul>
 * <li>BatchMode=yes: never a password or passphrase prompt (keys or an agent only); a host that would ask fails
 *     at once, with exit 255.</li>
 * <li>ConnectTimeout bounds the TCP connect and the handshake; ServerAliveInterval/CountMax end a session whose
 *     host died mid-run (exit 255 within about 15 s) instead of leaving it hanging.</li>
 * <li>StrictHostKeyChecking=accept-new: a cluster's new nodes are accepted once, a changed key still refuses;
 *     LogLevel=ERROR keeps ssh's "Permanently added" warnings out of the output we parse.</li>
 * <li>{@code -n -T}: no stdin, no pseudo-terminal, so the tools' output arrives byte for byte.</li>
 * <li>{@code --} before the host, and host names checked by {@link Names#host}: no name can become an option.</li>
 * </ul>
 * ssh hands its command to the remote login shell as one string, hence {@code sh -c} plus one more level of
 * quoting: the script then runs under sh whatever the user's login shell is.
 *
 * <p>Stopping: without a pseudo-terminal, ending the local ssh client does not end the remote process. sshd
 * sends no signal; the process only notices when it next writes to the closed pipe, and a server blocked in
 * {@code accept()} never does. {@code -tt} would make the remote kernel send SIGHUP on disconnect, but a
 * terminal rewrites the output (CR LF, stderr merged, echo) and changes the tools' buffering. So the script
 * prints the tool's pid and {@link #killCommand} sends it SIGTERM over a fresh connection; perftest-java servers
 * also carry {@code --accept-timeout}, so one whose host became unreachable still ends by itself.
 */
public final class SshLauncher implements Launcher {
    private final int connectTimeoutSeconds;

    /** @param connectTimeoutSeconds ssh's ConnectTimeout */
    public SshLauncher(int connectTimeoutSeconds) {
        if (connectTimeoutSeconds < 1) {
            throw new IllegalArgumentException("connect timeout must be at least 1 s");
        }
        this.connectTimeoutSeconds = connectTimeoutSeconds;
    }

    @Override
    public String name() {
        return "ssh";
    }

    @Override
    public List<String> command(String host, String script) {
        return command(host, script, true);
    }

    /**
     * Without {@code -n}: the worker reads its orders from the session's stdin. When this ssh ends (Ctrl-C, the
     * driver killed), sshd closes that stdin and the worker ends on the end of its input, even when the kill
     * command cannot reach the host.
     */
    @Override
    public List<String> sessionCommand(String host, String script) {
        return command(host, script, false);
    }

    private List<String> command(String host, String script, boolean noStdin) {
        List<String> c = new ArrayList<>(noStdin ? List.of("ssh", "-n", "-T") : List.of("ssh", "-T"));
        c.addAll(List.of(
                "-o", "BatchMode=yes",
                "-o", "ConnectTimeout=" + connectTimeoutSeconds,
                "-o", "StrictHostKeyChecking=accept-new",
                "-o", "ServerAliveInterval=5",
                "-o", "ServerAliveCountMax=3",
                "-o", "LogLevel=ERROR",
                "--", Names.host(host, "ssh")));
        c.add("sh -c " + Names.quote(script));
        return c;
    }

    @Override
    public List<String> killCommand(String host, long pid) {
        return command(host, "kill -TERM " + pid + " 2>/dev/null; exit 0");
    }

    /** ssh exits 255 for its own errors (connect, auth, host key, lost connection); the tools never do. */
    @Override
    public boolean launcherFailed(int exitCode) {
        return exitCode == 255;
    }
}
