package io.rdmaffm.verbs.connect;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import javax.management.ObjectName;

/**
 * What the virtual-thread scheduler's carriers (the "ForkJoinPool-N-worker-M" platform threads) did, for
 * {@link VirtualThreadStress}: their CPU time, user and system, beside the wall time and the whole JVM's CPU time,
 * and the JVM's CPU time by thread group (JIT and GC threads included). A carrier busy in the kernel shows as system
 * time near the wall time; a carrier that is not scheduled (the VM's CPUs taken by other threads or by the host)
 * shows as little CPU time of any kind while virtual threads wait. Read from /proc/self/task every second by the
 * stress's watchdog (no thread is stopped for it); a stall reports the last 2 s; {@link #dump} writes the JDK's
 * JSON thread dump (which virtual thread is mounted on which carrier, and where) to {@code -Dstress.dumpDir}.
 */
final class Carriers {
    /** Ring of samples: wall, carriers' CPU, carriers' user, process CPU, driver CPU (ns). */
    private static final long[][] RING = new long[8][];
    private static int next;
    private static long calls;
    private static long[] first;
    /** Per thread id: its name (comm, 15 characters) and the most CPU time seen (user + system, clock ticks). */
    private static final Map<Integer, Object[]> TASKS = new java.util.HashMap<>();
    private static final Map<Integer, Object[]> BASE = new java.util.HashMap<>();

    private Carriers() {
    }

    /**
     * One read of /proc/self/task: every thread's CPU time into {@code into} (the largest seen, so threads that end
     * keep theirs), and the sums for the carriers (the scheduler's "ForkJoinPool-N", not the common pool's
     * "ForkJoinPool.commonPool") and the device driver.
     */
    private static long[] now(long wall, Map<Integer, Object[]> into) {
        long[] sums = new long[3]; // carriers' ticks, carriers' user ticks, driver's ticks
        try (var dirs = Files.list(Path.of("/proc/self/task"))) {
            for (Path p : (Iterable<Path>) dirs::iterator) {
                String stat;
                try {
                    stat = Files.readString(p.resolve("stat"));
                } catch (java.io.IOException gone) {
                    continue;
                }
                int open = stat.indexOf('(');
                int close = stat.lastIndexOf(')');
                String comm = stat.substring(open + 1, close);
                String[] f = stat.substring(close + 2).split(" ");
                long user = Long.parseLong(f[11]); // utime, stime: fields 14 and 15 of proc(5)'s stat
                long ticks = user + Long.parseLong(f[12]);
                if (comm.startsWith("ForkJoinPool-")) {
                    sums[0] += ticks;
                    sums[1] += user;
                } else if (comm.startsWith(DeviceDriver.THREAD_PREFIX)) {
                    sums[2] += ticks;
                }
                int tid = Integer.parseInt(p.getFileName().toString());
                Object[] old = into.get(tid);
                if (old == null || (long) old[1] < ticks) {
                    into.put(tid, new Object[] {comm, ticks});
                }
            }
        } catch (java.io.IOException e) {
            // no /proc: zeros
        }
        long process = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
        return new long[] {wall, sums[0] * 10_000_000L, sums[1] * 10_000_000L, process, sums[2] * 10_000_000L};
    }

    static synchronized void mark() {
        TASKS.clear();
        BASE.clear();
        first = now(System.nanoTime(), BASE);
    }

    /** Called every 500 ms; reads every second. */
    static synchronized void sample(long wall) {
        if (++calls % 2 == 0) {
            RING[next++ % RING.length] = now(wall, TASKS);
        }
    }

    /** Over the last ~2 s of samples. */
    static synchronized String recent(long wall) {
        long[] last = RING[(next - 1 + RING.length) % RING.length];
        long[] back = RING[(next - 3 + 2 * RING.length) % RING.length];
        if (last == null || back == null) {
            return "(too few samples)";
        }
        return describe(back, last);
    }

    /** Since {@link #mark}. */
    static synchronized String total(long unused) {
        return "carriers over the run: " + (first == null ? "(not marked)" : describe(first, now(System.nanoTime(), TASKS)));
    }

