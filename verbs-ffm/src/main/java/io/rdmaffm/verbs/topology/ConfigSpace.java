package io.rdmaffm.verbs.topology;

/**
 * The one fact the model takes from PCI config space: Max_Payload_Size, which sets PCIe efficiency.
 * Unprivileged reads of {@code config} return only the first 64 bytes, where the PCIe capability
 * normally is not, so this is usually unknown unless run as root.
 */
final class ConfigSpace {
    private static final int CAP_PCI_EXPRESS = 0x10;

    private ConfigSpace() {
    }

    static Reading<Integer> maxPayload(byte[] cfg) {
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
                int devCtl = u16(cfg, ptr + 8);
                int code = (devCtl >> 5) & 7;
                if (code > 5) {
                    return Reading.unknown("reserved Max_Payload_Size code " + code);
                }
                return Reading.of(128 << code);
            }
            ptr = cfg[ptr + 1] & 0xfc;
        }
        return Reading.unknown("no PCI Express capability in config space");
    }

    private static int u16(byte[] b, int off) {
        return (b[off] & 0xff) | (b[off + 1] & 0xff) << 8;
    }
}
