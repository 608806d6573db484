package io.rdmaffm.perftest.report;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * Where and how a run ran, for the run document's {@code environment} (docs/run-json.md): enough to tell two
 * runs' hosts, kernels and JVM settings apart when their figures differ.
 *
 * @param host        the host name
 * @param kernel      the kernel release ({@code os.version})
 * @param cpuModel    {@code model name} of the first CPU, or null
 * @param cpus        CPUs available to the JVM
 * @param javaVersion {@code java.runtime.version}
 * @param jvm         {@code java.vm.name}
 * @param jvmFlags    the JVM's input arguments
 * @param toolVersion perftest-java's version
 * @param toolCommit  the git commit it was built from, or null when unknown ({@link BuildInfo})
 * @param toolDirty   whether that build's tree differed from the commit, or null when unknown
 * @param date        the start of the run (UTC, whole seconds)
 * @param clock       what timed the measured loops, e.g. "cycle counter at 2.100000 GHz" or "System.nanoTime"
 */
public record Environment(String host, String kernel, String cpuModel, int cpus, String javaVersion, String jvm,
                          List<String> jvmFlags, String toolVersion, String toolCommit, Boolean toolDirty,
                          Instant date, String clock) {

    public Environment {
        jvmFlags = List.copyOf(jvmFlags);
    }

    /** This JVM's environment, dated {@code start}, its loops timed by {@code clock}. */
    public static Environment capture(Instant start, String clock) {
        BuildInfo build = BuildInfo.CURRENT;
        return new Environment(hostName(), System.getProperty("os.version"), readCpuModel(),
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.runtime.version"),
                System.getProperty("java.vm.name"), ManagementFactory.getRuntimeMXBean().getInputArguments(),
                build.version(), build.commit(), build.dirty(), start.truncatedTo(ChronoUnit.SECONDS), clock);
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            String env = System.getenv("HOSTNAME");
            return env == null ? "unknown" : env;
        }
    }

    private static String readCpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    int colon = line.indexOf(':');
                    return colon < 0 ? null : line.substring(colon + 1).strip();
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or /proc not mounted: unknown
        }
        return null;
    }
}
