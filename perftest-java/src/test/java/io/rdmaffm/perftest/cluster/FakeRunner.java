package io.rdmaffm.perftest.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A {@link ProcessRunner} that starts nothing: it records every command line and answers with a scripted
 * {@link Reply} chosen from the command line. A hanging reply never ends until destroyed, so timeouts are real.
 */
final class FakeRunner implements ProcessRunner {

    /**
     * What a fake process does.
     *
     * @param stdout   printed at once
     * @param stderr   printed at once
     * @param exitCode its status when it ends
     * @param hang     never ends by itself
     */
    record Reply(String stdout, String stderr, int exitCode, boolean hang) {
        static Reply ok(String stdout) {
            return new Reply(stdout, "", 0, false);
        }

        static Reply hang(String stdout) {
            return new Reply(stdout, "", -1, true);
        }
    }

    private final Function<List<String>, Reply> script;
    private final List<List<String>> commands = Collections.synchronizedList(new ArrayList<>());
    private final List<FakeProcess> started = Collections.synchronizedList(new ArrayList<>());

    FakeRunner(Function<List<String>, Reply> script) {
        this.script = script;
    }

    List<List<String>> commands() {
        synchronized (commands) {
            return new ArrayList<>(commands);
        }
    }

    List<FakeProcess> started() {
        synchronized (started) {
            return new ArrayList<>(started);
        }
    }

    @Override
    public Running start(List<String> command) {
        commands.add(List.copyOf(command));
        FakeProcess p = new FakeProcess(script.apply(command));
        started.add(p);
        return p;
    }

    static final class FakeProcess implements Running {
        private final Reply reply;
        private boolean destroyed;

        FakeProcess(Reply reply) {
            this.reply = reply;
        }

        synchronized boolean destroyed() {
            return destroyed;
        }

        @Override
        public String awaitLine(Predicate<String> match, Duration timeout) throws InterruptedException {
            for (String line : reply.stdout().split("\n")) {
                if (match.test(line)) {
                    return line;
                }
            }
            waitFor(timeout);
            return null;
        }

        @Override
        public synchronized boolean waitFor(Duration timeout) throws InterruptedException {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (reply.hang() && !destroyed) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                wait(Math.max(1, left / 1_000_000));
            }
            return true;
        }

        @Override
        public synchronized int exitCode() {
            return destroyed && reply.hang() ? 143 : reply.exitCode();
        }

        @Override
        public String stdout() {
            return reply.stdout();
        }

        @Override
        public String stderr() {
            return reply.stderr();
        }

        @Override
        public synchronized boolean alive() {
            return reply.hang() && !destroyed;
        }

        @Override
        public synchronized void destroy() {
            destroyed = true;
            notifyAll();
        }
    }
}
