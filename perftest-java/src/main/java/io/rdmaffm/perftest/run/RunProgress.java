package io.rdmaffm.perftest.run;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * One progress line on stderr while a run takes long ({@code -a} sweeps, {@code -D}, many iterations): the size
 * being measured, how far into the sweep, elapsed time and an estimate of what is left. Only when stderr is a
 * terminal (or {@code RDMAFFM_PROGRESS=always}): stdout carries perftest's table byte for byte, and a log or pipe
 * gets no progress text. Nothing of it runs on the measuring thread: the participant marks the start and end of
 * each size between the measured loops, and a daemon thread redraws the line once a second, after the first
 * {@link #QUIET_NANOS}, and erases it before each row is printed, so the table on a shared terminal stays whole.
 */
final class RunProgress implements AutoCloseable {
    /** Nothing is shown during the first two seconds: a short run prints no progress at all. */
    static final long QUIET_NANOS = TimeUnit.SECONDS.toNanos(2);
    /** System property: {@code always}, {@code never}, or (default) {@code auto}: when stderr is a terminal. */
    static final String PROPERTY = "rdmaffm.progress";
    /** The same as an environment variable, for the launchers (the property wins). */
    static final String ENV = "RDMAFFM_PROGRESS";
    private static final long TICK_MILLIS = 1000;
    private static final String ERASE = "\r\033[K";

    private final PrintStream sink;
    private final boolean on;
    private final LongSupplier clock;
    private final String tool;
    private final List<Long> sizes;
    private final long durationNanos;
    private final long[] sizeNanos;
    private final long start;
    private int current = -1;
    private long sizeStart;
    private boolean shown;
    private boolean closed;
    private Thread ticker;

    /**
     * @param sink            where the line goes (stderr)
     * @param on              whether anything is shown at all
     * @param clock           nanoseconds, {@link System#nanoTime} outside tests
     * @param tool            the tool's perftest name
     * @param sizes           the sizes of the run, in order
     * @param durationSeconds {@code -D} per size, 0 in iteration mode
     */
    RunProgress(PrintStream sink, boolean on, LongSupplier clock, String tool, List<Long> sizes, int durationSeconds) {
        this.sink = sink;
        this.on = on;
        this.clock = clock;
        this.tool = tool;
        this.sizes = List.copyOf(sizes);
        this.durationNanos = TimeUnit.SECONDS.toNanos(durationSeconds);
        this.sizeNanos = new long[sizes.size()];
        this.start = clock.getAsLong();
    }

    /**
     * Progress for a run: on stderr with a ticker when {@link #enabled}; else off, without a ticker ({@link #starting}
     * and {@link #finished} then only read the clock).
     */
    static RunProgress forRun(String tool, List<Long> sizes, int durationSeconds) {
        String env = System.getenv(ENV);
        boolean on = enabled(System.getProperty(PROPERTY, env == null ? "auto" : env), stderrIsTerminal());
        RunProgress p = new RunProgress(System.err, on, System::nanoTime, tool, sizes, durationSeconds);
        if (on) {
            p.startTicker();
        }
        return p;
    }

    /** Whether to show progress: {@code always}, {@code never}, else when stderr is a terminal. */
    static boolean enabled(String setting, boolean stderrTerminal) {
        return switch (setting) {
            case "always" -> true;
            case "never" -> false;
            default -> stderrTerminal;
        };
    }

    /** Whether fd 2 is a terminal: a tty or pty device, as /proc tells (no native call for one bit). */
    static boolean stderrIsTerminal() {
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty") || target.equals("/dev/console");
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return false;
        }
    }

    private void startTicker() {
        ticker = new Thread(() -> {
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    Thread.sleep(TICK_MILLIS);
                    tick();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "progress");
        ticker.setDaemon(true);
        ticker.start();
    }

    /** Before the measured loop of size {@code index}. */
    synchronized void starting(int index) {
        current = index;
        sizeStart = clock.getAsLong();
    }

    /** After the measured loop of size {@code index}, before its row is printed: the line goes away. */
    synchronized void finished(int index) {
        sizeNanos[index] = clock.getAsLong() - sizeStart;
        current = -1;
        erase();
    }

    /** Redraws the line when a size is being measured and the run has lasted long enough. */
    synchronized void tick() {
        long now = clock.getAsLong();
        if (!on || closed || current < 0 || now - start < QUIET_NANOS) {
            return;
        }
        sink.print("\r" + line(now) + "\033[K");
        sink.flush();
        shown = true;
    }

    private void erase() {
        if (shown) {
            sink.print(ERASE);
            sink.flush();
            shown = false;
        }
    }

    /** The text of the line at {@code now}. */
    synchronized String line(long now) {
        StringBuilder b = new StringBuilder(tool).append(": size ").append(sizes.get(current)).append(" B");
        if (sizes.size() > 1) {
            b.append(" (").append(current + 1).append('/').append(sizes.size()).append(')');
        }
        b.append(", elapsed ").append(clockText(now - start));
        long eta = eta(now);
        if (eta >= 0) {
            b.append(", ETA ").append(clockText(eta));
        }
        return b.toString();
    }

    /**
     * Nanoseconds left, or -1 when unknown. With {@code -D} every size takes the duration. Otherwise a line through
     * the last two sizes' times (time = a + b·size, neither negative) prices the sizes left; one measured size prices
     * each of them at its own time; none: unknown.
     */
    private long eta(long now) {
        long inSize = now - sizeStart;
        int left = sizes.size() - current - 1;
        if (durationNanos > 0) {
            return Math.max(0, durationNanos - inSize) + left * durationNanos;
        }
        if (current == 0) {
            return -1;
        }
        double b = 0;
        if (current >= 2) {
            long s1 = sizes.get(current - 2);
            long s2 = sizes.get(current - 1);
            b = s2 == s1 ? 0 : Math.max(0, (double) (sizeNanos[current - 1] - sizeNanos[current - 2]) / (s2 - s1));
        }
        double a = Math.max(0, sizeNanos[current - 1] - b * sizes.get(current - 1));
        double total = 0;
        for (int i = current; i < sizes.size(); i++) {
            total += a + b * sizes.get(i);
        }
        return (long) Math.max(0, total - inSize);
    }

    private static String clockText(long nanos) {
        long s = TimeUnit.NANOSECONDS.toSeconds(nanos);
        return s >= 3600 ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
                : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }

    /** @return whether a ticker thread redraws the line */
    boolean ticking() {
        return ticker != null;
    }

    /** Stops the ticker and erases the line. */
    @Override
    public synchronized void close() {
        closed = true;
        if (ticker != null) {
            ticker.interrupt();
        }
        erase();
    }
}
