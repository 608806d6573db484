package io.rdmaffm.verbs.topology;

import java.util.List;

/**
 * The chain of PCI functions from the root port down to a device, as the real sysfs path shows it:
 * {@code /sys/devices/pci0000:16/0000:16:02.0/0000:17:00.0/0000:18:08.0/0000:1a:00.0}. A PCIe switch
 * appears as two entries (upstream port, then downstream port).
 *
 * @param hostBridge the root bus directory name, e.g. {@code pci0000:16}
 * @param chain      root port first, the device itself last; never empty
 */
public record PciPath(String hostBridge, List<PciFunction> chain) {

    /**
     * @param hostBridge the root bus name
     * @param chain      the functions, root port first
     */
    public PciPath {
        chain = List.copyOf(chain);
        if (chain.isEmpty()) {
            throw new IllegalArgumentException("empty PCI path");
        }
    }

    /** @return the device at the end of the path */
    public PciFunction endpoint() {
        return chain.getLast();
    }

    /** @return the function directly below the host bridge (normally the root port) */
    public PciFunction rootPort() {
        return chain.getFirst();
    }

    /** @return the path as {@code pci0000:16/0000:16:02.0/...} */
    public String describe() {
        StringBuilder b = new StringBuilder(hostBridge);
        for (PciFunction f : chain) {
            b.append('/').append(f.address());
        }
        return b.toString();
    }
}
