package io.rdmaffm.perftest.doctor;

import io.rdmaffm.verbs.topology.PciFunction;
import io.rdmaffm.verbs.topology.SysfsRdmaDevice;
import io.rdmaffm.verbs.topology.Topology;

/** {@code numa}: the NIC's NUMA node and local CPUs, to pin benchmarks to its socket. */
record NumaCheck(Topology topo) implements Check<SysfsRdmaDevice> {
    private static final CheckId ID = CheckId.NUMA;

    @Override
    public CheckResult examine(SysfsRdmaDevice d) {
        CheckResult na = CheckResult.withoutPciPath(ID, d, "no PCI device, pin to the parent NIC's node");
        if (na != null) {
            return na;
        }
        PciFunction nic = d.pci().value().endpoint();
        Numbers.Builder n = Numbers.builder().whole("numaNode", nic.numaNode().orElse(null))
                .text("localCpus", nic.localCpuList().orElse(null))
                .whole("hostNumaNodes", topo.numaNodes().orElse(null));
        String cpus = nic.localCpuList().known() ? "local CPUs " + nic.localCpuList().value()
                : "local CPUs unknown (" + nic.localCpuList().problem() + ")";
        if (nic.numaNode().known()) {
            int node = nic.numaNode().value();
            return CheckResult.of(ID, d, Verdict.OK, "NUMA node " + node + ", " + cpus + "; run benchmarks with"
                    + " numactl -N " + node + " -m " + node, n);
        }
        if (!topo.numaNodes().known()) {
            return CheckResult.of(ID, d, Verdict.NA, "NUMA node unknown (" + nic.numaNode().problem()
                    + ") and the host's node count unknown (" + topo.numaNodes().problem() + ")", n);
        }
        if (topo.numaNodes().value() > 1) {
            return CheckResult.of(ID, d, Verdict.WARN, "NUMA node unknown (" + nic.numaNode().problem() + ") on a "
                    + topo.numaNodes().value() + "-node host: cannot pin to the NIC's socket; " + cpus, n);
        }
        return CheckResult.of(ID, d, Verdict.OK, "single NUMA node host, so the unknown node ("
                + nic.numaNode().problem() + ") does not matter; " + cpus, n);
    }
}
