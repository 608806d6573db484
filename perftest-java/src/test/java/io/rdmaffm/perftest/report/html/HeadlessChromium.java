package io.rdmaffm.perftest.report.html;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Debian's {@code chromium} run headless on a local file, bounded in time: {@code --dump-dom} (the DOM after the
 * load event) with its log on stderr, where the page's console messages appear as {@code :CONSOLE} lines, or
 * {@code --screenshot}. A private profile directory per run; the whole process tree is killed on timeout.
 */
final class HeadlessChromium {
    private static final String[] NAMES = {"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"};
    private static final long TIMEOUT_S = 180;

    /** What one run printed. */
    record Output(String stdout, String log) {

        /** The page's console messages, one per line, as Chromium logged them. */
        List<String> consoleLines() {
            return log.lines().filter(l -> l.contains(":CONSOLE:") || l.contains(":CONSOLE(")).toList();
        }
    }

    private final Path binary;
    private final Path work;

    private HeadlessChromium(Path binary, Path work) {
        this.binary = binary;
        this.work = work;
    }

    /**
     * @param work where profiles and logs go
     * @return Chromium from {@code -Dreport.chromium}, {@code $CHROMIUM} or the PATH; null when there is none
     */
    static HeadlessChromium find(Path work) {
        String configured = System.getProperty("report.chromium", System.getenv("CHROMIUM"));
        if (configured != null && !configured.isBlank()) {
            Path p = Path.of(configured);
            return Files.isExecutable(p) ? new HeadlessChromium(p, work) : null;
        }
        String path = System.getenv("PATH");
        for (String name : NAMES) {
            for (String dir : path == null ? new String[0] : path.split(File.pathSeparator)) {
                Path p = Path.of(dir, name);
                if (Files.isExecutable(p)) {
                    return new HeadlessChromium(p, work);
                }
            }
        }
        return null;
    }

    Path binary() {
        return binary;
    }

    /** The DOM of {@code page} after load, at this window size, with the log. */
    Output dumpDom(Path page, String name, int width, int height) throws IOException, InterruptedException {
        return run(name, List.of("--window-size=" + width + "," + height, "--virtual-time-budget=3000",
                "--dump-dom", page.toUri().toString()));
    }

    /** A PNG of {@code page}'s first {@code height} pixels at this width. */
    Output screenshot(Path page, Path png, int width, int height) throws IOException, InterruptedException {
        return run(png.getFileName().toString(), List.of("--window-size=" + width + "," + height,
                "--hide-scrollbars", "--screenshot=" + png.toAbsolutePath(), page.toUri().toString()));
    }

    private Output run(String name, List<String> args) throws IOException, InterruptedException {
        Path profile = Files.createDirectories(work.resolve("profile-" + name));
        Path out = work.resolve(name + ".stdout");
        Path log = work.resolve(name + ".log");
        List<String> cmd = new ArrayList<>(List.of(binary.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-dev-shm-usage", "--no-first-run", "--user-data-dir=" + profile.toAbsolutePath(),
                "--enable-logging=stderr", "--v=0"));
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(log.toFile()).start();
        if (!p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new AssertionError(binary + " did not finish in " + TIMEOUT_S + " s; log: " + log);
        }
        if (p.exitValue() != 0) {
            throw new AssertionError(binary + " exited with " + p.exitValue() + "; log: " + log);
        }
        return new Output(Files.readString(out), Files.readString(log));
    }
}
