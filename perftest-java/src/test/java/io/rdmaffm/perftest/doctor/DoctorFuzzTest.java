package io.rdmaffm.perftest.doctor;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.rdmaffm.perftest.cli.Main;
import io.rdmaffm.perftest.faults.FaultRecords;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.RandomAccessFile;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * doctor on sysfs trees broken by a seeded generator: each starts as one of the fixture hosts
 * (H100, A100, ConnectX-7 in a Gen4 slot, Soft-RoCE, an old kernel, ...) and gets 1 to 12 faults: garbage
 * (random bytes, terminal control sequences, endless lines), truncation, an empty file, a file where a
 * directory was and the reverse, a missing entry, symbolic link loops (to itself, in pairs, to an ancestor),
 * links leading out of the root, a 4 GiB sparse file, a named pipe (which would block a reader forever). Every
 * run of {@code doctor --sysfs-root} (human and {@code --json}) must end within 60 s (a blocked open never
 * ends; a starved CPU has taken 20 s for one run) with no error line, exit status 0, 1 or 2, printable output,
 * valid JSON, and a reason for every N/A.
 *
 * <p>{@code -Dfuzz.seed}, {@code -Dfuzz.trees} (default 100 trees, each ~0.5 s; 1,000 under
 * {@code -Dfaults.full=true}, as scripts/faults-full.sh runs it) and {@code -Dfuzz.tree=I} (replay one).
 */
