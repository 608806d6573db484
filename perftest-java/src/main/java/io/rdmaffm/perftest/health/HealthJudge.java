package io.rdmaffm.perftest.health;

import io.rdmaffm.perftest.doctor.CheckResult;
import io.rdmaffm.perftest.doctor.DoctorReport;
import io.rdmaffm.perftest.doctor.Verdict;
import io.rdmaffm.perftest.validate.Expectation;
import io.rdmaffm.perftest.validate.Loopback;
import io.rdmaffm.perftest.validate.Measured;
import io.rdmaffm.verbs.topology.RdmaPort;
import io.rdmaffm.verbs.topology.SysfsRdmaDevice;
import io.rdmaffm.verbs.topology.Topology;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The judgement of one {@code health} run, fail-closed: per HCA the doctor's findings (a FAIL fails; WARN and
 * N/A are the doctor's to report and do not), then what the node type asks: the port rate, the PCIe link and the
 * loopback bandwidth of the HCA's first port. Whatever the type asks and cannot be read or measured has failed.
 */
public final class HealthJudge {
    private final Topology topo;
    private final DoctorReport doctor;
    private final NodeType type;
    private final Loopback loop;
    private final int retries;
    private final Path sysfsRoot;

    /**
     * @param topo      the node's sysfs
     * @param doctor    the doctor's report on it
     * @param type      the node type's thresholds
     * @param loop      how a port is measured
     * @param retries   loopback runs made again after one below the threshold or failed
     * @param sysfsRoot where sysfs is ({@code /} live)
     */
    public HealthJudge(Topology topo, DoctorReport doctor, NodeType type, Loopback loop, int retries, Path sysfsRoot) {
        this.topo = topo;
        this.doctor = doctor;
        this.type = type;
        this.loop = loop;
        this.retries = retries;
        this.sysfsRoot = sysfsRoot;
    }

    /**
     * The HCAs to check: {@code only}, else every HCA on the node and every one the type names.
     *
     * @throws IllegalArgumentException when {@code only} is not on the node, or the type has no min_gbps for one
     */
    public static List<String> hcas(Topology topo, NodeType type, String only) {
        List<String> out = new ArrayList<>();
        if (only != null) {
            if (topo.device(only).isEmpty()) {
                throw new IllegalArgumentException("--hca " + only + ": no such RDMA device on this node (have: "
                        + String.join(", ", topo.devices().stream().map(SysfsRdmaDevice::name).toList()) + ")");
            }
            out.add(only);
        } else {
            for (SysfsRdmaDevice d : topo.devices()) {
                out.add(d.name());
            }
            for (String named : type.namedHcas()) {
                if (!out.contains(named)) {
                    out.add(named);
                }
            }
        }
        for (String h : out) {
            if (type.rule(h).minGbps() == null) {
                throw new IllegalArgumentException("node type [" + type.name() + "] sets no min_gbps for " + h
                        + " (hca." + h + ".min_gbps or hca.*.min_gbps): nothing to pass it by");
            }
        }
        return out;
    }

    /** @return the node-level result, then one per HCA of {@code hcas}, in order */
    public List<HcaResult> judge(List<String> hcas) {
        List<HcaResult> out = new ArrayList<>();
        List<CheckOutcome> node = doctorFindings(null);
        out.add(new HcaResult(CheckOutcome.NODE, node, null, null, 0));
        for (String h : hcas) {
            out.add(hca(h));
        }
        return out;
    }

    private HcaResult hca(String name) {
        HcaRule rule = type.rule(name);
        SysfsRdmaDevice d = topo.device(name).orElse(null);
        if (d == null) {
            return new HcaResult(name, List.of(new CheckOutcome(name, "present", false, "not on this node (node type ["
                    + type.name() + "] names it)")), null, rule.minGbps(), 0);
        }
        List<CheckOutcome> checks = new ArrayList<>(doctorFindings(name));
        List<RdmaPort> ports = d.ports().orElse(List.of());
        if (ports.isEmpty()) {
            String why = d.ports().known() ? "no ports" : "cannot list ports: " + d.ports().problem();
            checks.add(new CheckOutcome(name, "bandwidth", false, why + ": not measured"));
            return new HcaResult(name, checks, null, rule.minGbps(), 0);
        }
        RdmaPort port = ports.getFirst();
        Expectation e = Expectation.read(d, port, sysfsRoot);
        if (rule.rateGbps() != null) {
            checks.add(rate(name, e, rule.rateGbps()));
        }
        if (rule.pcie() != null) {
            checks.add(pcie(name, e, rule.pcie()));
        }
        if (!port.state().known() || !port.isActive()) {
            String state = port.state().known() ? port.state().value().name() : "unknown";
            checks.add(new CheckOutcome(name, "bandwidth", false, "port " + port.number() + " " + state
                    + ": not measured"));
            return new HcaResult(name, checks, null, rule.minGbps(), 0);
        }
        return bandwidth(name, e, rule.minGbps(), checks);
    }

