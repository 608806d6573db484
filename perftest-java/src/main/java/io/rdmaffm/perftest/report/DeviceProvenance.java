package io.rdmaffm.perftest.report;

import io.rdmaffm.perftest.doctor.CheckId;
import io.rdmaffm.perftest.doctor.CheckResult;
import io.rdmaffm.perftest.doctor.Doctor;
import io.rdmaffm.perftest.doctor.DoctorReport;
import io.rdmaffm.perftest.doctor.PfcProbe;
import io.rdmaffm.verbs.topology.PortRate;
import io.rdmaffm.verbs.topology.RdmaPort;
import io.rdmaffm.verbs.topology.Sysfs;
import io.rdmaffm.verbs.topology.SysfsRdmaDevice;
import io.rdmaffm.verbs.topology.Topology;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The device and port a run used, for the run document's {@code device} (docs/run-json.md): what verbs said
 * (link layer, state, MTU, GID) plus what sysfs and the doctor's PCIe model say (firmware, port rate, netdev,
 * NUMA node, the PCIe link and what it can carry), so a report can draw the port rate and the PCIe limit next
 * to the measured bandwidth.
 *
 * @param name         device name
 * @param port         port number
 * @param virtual      no PCI function of its own (rxe, siw)
 * @param fwVer        firmware version, or null
 * @param linkLayer    {@code "InfiniBand"} or {@code "Ethernet"}
 * @param portState    e.g. {@code "ACTIVE"}
 * @param portRate     sysfs {@code rate} as printed, or null
 * @param portRateGbps the same in Gb/s, or null
 * @param activeMtu    bytes
 * @param gidIndex     -1 without GID
 * @param gid          the GID as IPv6 text, or null
 * @param netdev       the port's netdev, or null
 * @param numaNode     the PCI function's NUMA node, or null
 * @param pcie         the PCIe link, or null (virtual device, or sysfs does not tell)
 */
public record DeviceProvenance(String name, int port, boolean virtual, String fwVer, String linkLayer,
                               String portState, String portRate, Double portRateGbps, int activeMtu, int gidIndex,
                               String gid, String netdev, Integer numaNode, Pcie pcie) {

    /**
     * @param function  the device's PCI function (BDF)
     * @param link      the narrowest link on the path, e.g. {@code "16.0 GT/s x16"}, or null
     * @param modelGbps usable PCIe throughput by the doctor's model, or null
     * @param path      root port to device, {@code /}-separated
     */
    public record Pcie(String function, String link, Double modelGbps, String path) {
    }

    /** What verbs reported about the port and the GID in use. */
    public record Verbs(String name, int port, String linkLayer, String portState, int activeMtu, int gidIndex,
                        byte[] gid) {
    }

    /**
     * The provenance of {@code v}'s device, completed from sysfs under {@code sysfsRoot} ({@code /} on a live
     * host). Anything sysfs does not tell is null; this never fails a run.
     */
    public static DeviceProvenance collect(Verbs v, Path sysfsRoot) {
        String gid = gidText(v.gid());
        Topology topo;
        try {
            topo = Topology.read(new Sysfs(sysfsRoot));
        } catch (RuntimeException e) {
            return new DeviceProvenance(v.name(), v.port(), false, null, v.linkLayer(), v.portState(), null, null,
                    v.activeMtu(), v.gidIndex(), gid, null, null, null);
        }
        Optional<SysfsRdmaDevice> found = topo.device(v.name());
        if (found.isEmpty()) {
            return new DeviceProvenance(v.name(), v.port(), false, null, v.linkLayer(), v.portState(), null, null,
                    v.activeMtu(), v.gidIndex(), gid, null, null, null);
        }
        SysfsRdmaDevice d = found.get();
        Optional<RdmaPort> port = d.port(v.port());
        PortRate rate = port.map(p -> p.rate().orElse(null)).orElse(null);
        String netdev = d.parentNetdev().orElse(d.pciNetdevs().isEmpty() ? null : d.pciNetdevs().get(0));
        Integer numa = d.pci().known() ? d.pci().value().endpoint().numaNode().orElse(null) : null;
        return new DeviceProvenance(v.name(), v.port(), d.virtual(), d.fwVer().orElse(null), v.linkLayer(),
                v.portState(), rate == null ? null : rate.raw(), rate == null ? null : rate.gbps(), v.activeMtu(),
                v.gidIndex(), gid, netdev, numa, d.virtual() ? null : pcie(topo, d));
    }

    private static String gidText(byte[] gid) {
        if (gid == null || gid.length != 16) {
            return null;
        }
        try {
            // Inet6Address keeps an IPv4-mapped GID in IPv6 form (InetAddress.getByAddress would not).
            return java.net.Inet6Address.getByAddress(null, gid, null).getHostAddress();
        } catch (java.net.UnknownHostException e) {
            return null;
        }
    }

    /** The doctor's {@code pcie-bandwidth} figures for {@code d}: the same model the doctor prints. */
    private static Pcie pcie(Topology topo, SysfsRdmaDevice d) {
        if (!d.pci().known()) {
            return null;
        }
        DoctorReport report = Doctor.examine(topo, d.name(), PfcProbe.unavailable("not asked by a run"));
        String link = null;
        Double model = null;
        for (CheckResult r : report.results()) {
            if (r.check() == CheckId.PCIE_BANDWIDTH && d.name().equals(r.device())) {
                Object speed = r.numbers().get("linkSpeed");
                Object width = r.numbers().get("linkWidth");
                link = speed == null || width == null ? null : speed + " x" + width;
                model = r.numbers().get("modelGbps") instanceof Number n ? n.doubleValue() : null;
            }
        }
        return new Pcie(d.pci().value().endpoint().address(), link, model, d.pci().value().describe());
    }
}
