package io.rdmaffm.perftest.doctor;

import io.rdmaffm.verbs.topology.Reading;

/**
 * What the GPUDirect checks read from a PCI function's config space ({@code config} in sysfs): the ACS control
 * register (PCIe base spec, ACS Extended Capability, id 0x000D, control at +6) and Relaxed Ordering in the
 * Device Control register (PCI Express Capability, id 0x10, +8 bit 4). Extended capabilities live beyond
 * byte 256, which only root can read: unprivileged readers get the first 64 bytes, and the readings say so.
 */
final class PcieCapabilities {
    private static final int CAP_PCI_EXPRESS = 0x10;
    private static final int EXT_CAP_ACS = 0x000D;
    /** ACS control: P2P Request Redirect. */
    static final int ACS_RR = 1 << 2;
    /** ACS control: P2P Completion Redirect. */
    static final int ACS_CR = 1 << 3;
    /** ACS control: P2P Egress Control. */
    static final int ACS_EC = 1 << 5;
    private static final int DEVCTL_RELAXED_ORDERING = 1 << 4;

    private PcieCapabilities() {
    }

    /**
     * The ACS control register, or 0 when the function has no ACS capability (nothing redirected); unknown when
     * the extended config space is not readable.
     */
    static Reading<Integer> acsControl(byte[] cfg) {
        if (cfg.length < 4096) {
            return Reading.unknown("extended config space not readable (" + cfg.length
                    + " bytes; run the doctor as root to read ACS)");
        }
        int off = 0x100;
        for (int hops = 0; off >= 0x100 && off < 4096 - 8 && hops < 64; hops++) {
            int header = u32(cfg, off);
            if (header == 0 || header == -1) {
                break;
            }
            if ((header & 0xffff) == EXT_CAP_ACS) {
                return Reading.of(u16(cfg, off + 6));
            }
            off = (header >>> 20) & 0xffc;
        }
        return Reading.of(0);
    }

    /** Whether Relaxed Ordering is enabled in Device Control; unknown when the PCIe capability is not readable. */
    static Reading<Boolean> relaxedOrdering(byte[] cfg) {
        if (cfg.length < 256) {
            return Reading.unknown("config space beyond 64 bytes not readable (run the doctor as root)");
        }
        if ((u16(cfg, 0x06) & 0x10) == 0) {
            return Reading.unknown("no capability list");
        }
        int off = cfg[0x34] & 0xfc;
        for (int hops = 0; off >= 0x40 && off < 256 - 10 && hops < 48; hops++) {
            if ((cfg[off] & 0xff) == CAP_PCI_EXPRESS) {
                return Reading.of((u16(cfg, off + 8) & DEVCTL_RELAXED_ORDERING) != 0);
            }
            off = cfg[off + 1] & 0xfc;
        }
        return Reading.unknown("no PCI Express capability");
    }

    /** {@code RR CR EC} as set in an ACS control value, for messages. */
    static String describeAcs(int control) {
        StringBuilder b = new StringBuilder();
        if ((control & ACS_RR) != 0) {
            b.append("RequestRedirect ");
        }
        if ((control & ACS_CR) != 0) {
            b.append("CompletionRedirect ");
        }
        if ((control & ACS_EC) != 0) {
            b.append("EgressControl ");
        }
        return b.toString().trim();
    }

    private static int u16(byte[] b, int off) {
        return (b[off] & 0xff) | (b[off + 1] & 0xff) << 8;
    }

    private static int u32(byte[] b, int off) {
        return u16(b, off) | u16(b, off + 2) << 16;
    }
}
