package io.rdmaffm.perftest.doctor;

import io.rdmaffm.verbs.topology.Gid;
import io.rdmaffm.verbs.topology.NetDevice;
import io.rdmaffm.verbs.topology.RdmaPort;
import io.rdmaffm.verbs.topology.Reading;
import io.rdmaffm.verbs.topology.SysfsRdmaDevice;
import io.rdmaffm.verbs.topology.Topology;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The subject of a port check: a port, its device, and the netdev behind it.
 *
 * @param device the device
 * @param port   the port
 * @param netdev the port's netdev, or why none is known
 */
record DevicePort(SysfsRdmaDevice device, RdmaPort port, Reading<String> netdev) {

    /**
     * @param d a device
     * @param p one of its ports
     * @return the port with its netdev: the one the kernel's GID table names (RoCE); else the PCI function's,
     *         else rxe's parent
     */
    static DevicePort of(SysfsRdmaDevice d, RdmaPort p) {
        for (Gid g : p.gids().orElse(List.of())) {
            if (g.netdev().known()) {
                return new DevicePort(d, p, g.netdev());
            }
        }
        if (d.parentNetdev().known()) {
            return new DevicePort(d, p, d.parentNetdev());
        }
        if (d.pciNetdevs().size() == 1 || (!d.pciNetdevs().isEmpty() && p.isEthernet())) {
            return new DevicePort(d, p, Reading.of(d.pciNetdevs().getFirst()));
        }
        return new DevicePort(d, p, Reading.unknown("no netdev: gid_attrs/ndevs empty, no device/net, no parent"));
    }

    CheckResult result(CheckId id, Verdict v, String reason, Numbers.Builder numbers) {
        return new CheckResult(id, device.name(), port.number(), v, reason, numbers.build());
    }

    CheckResult na(CheckId id, String reason) {
        return new CheckResult(id, device.name(), port.number(), Verdict.NA, reason, Numbers.NONE);
    }

    /**
     * @param id     the RoCE check asking
     * @param ibNote what to add when the port is InfiniBand
     * @return N/A with the reason when the port is not RoCE, else {@code null}
     */
    CheckResult notRoce(CheckId id, String ibNote) {
        if (!port.linkLayer().known()) {
            return na(id, "link layer unknown: " + port.linkLayer().problem());
        }
        if (port.isInfiniBand()) {
            return na(id, "InfiniBand port, not RoCE" + ibNote);
        }
        if (!port.isEthernet()) {
            return na(id, "link layer " + port.linkLayer().value() + ", not RoCE");
        }
        return null;
    }

    /**
     * Runs a RoCE check that reads the port's netdev.
     *
     * @param id     the check
     * @param ibNote what to add to the N/A when the port is InfiniBand
     * @param topo   where the netdevs are
     * @param check  the judgement on the netdev
     * @return N/A with the reason when the port is not RoCE, has no known netdev or the netdev is not in
     *         {@code /sys/class/net}; else the judgement
     */
    CheckResult withRoceNetdev(CheckId id, String ibNote, Topology topo, Function<NetDevice, CheckResult> check) {
        CheckResult notRoce = notRoce(id, ibNote);
        if (notRoce != null) {
            return notRoce;
        }
        if (!netdev.known()) {
            return na(id, netdev.problem());
        }
        Optional<NetDevice> nd = topo.netdev(netdev.value());
        return nd.isPresent() ? check.apply(nd.get()) : na(id, "netdev " + netdev.value() + " not in /sys/class/net");
    }
}