class DoctorFuzzTest {
    private static final String HANG = "did not end within 60 s (hang)";
    private static final String[] GARBAGE = {"", "\n", "\u001b[2J\u001b]0;pwned\u0007", "-1", "99999999999999999999",
        "4: ACTIVE\u0000junk", "NaN", "0x", ":::::", "16.0 GT/s PCIe\r\nx", "\u202eevil", "Unknown", "255",
        "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "-2147483648", "1e308 Gb/sec (4X EDR)", "   ", "\t\t"};

    @TempDir
    Path dir;

    private final ExecutorService pool = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "doctor");
        t.setDaemon(true);
        return t;
    });

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    private static final List<Function<Path, SysfsFixture>> HOSTS = List.of(Hosts::h100, Hosts::a100,
            Hosts::cx7InGen4Slot, Hosts::x8InX16, Hosts::dualPort100gGen3, Hosts::roceMtu1500, Hosts::rxe,
            Hosts::oldKernel);

    @Test
    void brokenTreesGiveReasonsNeverACrashOrHang() throws Exception {
        long seed = Long.getLong("fuzz.seed", 14);
        int trees = FaultRecords.count("fuzz.trees", 100, 1000);
        Integer only = Integer.getInteger("fuzz.tree");
        FaultRecords records = FaultRecords.open("doctor-fuzz");
        List<Path> templates = new ArrayList<>();
        for (int h = 0; h < HOSTS.size(); h++) {
            templates.add(HOSTS.get(h).apply(dir.resolve("template" + h)).root());
        }
        List<String> failures = new ArrayList<>();
        Map<String, Integer> faults = new TreeMap<>();
        int[] naWithReason = new int[1];
        double slowest = 0;
        long t0 = System.nanoTime();
        int ran = 0;
        for (int i = only == null ? 0 : only; i < (only == null ? trees : only + 1); i++) {
            SplittableRandom r = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + i);
            Path root = dir.resolve("tree");
            delete(root);
            copy(templates.get(r.nextInt(templates.size())), root);
            List<String> done = mutate(root, r);
            for (String d : done) {
                faults.merge(d.substring(0, d.indexOf(':')), 1, Integer::sum);
            }
            for (boolean json : new boolean[] {false, true}) {
                long s0 = System.nanoTime();
                String problem = check(root, json, naWithReason);
                slowest = Math.max(slowest, (System.nanoTime() - s0) / 1e9);
                if (problem != null) {
                    failures.add("tree " + i + (json ? " --json" : "") + " " + done + ": " + problem);
                }
            }
            ran++;
            if (failures.stream().anyMatch(f -> f.endsWith(HANG))) {
                break; // the blocked doctor thread holds the only worker: every later run would time out too
            }
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        System.out.printf(Locale.ROOT, "doctor fuzz, seed %d: %d trees in %.1f s, slowest run %.2f s, %d N/A with "
                + "reasons, %d failures; faults applied: %s%n", seed, ran, seconds, slowest, naWithReason[0],
                failures.size(), faults);
        records.add("doctor on broken sysfs trees (fuzzer)", ran + " trees, seed " + seed,
                failures.isEmpty() ? "each ended with verdicts, N/A with reasons" : failures.size() + " FAILED",
                slowest, -1, "", String.format(Locale.ROOT, "%.0f s for all; faults %s", seconds, faults));
        if (!failures.isEmpty()) {
            fail(failures.size() + " doctor runs went wrong; the first ones:\n"
                    + String.join("\n", failures.subList(0, Math.min(10, failures.size()))));
        }
        if (only == null) {
            assertTrue(ran == trees, "trees: " + ran);
            for (String kind : List.of("garbage", "truncated", "loop", "huge", "fifo", "swap", "missing", "outside")) {
                assertTrue(faults.getOrDefault(kind, 0) > 0, "no tree got a " + kind + " fault: " + faults);
            }
        }
    }

    /** Runs doctor on {@code root}; null when all is well, else what went wrong. */
    private String check(Path root, boolean json, int[] naWithReason) throws Exception {
        Future<String[]> f = pool.submit(() -> {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            CommandLine cl = Main.commandLine();
            cl.setOut(new PrintWriter(out, true));
            cl.setErr(new PrintWriter(err, true));
            int code = json ? cl.execute("doctor", "--json", "--sysfs-root", root.toString())
                    : cl.execute("doctor", "--sysfs-root", root.toString());
            return new String[] {Integer.toString(code), out.toString(), err.toString()};
        });
        String[] r;
        try {
            r = f.get(60, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            f.cancel(true);
            return HANG;
        }
        int code = Integer.parseInt(r[0]);
        if (code < 0 || code > 2) {
            return "exit status " + code;
        }
        if (!r[2].isEmpty()) {
            return "stderr: " + r[2].strip();
        }
        String bad = unprintable(r[1]);
        if (bad != null) {
            return "printed " + bad;
        }
        if (json) {
            Object doc;
            try {
                doc = Json.parse(r[1]);
            } catch (RuntimeException e) {
                return "invalid JSON: " + e.getMessage();
            }
            for (Object c : (List<?>) ((Map<?, ?>) doc).get("checks")) {
                Map<?, ?> check = (Map<?, ?>) c;
                if ("N/A".equals(check.get("verdict"))) {
                    Object reason = check.get("reason");
                    if (!(reason instanceof String s) || s.isBlank()) {
                        return "N/A without a reason: " + check;
                    }
                    naWithReason[0]++;
                }
            }
        }
        return null;
    }

    private static String unprintable(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if ((c < 0x20 && c != '\n' && c != '\t') || (c >= 0x7f && c < 0xa0) || (c >= 0x202a && c <= 0x202e)) {
                return "char " + (int) c + " near '" + s.substring(Math.max(0, i - 40), i) + "'";
            }
        }
        return null;
    }

    /** Applies 1 to 12 faults to entries of the tree; returns "kind: path" for each. */
    private static List<String> mutate(Path root, SplittableRandom r) throws IOException {
        List<Path> entries = new ArrayList<>();
        try (Stream<Path> s = Files.walk(root)) {
            s.filter(p -> !p.equals(root)).forEach(entries::add);
        }
        List<String> done = new ArrayList<>();
        int n = 1 + r.nextInt(12);
        for (int k = 0; k < n && !entries.isEmpty(); k++) {
            Path p = entries.get(r.nextInt(entries.size()));
            if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS) || !insideThroughDirectories(root, p)) {
                continue;
            }
            String rel = root.relativize(p).toString();
            try {
                done.add(fault(root, p, r) + ": " + rel);
            } catch (java.nio.file.NoSuchFileException e) {
                // an earlier fault of this tree removed what this one needed: the tree gets one fault less
            }
        }
        return done;
    }

    private static String fault(Path root, Path p, SplittableRandom r) throws IOException {
        boolean file = Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS);
        switch (r.nextInt(10)) {
            case 0, 1 -> {
                replace(p);
                byte[] junk;
                if (r.nextBoolean()) {
                    junk = GARBAGE[r.nextInt(GARBAGE.length)].getBytes(StandardCharsets.UTF_8);
                } else {
                    junk = new byte[r.nextInt(r.nextInt(10) == 0 ? 200_000 : 300)];
                    r.nextBytes(junk);
                }
                Files.write(p, junk);
                return "garbage";
            }
            case 2 -> {
                if (file) {
                    // by length, not by reading: an earlier fault may have made it the 4 GiB file
                    long size = Files.size(p);
                    try (RandomAccessFile f = new RandomAccessFile(p.toFile(), "rw")) {
                        f.setLength(size == 0 ? 0 : r.nextLong(size));
                    }
                } else {
                    replace(p);
                    Files.write(p, new byte[0]);
                }
                return "truncated";
            }
            case 3 -> {
                replace(p);
                switch (r.nextInt(3)) {
                    case 0 -> Files.createSymbolicLink(p, p.getFileName());
                    case 1 -> {
                        Path other = p.resolveSibling(p.getFileName() + ".loop");
                        replace(other);
                        Files.createSymbolicLink(other, p.getFileName());
                        Files.createSymbolicLink(p, other.getFileName());
                    }
                    default -> Files.createSymbolicLink(p, p.getParent().relativize(root.resolve("sys")));
                }
                return "loop";
            }
            case 4 -> {
                replace(p);
                try (RandomAccessFile f = new RandomAccessFile(p.toFile(), "rw")) {
                    f.setLength(4L << 30);
                }
                return "huge";
            }
            case 5 -> {
                replace(p);
                Process mk = new ProcessBuilder("mkfifo", p.toString()).redirectErrorStream(true).start();
                try {
                    if (!mk.waitFor(10, TimeUnit.SECONDS) || mk.exitValue() != 0) {
                        throw new IOException("mkfifo " + p + " failed");
                    }
                } catch (InterruptedException e) {
                    throw new IOException(e);
                }
                return "fifo";
            }
            case 6 -> {
                replace(p);
                if (file) {
                    Files.createDirectories(p.resolve("x"));
                } else {
                    Files.writeString(p, "a file where a directory was");
                }
                return "swap";
            }
            case 7 -> {
                replace(p);
                return "missing";
            }
            case 8 -> {
                replace(p);
                Files.createSymbolicLink(p, Path.of(r.nextBoolean() ? "/proc/self" : "/dev/zero"));
                return "outside";
            }
            default -> {
                replace(p);
                Files.createDirectories(p);
                for (int i = 0; i < 3; i++) {
                    Files.write(p.resolve("\u001b[31m" + i + "\n"), GARBAGE[r.nextInt(GARBAGE.length)]
                            .getBytes(StandardCharsets.UTF_8));
                }
                return "garbage";
            }
        }
    }

    /**
     * Whether {@code p}'s parent is reached from {@code root} through real directories only: an earlier fault
     * may have turned an ancestor into a link (to /proc/self, to itself), and a fault applied through it would
     * change something outside the tree or fail.
     */
    private static boolean insideThroughDirectories(Path root, Path p) {
        try {
            Path parent = p.getParent();
            return parent.toRealPath().equals(root.toRealPath().resolve(root.relativize(parent)));
        } catch (IOException e) {
            return false;
        }
    }

    /** Removes whatever is at {@code p} (a file, a link, a whole directory). */
    private static void replace(Path p) throws IOException {
        if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
            delete(p);
        } else {
            Files.deleteIfExists(p);
        }
    }

    private static void delete(Path p) throws IOException {
        if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> s = Files.walk(p)) {
            for (Path q : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(q);
            }
        }
    }

    private static void copy(Path from, Path to) throws IOException {
        Files.walkFileTree(from, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes a) throws IOException {
                Files.createDirectories(to.resolve(from.relativize(d)));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path f, BasicFileAttributes a) throws IOException {
                Path target = to.resolve(from.relativize(f));
                if (a.isSymbolicLink()) {
                    Files.createSymbolicLink(target, Files.readSymbolicLink(f));
                } else {
                    Files.copy(f, target);
                }
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
