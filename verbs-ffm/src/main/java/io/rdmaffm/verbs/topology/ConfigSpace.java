package io.rdmaffm.verbs.topology;

/**
 * The facts the model takes from a PCI function's config space ({@code config} in sysfs): Max_Payload_Size and
 * Relaxed Ordering from Device Control in the PCI Express Capability (id 0x10, register at +8), and the ACS
 * control register from the ACS Extended Capability (id 0x000D, register at +6). Each list is walked here once.
 * Unprivileged reads of {@code config} return only the first 64 bytes, where the PCIe capability normally is
 * not, and extended capabilities start at byte 256, so these are usually unknown unless run as root.
 */
final class ConfigSpace {
    private static final int CAP_PCI_EXPRESS = 0x10;
    private static final int EXT_CAP_ACS = 0x000D;
    private static final int DEVCTL = 8;
    private static final int DEVCTL_RELAXED_ORDERING = 1 << 4;
    private static final int EXTENDED_SIZE = 4096;

    private ConfigSpace() {
    }

    static Reading<Integer> maxPayload(byte[] cfg) {
        Reading<Integer> cap = pcieCapability(cfg);
        if (!cap.known()) {
            return cap;
        }
        int code = (u16(cfg, cap.value() + DEVCTL) >> 5) & 7;
        return code > 5 ? Reading.unknown("reserved Max_Payload_Size code " + code) : Reading.of(128 << code);
    }

    static Reading<Boolean> relaxedOrdering(byte[] cfg) {
        return pcieCapability(cfg).map(cap -> (u16(cfg, cap + DEVCTL) & DEVCTL_RELAXED_ORDERING) != 0);
    }

    /**
     * The ACS control register, or 0 when the function has no ACS capability (nothing redirected); unknown when
     * the extended config space is not readable.
     */
    static Reading<Integer> acsControl(byte[] cfg) {
        if (cfg.length < EXTENDED_SIZE) {
            return Reading.unknown("extended config space not readable (" + cfg.length
                    + " bytes; needs root)");
        }
        int off = 0x100;
        // a corrupt list can loop: bound the hops as well as the offsets
        for (int hops = 0; off >= 0x100 && off < EXTENDED_SIZE - 8 && hops < 64; hops++) {
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

    /** The offset of the PCI Express capability in the standard capability list, with its registers readable. */
    private static Reading<Integer> pcieCapability(byte[] cfg) {
        if (cfg.length < 0x40) {
            return Reading.unknown("config space shorter than the 64-byte header");
        }
        if ((u16(cfg, 0x06) & 0x10) == 0) {
            return Reading.unknown("config space has no capability list");
        }
        int ptr = cfg[0x34] & 0xfc;
        // a corrupt list can loop: there are at most 48 capabilities in the 192 bytes after the header
        for (int n = 0; n < 48 && ptr >= 0x40; n++) {
            if (ptr + 12 > cfg.length) {
                return Reading.unknown("PCIe capability beyond the readable " + cfg.length
                        + " bytes of config space (needs root)");
            }
            if ((cfg[ptr] & 0xff) == CAP_PCI_EXPRESS) {
                return Reading.of(ptr);
            }
            ptr = cfg[ptr + 1] & 0xfc;
        }
        return Reading.unknown("no PCI Express capability in config space");
    }

    private static int u16(byte[] b, int off) {
        return (b[off] & 0xff) | (b[off + 1] & 0xff) << 8;
    }

    private static int u32(byte[] b, int off) {
        return u16(b, off) | u16(b, off + 2) << 16;
    }
}
