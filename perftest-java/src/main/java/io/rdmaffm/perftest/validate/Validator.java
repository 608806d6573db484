package io.rdmaffm.perftest.validate;

import io.rdmaffm.perftest.doctor.Verdict;
import io.rdmaffm.verbs.topology.RdmaPort;
import io.rdmaffm.verbs.topology.SysfsRdmaDevice;
import io.rdmaffm.verbs.topology.Topology;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code validate}'s judgement: every port (or the one asked for) measured by a {@link Loopback}, one direction
 * and both, each compared with the port's {@link Expectation} under {@link Thresholds}. A virtual port (rxe, siw)
 * has no PCIe expectation: a run that works is OK and flagged virtual, so the data path is still tested.
 */
public final class Validator {
    private Validator() {
    }

    /**
     * The ports to measure: every port of every device, or of {@code device} only, or just {@code port}.
     *
     * @throws IllegalArgumentException with one line when there is no RDMA device, the device is not there or
     *         has no such port
     */
    public static List<Expectation> ports(Topology topo, String device, Integer port, Path sysfsRoot) {
        if (topo.devices().isEmpty()) {
            String why = topo.devicesProblem() == null ? "" : " (" + topo.devicesProblem() + ")";
            throw new IllegalArgumentException("no RDMA device under " + topo.root().resolve("sys/class/infiniband")
                    + why);
        }
        List<Expectation> out = new ArrayList<>();
        for (SysfsRdmaDevice d : topo.devices()) {
            if (device != null && !device.equals(d.name())) {
                continue;
            }
            for (RdmaPort p : d.ports().orElse(List.of())) {
                if (port == null || port == p.number()) {
                    out.add(Expectation.read(d, p, sysfsRoot));
                }
            }
        }
        if (device != null && topo.device(device).isEmpty()) {
            throw new IllegalArgumentException("no RDMA device " + device + " (have: "
                    + String.join(", ", topo.devices().stream().map(SysfsRdmaDevice::name).toList()) + ")");
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no port " + port + (device == null ? " on any device" : " on " + device));
        }
        return out;
    }

    /** Whether sysfs says the port is ACTIVE; only those are measured. */
    static String inactive(Topology topo, Expectation e) {
        RdmaPort p = topo.device(e.device()).flatMap(d -> d.port(e.port())).orElse(null);
        if (p == null || !p.state().known()) {
            return "port state unknown: not measured";
        }
        return p.isActive() ? null : "port " + p.state().value().name() + ": not measured";
    }

    /**
     * Measures and judges each port in turn (one at a time: ports sharing a PCIe link would share it).
     *
     * @param topo   the sysfs snapshot the ports came from
     * @param ports  from {@link #ports}
     * @param limits the thresholds
     * @param loop   the runs
     * @return one result per port, in order
     */
    public static List<PortResult> validate(Topology topo, List<Expectation> ports, Thresholds limits, Loopback loop) {
        List<PortResult> out = new ArrayList<>();
        for (Expectation e : ports) {
            String skip = inactive(topo, e);
            if (skip != null) {
                out.add(new PortResult(e, List.of(), Verdict.NA, skip));
                continue;
            }
            List<PortResult.Test> tests = List.of(test(e, false, limits, loop), test(e, true, limits, loop));
            Verdict worst = Verdict.OK;
            for (PortResult.Test t : tests) {
                worst = t.verdict().compareTo(worst) > 0 ? t.verdict() : worst;
            }
            boolean nothingToCompare = !e.virtual() && e.expectedGbps() == null && worst == Verdict.OK;
            out.add(new PortResult(e, tests, nothingToCompare ? Verdict.NA : worst,
                    nothingToCompare ? "neither the port rate nor the PCIe link is known: nothing to compare with"
                            : null));
        }
        return out;
    }

    static PortResult.Test test(Expectation e, boolean bidirectional, Thresholds limits, Loopback loop) {
        String name = bidirectional ? "write_bw -b" : "write_bw";
        Measured m;
        try {
            m = loop.run(e, bidirectional);
        } catch (Exception ex) {
            String msg = ex.getMessage() == null ? ex.getClass().getSimpleName() : ex.getMessage();
            return new PortResult.Test(name, bidirectional, null, null, Verdict.FAIL, msg.lines().findFirst().orElse(""));
        }
        Double expected = e.expectedGbps();
        if (expected == null) {
            return new PortResult.Test(name, bidirectional, m, null, Verdict.OK, null);
        }
        double percent = 100 * m.gbps() / expected;
        return new PortResult.Test(name, bidirectional, m, percent, limits.judge(m.gbps(), expected), null);
    }

    /** @return the worst verdict of all ports ({@link Verdict#NA} counts as fine) */
    public static Verdict worst(List<PortResult> results) {
        Verdict w = Verdict.OK;
        for (PortResult r : results) {
            w = r.verdict().compareTo(w) > 0 ? r.verdict() : w;
        }
        return w;
    }
}