    /** CPU seconds by thread group (the name with its digits dropped) since {@link #mark}, the largest first. */
    static synchronized String byThread() {
        now(System.nanoTime(), TASKS);
        Map<String, long[]> groups = new TreeMap<>();
        for (var e : TASKS.entrySet()) {
            Object[] v = e.getValue();
            Object[] b = BASE.get(e.getKey());
            long ticks = (long) v[1] - (b == null ? 0 : (long) b[1]);
            String g = ((String) v[0]).replaceAll("[0-9]+", "N").strip();
            long[] a = groups.computeIfAbsent(g, k -> new long[2]);
            a[0] += ticks;
            a[1]++;
        }
        List<Map.Entry<String, long[]>> sorted = new ArrayList<>(groups.entrySet());
        sorted.sort((x, y) -> Long.compare(y.getValue()[0], x.getValue()[0]));
        StringBuilder sb = new StringBuilder("CPU by thread group over the run (s, threads):");
        for (int i = 0; i < Math.min(14, sorted.size()); i++) {
            var e = sorted.get(i);
            sb.append(String.format(" %s %.1f (%d);", e.getKey(), e.getValue()[0] / 100.0, e.getValue()[1]));
        }
        return sb.toString();
    }

    private static String describe(long[] a, long[] b) {
        double wall = (b[0] - a[0]) / 1e6;
        double cpu = (b[1] - a[1]) / 1e6;
        double user = (b[2] - a[2]) / 1e6;
        return String.format("wall %.0f ms; carriers' CPU %.0f ms (user %.0f, system %.0f); the JVM's CPU %.0f ms; "
                        + "device driver's CPU %.0f ms", wall, cpu, user, cpu - user, (b[3] - a[3]) / 1e6,
                (b[4] - a[4]) / 1e6);
    }

    /**
     * The JDK's JSON thread dump to {@code stress.dumpDir} (jcmd Thread.dump_to_file, through its MBean), and from
     * it the virtual threads mounted on a carrier: name and first frames. Empty when no directory is given.
     */
    static String dump(int n) {
        String dir = System.getProperty("stress.dumpDir");
        if (dir == null || dir.isEmpty()) {
            return "";
        }
        try {
            Path file = Path.of(dir, "stall-" + ProcessHandle.current().pid() + "-" + n + ".json");
            Files.createDirectories(file.getParent());
            Files.deleteIfExists(file);
            ManagementFactory.getPlatformMBeanServer().invoke(new ObjectName("com.sun.management:type=DiagnosticCommand"),
                    "threadDumpToFile", new Object[] {new String[] {"-format=json", file.toString()}},
                    new String[] {String[].class.getName()});
            return "; mounted: " + mounted(Files.readString(file)) + "; dump " + file;
        } catch (Exception e) {
            return "; thread dump failed: " + e;
        }
    }

    /** The mounted virtual threads of a JSON thread dump: those with a "carrier", and their first 3 frames. */
    private static String mounted(String json) {
        List<String> out = new ArrayList<>();
        Map<String, Integer> unmountedRunnable = new TreeMap<>();
        for (String obj : json.split("\\{\\s*\"tid\"")) {
            boolean virtual = obj.contains("\"virtual\": true");
            if (!virtual) {
                continue;
            }
            String name = field(obj, "name");
            String state = field(obj, "state");
            int st = obj.indexOf("\"stack\"");
            String frames = st < 0 ? "" : obj.substring(st, Math.min(obj.length(), st + 400)).replaceAll("\\s+", " ");
            if (obj.contains("\"carrier\"")) {
                out.add(name + " [" + state + "] " + frames);
            } else if ("RUNNABLE".equals(state)) {
                unmountedRunnable.merge(firstFrame(obj), 1, Integer::sum);
            }
        }
        return out + "; runnable, not mounted, by top frame: " + unmountedRunnable;
    }

    private static String firstFrame(String obj) {
        int st = obj.indexOf("\"stack\"");
        if (st < 0) {
            return "?";
        }
        int q = obj.indexOf('"', obj.indexOf('[', st) + 1);
        int e = q < 0 ? -1 : obj.indexOf('"', q + 1);
        return q < 0 || e < 0 ? "?" : obj.substring(q + 1, e);
    }

    private static String field(String obj, String key) {
        int k = obj.indexOf("\"" + key + "\"");
        if (k < 0) {
            return "?";
        }
        int q = obj.indexOf('"', obj.indexOf(':', k) + 1);
        int e = obj.indexOf('"', q + 1);
        return q < 0 || e < 0 ? "?" : obj.substring(q + 1, e);
    }
}
