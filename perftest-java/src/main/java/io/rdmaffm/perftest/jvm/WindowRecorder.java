package io.rdmaffm.perftest.jvm;

import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Records, with JFR, what the JVM does while the measured loops run: JIT compilations, deoptimizations,
 * garbage collections and safepoints, placed against each measured window; and, from /proc read at each
 * window's edges, the process's page faults and its threads' time on their CPUs ({@link ProcessActivity}). The recording is kept in memory
 * and read only after the run, so nothing parses or writes events while a loop is measured.
 *
 * <p>Use: {@link #start()} before the warm-up (JFR's own start-up work then happens before the windows),
 * {@link #open}/{@link #close(int)} around each measured loop, {@link #finish()} after the run. Where JFR is
 * not available the recorder is inert and {@link #finish()} returns null (unknown).
 */
public final class WindowRecorder implements AutoCloseable {
    private static final AtomicLong NEXT_ID = new AtomicLong();
    private static final List<String> JVM_EVENTS = List.of("jdk.Compilation", "jdk.Deoptimization",
            "jdk.GarbageCollection", "jdk.SafepointBegin", "jdk.SafepointEnd");

    private final Recording recording;
    private final long id = NEXT_ID.incrementAndGet();
    private final Map<Integer, MeasuredWindowEvent> open = new HashMap<>();
    private final Map<Integer, long[]> faultsAtOpen = new HashMap<>();
    private final Map<Integer, ThreadTimes.Snapshot> threadsAtOpen = new HashMap<>();
    private final Map<Integer, ProcessActivity> process = new HashMap<>();
    private final ThreadTimes threads = new ThreadTimes();
    private final PageFaults faults = new PageFaults();

    private WindowRecorder(Recording recording) {
        this.recording = recording;
    }

    /** Starts recording; an inert recorder where this JVM has no flight recorder. */
    public static WindowRecorder start() {
        if (!FlightRecorder.isAvailable()) {
            return new WindowRecorder(null);
        }
        Recording r = new Recording();
        r.setName("rdma-ffm measured windows");
        r.setToDisk(false);
        for (String e : JVM_EVENTS) {
            r.enable(e).withThreshold(Duration.ZERO).withoutStackTrace();
        }
        r.enable(MeasuredWindowEvent.class).withThreshold(Duration.ZERO);
        r.start();
        // JFR instruments an event class (ClassFile API, then a class redefinition: a safepoint) when it is
        // first initialized, and sets up its writer on the first commit: both here, not in the first window.
        MeasuredWindowEvent first = new MeasuredWindowEvent();
        first.window = -1;
        first.begin();
        first.end();
        first.commit();
        WindowRecorder w = new WindowRecorder(r);
        w.threads.rescan();
        ProcBytes.exercise(w.threads, w.faults);
        return w;
    }

    /**
     * Before the compiler is let settle for a window, on the thread that will measure: the threads to watch are
     * looked up (files opened) here, so that the window's edges only re-read them.
     */
    public void prepare() {
        if (recording != null) {
            threads.rescan();
        }
    }

    /** Marks the start of measured window {@code window} (one per message size). Not for the loop itself. */
    public void open(int window) {
        MeasuredWindowEvent e = new MeasuredWindowEvent();
        e.recorder = id;
        e.window = window;
        open.put(window, e);
        faultsAtOpen.put(window, faults.now());
        threadsAtOpen.put(window, threads.take(false));
        e.begin();
    }

    /** Marks the end of measured window {@code window}. */
    public void close(int window) {
        MeasuredWindowEvent e = open.remove(window);
        if (e != null) {
            e.end();
            ThreadTimes.Snapshot end = threads.take(true);
            long[] after = faults.now();
            long[] before = faultsAtOpen.remove(window);
            boolean known = before != null && after != null;
            process.put(window, ThreadTimes.between(threadsAtOpen.remove(window), end,
                    known ? after[0] - before[0] : -1, known ? after[1] - before[1] : -1));
            e.commit();
            threads.rescan(); // for the next window of an -a sweep, outside this one
        }
    }

    /**
     * Stops the recording and returns what happened in each window, indexed by window number (null entries for
     * numbers never opened); null where JFR is not available or the recording could not be read.
     */
    public List<WindowActivity> finish() {
        if (recording == null) {
            return null;
        }
        Path file = null;
        try {
            // An in-memory recording can only be dumped while it runs.
            file = Files.createTempFile("rdma-ffm-window", ".jfr");
            recording.dump(file);
            recording.stop();
            return attribute(RecordingFile.readAllEvents(file));
        } catch (IOException | RuntimeException e) {
            return null;
        } finally {
            recording.close();
            if (file != null) {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException ignored) {
                    // a temp file left behind is no reason to lose the run's results
                }
            }
        }
    }

    private List<WindowActivity> attribute(List<RecordedEvent> events) {
        List<Window> windows = new ArrayList<>();
        Map<Long, Instant> safepointStart = new HashMap<>();
        for (RecordedEvent e : events) {
            String type = e.getEventType().getName();
            if (type.equals("io.rdmaffm.perftest.MeasuredWindow") && e.getLong("recorder") == id) {
                int n = e.getInt("window");
                if (n < 0) {
                    continue; // the event committed at start
                }
                while (windows.size() <= n) {
                    windows.add(null);
                }
                windows.set(n, new Window(e.getStartTime(), e.getEndTime(),
                        process.getOrDefault(n, ProcessActivity.UNKNOWN)));
            } else if (type.equals("jdk.SafepointBegin")) {
                safepointStart.put(e.getLong("safepointId"), e.getStartTime());
            }
        }
        for (RecordedEvent e : events) {
            Instant start = e.getStartTime();
            Instant end = e.getEndTime();
            if (e.getEventType().getName().equals("jdk.SafepointEnd")) {
                start = safepointStart.getOrDefault(e.getLong("safepointId"), start);
            }
            for (Window w : windows) {
                if (w != null && start.isBefore(w.end) && !end.isBefore(w.start)) {
                    w.add(e, start, end);
                }
            }
        }
        List<WindowActivity> out = new ArrayList<>();
        for (Window w : windows) {
            out.add(w == null ? null : w.activity());
        }
        return out;
    }

    @Override
    public void close() {
        threads.close();
        faults.close();
        if (recording != null) {
            recording.close();
        }
    }

    /** One window's tally. */
    private static final class Window {
        final Instant start;
        final Instant end;
        final ProcessActivity process;
        int compilations;
        int osr;
        int deopts;
        int gcs;
        long gcPause;
        int safepoints;
        long safepointNanos;
        final List<String> details = new ArrayList<>();

        Window(Instant start, Instant end, ProcessActivity process) {
            this.start = start;
            this.end = end;
            this.process = process;
        }

        void add(RecordedEvent e, Instant from, Instant to) {
            switch (e.getEventType().getName()) {
                case "jdk.Compilation" -> {
                    compilations++;
                    boolean isOsr = e.getBoolean("isOsr");
                    osr += isOsr ? 1 : 0;
                    detail("compiled " + method(e) + " (" + e.getString("compiler") + (isOsr ? ", OSR" : "") + ")");
                }
                case "jdk.Deoptimization" -> {
                    deopts++;
                    detail("deoptimized " + method(e) + ": " + e.getString("reason") + ", " + e.getString("action"));
                }
                case "jdk.GarbageCollection" -> {
                    gcs++;
                    gcPause += e.getDuration("sumOfPauses").toNanos();
                    detail("GC " + e.getString("name"));
                }
                case "jdk.SafepointEnd" -> {
                    safepoints++;
                    safepointNanos += Duration.between(from, to).toNanos();
                }
                default -> {
                    // window markers and safepoint begins are counted through their pairs
                }
            }
        }

        private void detail(String s) {
            if (details.size() < WindowActivity.MAX_DETAILS) {
                details.add(s);
            }
        }

        private static String method(RecordedEvent e) {
            RecordedMethod m = e.getValue("method");
            return m == null ? "?" : m.getType().getName() + "." + m.getName();
        }

        WindowActivity activity() {
            return new WindowActivity(compilations, osr, deopts, gcs, gcPause, safepoints, safepointNanos, process,
                    details);
        }
    }
}
