package io.rdmaffm.perftest.cluster;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.BufferedReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/** {@link ProcessRunner} with real processes: stdin from /dev/null, each output read by a virtual thread. */
public final class LocalProcessRunner implements ProcessRunner {
    /** Per stream; a tool's output is a few KB, so more means something runs away. */
    static final int CAP_CHARS = 1 << 20;

    @Override
    public Running start(List<String> command) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        return new LocalRunning(pb.start());
    }

    @Override
    public Conversation converse(List<String> command) throws IOException {
        return new LocalConversation(new ProcessBuilder(command).start());
    }

    /** Ends {@code process}: SIGTERM, then SIGKILL if it is still there 2 s later (or the wait is interrupted). */
    private static void stop(Process process) {
        process.destroy();
        try {
            if (!process.waitFor(2, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** A session's process: standard output read by the caller, standard error's tail kept by a virtual thread. */
    private static final class LocalConversation implements Conversation {
        private final Process process;
        private final BufferedReader out;
        private final OutputStream in;
        private final StringBuilder err = new StringBuilder();
        private final Thread errReader;

        LocalConversation(Process process) {
            this.process = process;
            this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            this.in = process.getOutputStream();
            this.errReader = Thread.ofVirtual().start(this::drainErr);
        }

        private void drainErr() {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getErrorStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    synchronized (err) {
                        // A session lives for the whole run: keep the tail, where the cause of its end is.
                        if (err.length() > CAP_CHARS) {
                            err.delete(0, err.length() - CAP_CHARS / 2);
                        }
                        err.append(line).append('\n');
                    }
                }
            } catch (IOException e) {
                // closed under us (destroyed): what was read stays
            }
        }

        @Override
        public void send(String line) throws IOException {
            synchronized (in) {
                in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
                in.flush();
            }
        }

        @Override
        public void closeInput() {
            try {
                synchronized (in) {
                    in.close();
                }
            } catch (IOException e) {
                // already gone
            }
        }

        @Override
        public String readLine() throws IOException {
            try {
                return out.readLine();
            } catch (IOException e) {
                return null; // the stream closed under us (destroyed): its end
            }
        }

        @Override
        public boolean waitFor(Duration timeout) throws InterruptedException {
            if (!process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
                return false;
            }
            errReader.join(Duration.ofMillis(500));
            return true;
        }

        @Override
        public int exitCode() {
            return process.exitValue();
        }

        @Override
        public String stderr() {
            synchronized (err) {
                return err.toString();
            }
        }

        @Override
        public boolean alive() {
            return process.isAlive();
        }

        @Override
        public void destroy() {
            closeInput();
            stop(process);
        }
    }

    private static final class LocalRunning implements Running {
        private final Process process;
        private final StringBuilder out = new StringBuilder();
        private final StringBuilder err = new StringBuilder();
        private final Thread outReader;
        private final Thread errReader;

        LocalRunning(Process process) {
            this.process = process;
            this.outReader = Thread.ofVirtual().start(() -> drain(process.getInputStream(), out));
            this.errReader = Thread.ofVirtual().start(() -> drain(process.getErrorStream(), err));
        }

        private void drain(InputStream in, StringBuilder into) {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    synchronized (this) {
                        if (into.length() < CAP_CHARS) {
                            into.append(line).append('\n');
                        } else if (into.charAt(into.length() - 1) != '\u2026') {
                            into.append("[output cut at ").append(CAP_CHARS).append(" characters]\u2026");
                        }
                        notifyAll();
                    }
                }
            } catch (IOException e) {
                // the stream closed under us (process destroyed): what was read stays
            } finally {
                synchronized (this) {
                    notifyAll();
                }
            }
        }

        @Override
        public String awaitLine(Predicate<String> match, Duration timeout) throws InterruptedException {
            long deadline = System.nanoTime() + timeout.toNanos();
            synchronized (this) {
                // Sliced: the reader's end (EOF) notifies, but its thread is seen dead only after it returned.
                return OutputLines.await(this, out, match, deadline, () -> !outReader.isAlive(), 50_000_000L);
            }
        }

        @Override
        public boolean waitFor(Duration timeout) throws InterruptedException {
            long deadline = System.nanoTime() + timeout.toNanos();
            if (!process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
                return false;
            }
            // The readers finish at EOF; a grandchild holding the pipe open must not hold us past the deadline.
            long left = Math.max(1_000_000L, deadline - System.nanoTime());
            outReader.join(Duration.ofNanos(left));
            errReader.join(Duration.ofNanos(Math.max(1_000_000L, deadline - System.nanoTime())));
            return true;
        }

        @Override
        public int exitCode() {
            return process.exitValue();
        }

        @Override
        public synchronized String stdout() {
            return out.toString();
        }

        @Override
        public synchronized String stderr() {
            return err.toString();
        }

        @Override
        public boolean alive() {
            return process.isAlive();
        }

        @Override
        public void destroy() {
            stop(process);
        }
    }
}