    private HcaResult bandwidth(String name, Expectation e, double min, List<CheckOutcome> checks) {
        Double best = null;
        String failure = null;
        int runs = 0;
        while (runs <= retries) {
            runs++;
            try {
                Measured m = loop.run(e, false);
                best = best == null ? m.gbps() : Math.max(best, m.gbps());
                if (m.gbps() >= min) {
                    break;
                }
            } catch (Exception ex) {
                String msg = ex.getMessage() == null ? ex.getClass().getSimpleName() : ex.getMessage();
                failure = msg.lines().findFirst().orElse("");
            }
        }
        String tries = runs == 1 ? "1 run" : runs + " runs";
        CheckOutcome c;
        if (best != null && best >= min) {
            c = new CheckOutcome(name, "bandwidth", true, String.format(Locale.ROOT,
                    "%s, min %s (%s)", gbps(best), gbps(min), tries));
        } else if (best != null) {
            c = new CheckOutcome(name, "bandwidth", false, String.format(Locale.ROOT,
                    "%s below min %s (best of %s)", gbps(best), gbps(min), tries));
        } else {
            c = new CheckOutcome(name, "bandwidth", false, "could not measure (" + tries + "): " + failure);
        }
        checks.add(c);
        return new HcaResult(name, checks, best, min, runs);
    }

    private static CheckOutcome rate(String name, Expectation e, double expected) {
        if (e.portRateGbps() == null) {
            return new CheckOutcome(name, "rate", false, "port rate unknown (sysfs rate unreadable); expected "
                    + gbps(expected));
        }
        boolean ok = e.portRateGbps() >= expected;
        return new CheckOutcome(name, "rate", ok, "port " + e.port() + " at " + gbps(e.portRateGbps())
                + (ok ? ", expected " : " below expected ") + gbps(expected));
    }

    private static CheckOutcome pcie(String name, Expectation e, PcieLink expected) {
        if (e.virtual()) {
            return new CheckOutcome(name, "pcie", false, "virtual device (" + e.virtualReason()
                    + "): no PCIe link, expected " + expected);
        }
        if (e.pcieLink() == null) {
            return new CheckOutcome(name, "pcie", false, "PCIe link unknown, expected " + expected);
        }
        PcieLink link = PcieLink.parse(e.pcieLink());
        boolean ok = link.meets(expected);
        return new CheckOutcome(name, "pcie", ok, "narrowest link " + link + (ok ? ", expected " : " below expected ")
                + expected);
    }

    /** The doctor's results for {@code device} (null: the node's own), one per check id, the worst port winning. */
    private List<CheckOutcome> doctorFindings(String device) {
        Map<String, CheckOutcome> byCheck = new LinkedHashMap<>();
        for (CheckResult r : doctor.results()) {
            if (r.advisory() || r.verdict() == Verdict.NA || !Objects.equals(device, r.device())) {
                continue;
            }
            String hca = device == null ? CheckOutcome.NODE : device;
            String where = r.port() == null ? "" : "port " + r.port() + ": ";
            CheckOutcome c = new CheckOutcome(hca, r.check().id(), r.verdict() != Verdict.FAIL,
                    r.verdict().label() + " " + where + r.reason());
            CheckOutcome before = byCheck.get(c.check());
            if (before == null || (before.passed() && !c.passed())) {
                byCheck.put(c.check(), c);
            }
        }
        return new ArrayList<>(byCheck.values());
    }

    /** One decimal, or three below 1 Gb/s, so that a small threshold does not print as 0.0. */
    static String gbps(double v) {
        return String.format(Locale.ROOT, v < 1 ? "%.3f Gb/s" : "%.1f Gb/s", v);
    }
}
