package io.rdmaffm.perftest.doctor;

import io.rdmaffm.verbs.topology.SysfsRdmaDevice;
import io.rdmaffm.verbs.topology.Topology;

import java.util.ArrayList;
import java.util.List;

/**
 * Everything the doctor found: the devices examined, GPU choices, the check results, optional counter
 * deltas and problems that belong to no check.
 *
 * @param topology the snapshot examined
 * @param devices  the devices reported on (after {@code --device})
 * @param gpus     each GPU with its nearest NIC
 * @param results  the check results, in report order
 * @param counters counter deltas, or {@code null} when not sampled
 * @param problems host-level problems (no RDMA devices, unreadable directories)
 */
public record DoctorReport(Topology topology, List<SysfsRdmaDevice> devices, List<Doctor.GpuChoice> gpus,
                           List<CheckResult> results, CounterDeltas counters, List<String> problems) {

    /**
     * @param topology topology
     * @param devices  devices
     * @param gpus     gpus
     * @param results  results
     * @param counters counters or null
     * @param problems problems
     */
    public DoctorReport {
        devices = List.copyOf(devices);
        gpus = List.copyOf(gpus);
        results = List.copyOf(results);
        problems = List.copyOf(problems);
    }

    /**
     * @param c counter deltas
     * @return this report with the counter deltas attached
     */
    public DoctorReport withCounters(CounterDeltas c) {
        return new DoctorReport(topology, devices, gpus, results, c, problems);
    }

    /**
     * The devices on which no check could be made: every (non-advisory) result for them is N/A, so their OK
     * would be a pass nothing measured.
     *
     * @return their names, in report order
     */
    public List<String> unchecked() {
        List<String> out = new ArrayList<>();
        for (SysfsRdmaDevice d : devices) {
            boolean measured = false;
            for (CheckResult r : results) {
                if (d.name().equals(r.device()) && !r.advisory() && r.verdict() != Verdict.NA) {
                    measured = true;
                }
            }
            if (!measured) {
                out.add(d.name());
            }
        }
        return out;
    }

    /**
     * @return the worst verdict; {@link Verdict#NA} counts as fine and advisory checks never raise it, but a
     *         device on which nothing could be checked ({@link #unchecked()}) makes it at least WARN
     */
    public Verdict worst() {
        Verdict w = unchecked().isEmpty() ? Verdict.OK : Verdict.WARN;
        for (CheckResult r : results) {
            if (!r.advisory() && r.verdict().compareTo(w) > 0) {
                w = r.verdict();
            }
        }
        return w;
    }

    /** @return 0 when all is OK or N/A, 1 when the worst is WARN (or a device was not checked), 2 on any FAIL */
    public int exitCode() {
        return worst().exitCode();
    }

    /**
     * @param v a verdict
     * @return how many results have it
     */
    public long count(Verdict v) {
        return results.stream().filter(r -> r.verdict() == v).count();
    }
}
