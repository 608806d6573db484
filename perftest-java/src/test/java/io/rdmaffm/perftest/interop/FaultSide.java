package io.rdmaffm.perftest.interop;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One side of a run under a network fault: bin/rdma-perftest (in its own JVM, as users start it) or a C perftest
 * binary, started here or on the peer host over ssh, with its output, pid and exit status written into a case
 * folder that both hosts share (the harness shares the working tree). The network between the hosts may be cut
 * while the side ends, so nothing about its end travels over ssh: its exit status appears as a file, and the
 * time of its end is when this host first sees that file (polled every 100 ms). A JVM that crashes writes its
 * hs_err file into the folder too ({@code -XX:ErrorFile}). A server's shell checks every 0.5 s whether it listens
 * (more often would take CPU from the JVM starting on the guest's one emulated CPU).
 */
final class FaultSide {
    /** The launcher of this checkout, the same path on every host. */
    static final Path LAUNCHER = RemoteHost.ROOT.resolve("bin").resolve("rdma-perftest");

    final String name;
    private final RemoteHost host;
    private final Path dir;
    private final Process local;
    private final RemoteHost.Started remote;
    private long endedAt;

    private FaultSide(String name, RemoteHost host, Path dir, Process local, RemoteHost.Started remote) {
        this.name = name;
        this.host = host;
        this.dir = dir;
        this.local = local;
        this.remote = remote;
    }

    /**
     * Starts {@code command} as side {@code name} here ({@code host} null) or on {@code host}, ended after
     * {@code limitSeconds}. A server ({@code listenPort} above 0) says when it listens on that TCP port. The
     * launcher's JVM gets {@code javaOpts} (RDMA_PERFTEST_JAVA_OPTS, no quotes in it) after the error file's.
     */
    static FaultSide start(RemoteHost host, String name, Path dir, int limitSeconds, int listenPort,
            String javaOpts, List<String> command) throws IOException {
        Files.createDirectories(dir);
        String d = dir.toString();
        String out = d + "/" + name;
        StringBuilder sh = new StringBuilder("cd ").append(RemoteHost.quote(List.of(RemoteHost.ROOT.toString())))
                .append(" || exit 1\n")
                .append("RDMA_PERFTEST_JAVA_OPTS='-XX:ErrorFile=").append(d).append("/hs_err_pid%p.log ")
                .append(javaOpts).append("' ")
                .append("timeout -k 5 ").append(limitSeconds).append(' ').append(RemoteHost.quote(command))
                .append(" > '").append(out).append(".out' 2>&1 &\n")
                .append("p=$!\necho $p > '").append(out).append(".pid'\n");
        if (listenPort > 0) {
            sh.append("while kill -0 $p 2>/dev/null; do awk -v p=").append(String.format(":%04X", listenPort))
                    .append(" '$2 ~ p\"$\" && $4 == \"0A\" {f=1} END {exit !f}' /proc/net/tcp /proc/net/tcp6")
                    .append(" 2>/dev/null && { : > '").append(out).append(".listening'; break; }; sleep 0.5; done &\n");
        }
        sh.append("wait $p\necho $? > '").append(out).append(".rc.tmp' && mv '").append(out).append(".rc.tmp' '")
                .append(out).append(".rc'\n");
        GuestNetwork.log("starting " + name + " (" + (host == null ? "here" : host.name) + "): "
                + String.join(" ", command));
        if (host == null) {
            Process p = new ProcessBuilder("sh", "-c", sh.toString()).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())).start();
            return new FaultSide(name, null, dir, p, null);
        }
        return new FaultSide(name, host, dir, null, host.start(limitSeconds + 60, List.of("sh", "-c", sh.toString())));
    }

    /** bin/rdma-perftest TOOL ARGS. */
    static List<String> launcher(String tool, List<String> args) {
        return RemoteHost.concat(List.of(LAUNCHER.toString(), tool), args.toArray(String[]::new));
    }

    /** The case folder. */
    Path dir() {
        return dir;
    }

    /** Where this side runs. */
    String where() {
        return host == null ? "here" : host.name;
    }

    private Path file(String suffix) {
        return dir.resolve(name + suffix);
    }

    /** Waits until the server listens, at most {@code seconds}; fails at once if it ended. */
    void awaitListening(long seconds) throws Exception {
        await(seconds, "listening", () -> Files.exists(file(".listening")));
        GuestNetwork.log(name + " listening (" + where() + ")");
    }

    /** Waits until the output contains {@code text}, at most {@code seconds}; fails at once if it ended. */
    void awaitOutput(String text, long seconds) throws Exception {
        await(seconds, "'" + text + "'", () -> output().contains(text));
        GuestNetwork.log(name + " printed '" + text + "'");
    }

    private interface Check {
        boolean done() throws IOException;
    }

    private void await(long seconds, String what, Check check) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!check.done()) {
            if (ended()) {
                throw new AssertionError(name + " (" + where() + ") ended with exit " + exitCode() + " before "
                        + what + ":\n" + output());
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(name + " (" + where() + "): not " + what + " within " + seconds + " s:\n"
                        + output());
            }
            Thread.sleep(100);
        }
    }

    /** Whether it has ended; the first call that sees it notes the time. */
    boolean ended() {
        if (endedAt == 0 && Files.exists(file(".rc"))) {
            endedAt = System.nanoTime();
            GuestNetwork.log(name + " ended (" + where() + ")");
        }
        return endedAt != 0;
    }

    /** Waits until every side has ended, at most {@code seconds}; returns whether they did. */
    static boolean awaitEnd(long seconds, FaultSide... sides) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (true) {
            boolean all = true;
            for (FaultSide s : sides) {
                all &= s.ended();
            }
            if (all || System.nanoTime() > deadline) {
                return all;
            }
            Thread.sleep(100);
        }
    }

    /** The exit status (124: its limit ended it), or -1 while it runs. */
    int exitCode() throws IOException {
        return ended() ? Integer.parseInt(Files.readString(file(".rc")).strip()) : -1;
    }

    /** Seconds from {@code t0} (System.nanoTime) to its end. */
    double secondsAfter(long t0) {
        return (endedAt - t0) / 1e9;
    }

    String output() throws IOException {
        Path out = file(".out");
        return Files.exists(out) ? Files.readString(out) : "";
    }

    /**
     * Ends it where it still runs (SIGTERM to its {@code timeout}, which passes it on) and lets its starter
     * (the shell here, the ssh session there) go; bounded.
     */
    void stop() throws Exception {
        if (!ended() && Files.exists(file(".pid"))) {
            String kill = "kill " + Files.readString(file(".pid")).strip() + " 2>/dev/null; true";
            try {
                if (host == null) {
                    GuestNetwork.here(30, kill);
                } else {
                    host.run(30, List.of("sh", "-c", kill));
                }
            } catch (AssertionError unreachable) {
                // The peer cannot be reached (the fault still holds): its own limit ends it.
            }
        }
        if (local != null && !local.waitFor(30, TimeUnit.SECONDS)) {
            local.destroyForcibly();
        }
        if (remote != null) {
            remote.await(30);
        }
    }
}
