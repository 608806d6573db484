package io.rdmaffm.verbs.topology;

import java.nio.file.Path;

/**
 * One PCI function ({@code /sys/devices/pci0000:xx/.../dddd:bb:dd.f}) with the attributes the doctor uses.
 *
 * @param address      the function address, e.g. {@code 0000:17:00.0}
 * @param sysfsPath    the real sysfs directory (absolute, below the model's root)
 * @param vendor       {@code vendor} ({@code 0x15b3} Mellanox/NVIDIA networking, {@code 0x10de} NVIDIA)
 * @param device       {@code device}
 * @param pciClass     {@code class}, 24 bits ({@code 0x060400} bridge, {@code 0x030200} 3D controller)
 * @param currentSpeed {@code current_link_speed}
 * @param currentWidth {@code current_link_width}, lanes
 * @param maxSpeed     {@code max_link_speed}
 * @param maxWidth     {@code max_link_width}, lanes
 * @param numaNode     {@code numa_node}; unknown when absent or {@code -1}
 * @param localCpuList {@code local_cpulist}, e.g. {@code 0-31,64-95}
 * @param maxPayload   Max_Payload_Size in bytes from the PCIe capability in {@code config}; unknown unless
 *                     the config space beyond 64 bytes is readable (root)
 * @param relaxedOrdering whether Device Control in the PCIe capability enables Relaxed Ordering; unknown as
 *                     {@code maxPayload} is
 * @param acsControl   the ACS control register (PCIe base spec: bit 2 P2P Request Redirect, bit 3 P2P Completion
 *                     Redirect, bit 5 P2P Egress Control), 0 when the function has no ACS capability; unknown
 *                     unless the whole 4 KiB extended config space is readable (root)
 */
public record PciFunction(String address, Path sysfsPath, Reading<Integer> vendor, Reading<Integer> device,
                          Reading<Integer> pciClass, Reading<PcieSpeed> currentSpeed, Reading<Integer> currentWidth,
                          Reading<PcieSpeed> maxSpeed, Reading<Integer> maxWidth, Reading<Integer> numaNode,
                          Reading<String> localCpuList, Reading<Integer> maxPayload,
                          Reading<Boolean> relaxedOrdering, Reading<Integer> acsControl) {

    /** PCI vendor id of NVIDIA. */
    public static final int VENDOR_NVIDIA = 0x10de;

    /** @return whether the class says PCI-to-PCI bridge (root port, switch port) */
    public boolean isBridge() {
        return pciClass.known() && (pciClass.value() >> 8) == 0x0604;
    }

    /** @return whether this is an NVIDIA display (0x0300) or 3D (0x0302) controller */
    public boolean isNvidiaGpu() {
        if (!vendor.known() || vendor.value() != VENDOR_NVIDIA || !pciClass.known()) {
            return false;
        }
        int base = pciClass.value() >> 8;
        return base == 0x0300 || base == 0x0302;
    }

    /** @return the bus/device part without the function ({@code 0000:17:00}); functions of one device share a link */
    public String slot() {
        int dot = address.lastIndexOf('.');
        return dot > 0 ? address.substring(0, dot) : address;
    }
}
