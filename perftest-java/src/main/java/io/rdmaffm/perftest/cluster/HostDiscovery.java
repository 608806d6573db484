package io.rdmaffm.perftest.cluster;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the matrix asks every host before it plans: its RDMA devices (when {@code --device} is not given: pairs
 * are per NIC, rail i = device i in name order) and each device's expected rate (for
 * {@code --min-percent-of-link}). Each host answers with its own {@code rdma-perftest doctor --json}, launched
 * exactly like the tests (ssh or srun), all hosts at once within {@code --max-connections}. A host without
 * perftest-java (C perftest only, {@code --peer c}) is read from sysfs by the script itself: devices and port
 * rates, no PCIe model.
 *
 * <p>A host that cannot be asked (unreachable, no answer in time) is not an input error: it keeps the tool's
 * default device, and its row of the matrix says what fails there, while the other pairs still run.
 */
public final class HostDiscovery {
    /** Printed before the doctor's JSON. */
    static final String DOCTOR_MARK = "@rdma-matrix doctor";
    /** Printed before the sysfs lines ({@code device|state|rate}) of a host without perftest-java. */
    static final String SYSFS_MARK = "@rdma-matrix sysfs";
    private static final Pattern RATE = Pattern.compile("^\\s*([0-9]+(?:\\.[0-9]+)?)\\s*Gb/sec");

    private HostDiscovery() {
    }

    /**
     * One RDMA device of a host, as its port 1 (the port the tools use by default) and PCIe link report it.
     *
     * @param device    e.g. mlx5_0
     * @param state     port 1's state, e.g. ACTIVE; null when unknown
     * @param portGbps  port 1's rate, null when unknown
     * @param pcieGbps  this port's share of the modelled PCIe payload throughput (doctor's {@code pcie-bandwidth}
     *                  modelGbps, shared in proportion to the rates of the active ports on the same link); null
     *                  when unknown or not applicable (virtual devices)
     * @param pci       the PCI function, null when none or unknown
     * @param firmware  the firmware version, null when unknown
     */
    public record Nic(String device, String state, Double portGbps, Double pcieGbps, String pci, String firmware) {
        /** Whether the tools can use it: port 1 is ACTIVE. */
        public boolean active() {
            return "ACTIVE".equals(state);
        }

        /** The smaller of the port rate and the PCIe share, null when neither is known. */
        public Double expectedGbps() {
            if (portGbps == null) {
                return pcieGbps;
            }
            return pcieGbps == null ? portGbps : Math.min(portGbps, pcieGbps);
        }

        /** E.g. "mlx5_0 ACTIVE, port 400 Gb/s, PCIe 451.2 Gb/s: expect 400 Gb/s". */
        public String describe() {
            Double e = expectedGbps();
            return device + " " + (state == null ? "state unknown" : state) + ", port " + gbps(portGbps) + ", PCIe "
                    + (pcieGbps == null ? "n/a" : gbps(pcieGbps)) + (e == null ? "" : ": expect " + gbps(e));
        }
    }

    /**
     * What one host said.
     *
     * @param host    the host
     * @param source  "doctor", "sysfs", or null when it could not be asked
     * @param nics    its devices, in name order
     * @param problem why it could not be asked, else null
     */
    public record HostInfo(String host, String source, List<Nic> nics, String problem) {
        /** The devices whose port 1 is active, in name order. */
        public List<String> activeDevices() {
            return nics.stream().filter(Nic::active).map(Nic::device).toList();
        }
    }

    /**
     * The script a host runs: perftest-java's doctor when it is there, else its own reading of sysfs.
     *
     * @param doctor perftest-java's launcher (a name on PATH or a path)
     */
    static String script(String doctor) {
        String d = Names.quote(doctor);
        return "if command -v " + d + " >/dev/null 2>&1; then\n"
                + "  echo '" + DOCTOR_MARK + "'\n"
                + "  " + d + " doctor --json\n"
                + "  exit 0\n"
                + "fi\n"
                + "echo '" + SYSFS_MARK + "'\n"
                + "for p in /sys/class/infiniband/*/ports/1; do\n"
                + "  [ -d \"$p\" ] || continue\n"
                + "  d=${p%/ports/1}\n"
                + "  echo \"${d##*/}|$(cat \"$p/state\" 2>/dev/null)|$(cat \"$p/rate\" 2>/dev/null)\"\n"
                + "done\n"
                + "exit 0";
    }

    /**
     * Asks every host at once (at most {@code o.maxConnections()} launcher processes), each bounded by the listen
     * timeout plus the connect timeout (one JVM start, like a server's).
     *
     * @return each host's answer, in the order of {@code hosts}
     */
    public static Map<String, HostInfo> discover(List<String> hosts, MatrixRequest o, Launcher launcher,
            ProcessRunner runner) throws InterruptedException {
        String doctor = o.peer() == MatrixRequest.Peer.JAVA && o.toolPath() != null ? o.toolPath() : "rdma-perftest";
        String script = script(doctor);
        Duration timeout = o.listenTimeout().plusSeconds(o.connectTimeoutSeconds());
        Semaphore slots = new Semaphore(Math.max(1, o.maxConnections()), true);
        Map<String, Future<HostInfo>> futures = new LinkedHashMap<>();
        try (ExecutorService ex = Executors.newVirtualThreadPerTaskExecutor()) {
            for (String h : hosts) {
                futures.put(h, ex.submit(() -> {
                    slots.acquire();
                    try {
                        return ask(h, script, timeout, launcher, runner);
                    } finally {
                        slots.release();
                    }
                }));
            }
            Map<String, HostInfo> out = new LinkedHashMap<>();
            for (Map.Entry<String, Future<HostInfo>> e : futures.entrySet()) {
                try {
                    out.put(e.getKey(), e.getValue().get());
                } catch (ExecutionException failed) {
                    out.put(e.getKey(), new HostInfo(e.getKey(), null, List.of(), "could not be asked: "
                            + failed.getCause()));
                }
            }
            return out;
        }
    }

