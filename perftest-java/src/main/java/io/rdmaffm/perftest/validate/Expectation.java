package io.rdmaffm.perftest.validate;

import io.rdmaffm.perftest.report.DeviceProvenance;
import io.rdmaffm.verbs.topology.RdmaPort;
import io.rdmaffm.verbs.topology.SysfsRdmaDevice;

import java.nio.file.Path;

/**
 * What one port should carry in a loopback bandwidth test: the smaller of its rate and the doctor's modelled PCIe
 * payload throughput ({@code pcie-bandwidth}, {@link io.rdmaffm.perftest.doctor.PcieMath}), as
 * {@link DeviceProvenance} reads them from sysfs. A loopback pair on one port moves every byte across the NIC's
 * PCIe link twice, once each way (DMA read of the source, DMA write of the target), so the sum of both directions
 * of a bidirectional pair has the same ceiling as one direction.
 *
 * @param device        device name
 * @param port          port number
 * @param virtual       no PCI function (rxe, siw): nothing to expect
 * @param portRateGbps  the port's rate, or null when sysfs does not tell
 * @param pcieModelGbps the doctor's PCIe payload model, or null
 * @param pcieLink      the narrowest PCIe link, e.g. {@code "16.0 GT/s PCIe x16"}, or null
 * @param linkLayer     {@code InfiniBand} or {@code Ethernet}, or null
 * @param virtualReason why the device counts as virtual (e.g. its driver), or null
 */
public record Expectation(String device, int port, boolean virtual, Double portRateGbps, Double pcieModelGbps,
                          String pcieLink, String linkLayer, String virtualReason) {

    /** The facts of port {@code p} of {@code d}, completed from sysfs under {@code sysfsRoot} ({@code /} live). */
    public static Expectation read(SysfsRdmaDevice d, RdmaPort p, Path sysfsRoot) {
        String linkLayer = p.linkLayer().orElse(null);
        DeviceProvenance prov = DeviceProvenance.collect(
                new DeviceProvenance.Verbs(d.name(), p.number(), linkLayer, null, 0, -1, null), sysfsRoot);
        DeviceProvenance.Pcie pcie = prov.pcie();
        return new Expectation(d.name(), p.number(), prov.virtual(), prov.portRateGbps(),
                pcie == null ? null : pcie.modelGbps(), pcie == null ? null : pcie.link(), linkLayer,
                d.virtual() ? d.virtualReason() : null);
    }

    /** @return the expected Gb/s: min(port rate, PCIe model) of what is known; null for a virtual port or neither */
    public Double expectedGbps() {
        if (virtual) {
            return null;
        }
        if (portRateGbps == null) {
            return pcieModelGbps;
        }
        return pcieModelGbps == null ? portRateGbps : Math.min(portRateGbps, pcieModelGbps);
    }

    /** @return what sets the expectation: {@code "port rate"}, {@code "PCIe"} or null */
    public String limitedBy() {
        Double e = expectedGbps();
        if (e == null) {
            return null;
        }
        return portRateGbps != null && e.doubleValue() == portRateGbps ? "port rate" : "PCIe";
    }
}
