package io.rdmaffm.verbs.topology;

import java.util.List;

/**
 * One network interface ({@code /sys/class/net/<name>}).
 *
 * @param name          the interface name
 * @param mtu           {@code mtu}, bytes
 * @param address       {@code address} (MAC, or 20-byte IPoIB address)
 * @param operstate     {@code operstate}: {@code up}, {@code down}, ...
 * @param speedMbps     {@code speed} in Mb/s; unknown when absent or {@code -1} (link down)
 * @param pciAddress    the PCI function behind it, or why there is none (virtual interfaces)
 * @param addresses     its IPv6 addresses and the IPv4 addresses that could be attributed to it (see
 *                      {@link Topology} for the limits), as text
 * @param qosTrust      {@code qos/trust} (MLNX_OFED only): {@code dscp} or {@code pcp}
 * @param ecnNotification priorities with {@code ecn/roce_np/enable/<p>} = 1 (MLNX_OFED only)
 * @param ecnReaction   priorities with {@code ecn/roce_rp/enable/<p>} = 1 (MLNX_OFED only)
 */
public record NetDevice(String name, Reading<Integer> mtu, Reading<String> address, Reading<String> operstate,
                        Reading<Long> speedMbps, Reading<String> pciAddress, List<IpAddress> addresses,
                        Reading<String> qosTrust, Reading<List<Integer>> ecnNotification,
                        Reading<List<Integer>> ecnReaction) {

    /** @return whether a PCI function backs this interface (not veth, bond, loopback, ...) */
    public boolean physical() {
        return pciAddress.known();
    }
}