    private static HostInfo ask(String host, String script, Duration timeout, Launcher launcher, ProcessRunner runner)
            throws InterruptedException {
        ProcessRunner.Finished f;
        try {
            f = runner.run(launcher.command(host, script), timeout);
        } catch (IOException e) {
            return new HostInfo(host, null, List.of(), "cannot start " + launcher.name() + ": " + e.getMessage());
        }
        if (f.timedOut()) {
            return new HostInfo(host, null, List.of(), "no answer within " + MatrixPlan.human(timeout));
        }
        return parse(host, f, launcher.name());
    }

    /** A host's answer from what its script printed. */
    static HostInfo parse(String host, ProcessRunner.Finished f, String launcher) {
        String out = f.stdout();
        int doctor = out.indexOf(DOCTOR_MARK + "\n");
        int sysfs = out.indexOf(SYSFS_MARK + "\n");
        if (doctor < 0 && sysfs < 0) {
            String why = ToolOutput.lastLine(f.stderr());
            return new HostInfo(host, null, List.of(), launcher + " to " + host + " failed (exit " + f.exitCode()
                    + ")" + (why.isEmpty() ? "" : ": " + why));
        }
        if (doctor >= 0) {
            String doc = out.substring(doctor + DOCTOR_MARK.length() + 1).strip();
            List<Nic> nics = DoctorNics.read(doc);
            if (nics == null) {
                String why = ToolOutput.lastLine(f.stderr());
                return new HostInfo(host, "doctor", List.of(), "rdma-perftest doctor --json gave no report"
                        + (why.isEmpty() ? "" : ": " + why));
            }
            return new HostInfo(host, "doctor", nics, null);
        }
        List<Nic> nics = new ArrayList<>();
        for (String line : out.substring(sysfs + SYSFS_MARK.length() + 1).split("\n")) {
            String[] f3 = line.split("\\|", -1);
            if (f3.length == 3 && !f3[0].isBlank()) {
                String state = f3[1].contains(":") ? f3[1].substring(f3[1].indexOf(':') + 1).strip() : f3[1].strip();
                Matcher m = RATE.matcher(f3[2]);
                nics.add(new Nic(f3[0].strip(), state.isEmpty() ? null : state,
                        m.find() ? Double.valueOf(m.group(1)) : null, null, null, null));
            }
        }
        return new HostInfo(host, "sysfs", List.copyOf(nics), null);
    }

    /**
     * The hosts with their answers: each host's active devices (only when {@code --device} was not given), the
     * expected rate of each of those, the answers themselves (for the JSON's provenance), and what the user
     * should know (hosts not asked, devices left out).
     */
    public static DiscoveredHosts apply(MatrixRequest o, HostInput.Hosts hosts, Map<String, HostInfo> found) {
        List<String> notes = new ArrayList<>();
        Map<String, List<String>> devices = new LinkedHashMap<>();
        Map<String, Double> rates = new LinkedHashMap<>();
        for (HostInfo h : found.values()) {
            if (h.problem() != null) {
                notes.add(h.host() + ": " + h.problem() + "; its tests will say what fails there");
                continue;
            }
            List<String> inactive = h.nics().stream().filter(n -> !n.active())
                    .map(n -> n.device() + " (" + (n.state() == null ? "state unknown" : n.state()) + ")").toList();
            if (!inactive.isEmpty()) {
                notes.add(h.host() + ": left out " + String.join(", ", inactive) + ": port 1 not ACTIVE");
            }
            if (h.activeDevices().isEmpty()) {
                notes.add(h.host() + ": no RDMA device with an ACTIVE port 1 (" + h.source() + "):"
                        + " tested on the tool's default device");
            }
            List<String> unknown = new ArrayList<>();
            for (Nic n : h.nics()) {
                if (!n.active()) {
                    continue;
                }
                if (n.expectedGbps() != null && n.expectedGbps() > 0) {
                    rates.put(h.host() + "/" + n.device(), n.expectedGbps());
                } else {
                    unknown.add(n.device());
                }
            }
            if (!unknown.isEmpty() && !Double.isNaN(o.minPercentOfLink())) {
                notes.add(h.host() + ": no expected rate for " + String.join(", ", unknown)
                        + ": --min-percent-of-link does not judge its pairs");
            }
            if (o.devices().isEmpty()) {
                devices.put(h.host(), h.activeDevices());
            }
        }
        return new DiscoveredHosts(hosts, devices, rates, found, notes);
    }

    static String gbps(Double v) {
        if (v == null) {
            return "?";
        }
        String s = String.format(Locale.ROOT, "%.1f", v);
        return (s.endsWith(".0") ? s.substring(0, s.length() - 2) : s) + " Gb/s";
    }
}
