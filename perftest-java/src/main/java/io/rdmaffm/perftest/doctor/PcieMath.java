package io.rdmaffm.perftest.doctor;

import io.rdmaffm.verbs.topology.PcieSpeed;

/**
 * PCIe bandwidth per direction, as the kernel computes it ({@code PCIE_SPEED2MBS_ENC}) plus a realistic
 * payload model.
 *
 * <p>Raw: GT/s × encoding × lanes; 8b/10b for Gen1/2, 128b/130b for Gen3–5, none for Gen6+ (FLIT mode,
 * 1b/1b; the kernel changed to 1/1 in 2024). Model: what is left for payload after TLP and DLLP
 * overhead. For Gen1–5 each TLP carries 24 (Gen1/2) or 26 (Gen3+) bytes of framing, header and CRC
 * and every four TLPs cost one 16-byte ACK/flow-control DLLP, so efficiency = 4·MPS / (4·(MPS+overhead)+16):
 * 0.895 at the common 256-byte Max_Payload_Size, 0.81 at 128 bytes. For FLIT mode 236 of each 256-byte
 * flit carry TLP bytes (0.922); TLP headers come out of that, so it is an upper bound.
 */
public final class PcieMath {
    /** Max_Payload_Size assumed when the config space cannot be read (needs root): the common 256 bytes. */
    public static final int DEFAULT_MPS = 256;

    private PcieMath() {
    }

    /**
     * @param speed the link speed
     * @return Gb/s per lane after line encoding
     */
    public static double rawGbpsPerLane(PcieSpeed speed) {
        double gt = speed.gigaTransfers();
        if (gt <= 5.0) {
            return gt * 8.0 / 10.0;
        }
        if (gt < 64.0) {
            return gt * 128.0 / 130.0;
        }
        return gt;
    }

    /**
     * @param speed the link speed
     * @param width lanes
     * @return Gb/s per direction after line encoding (the kernel's "available PCIe bandwidth")
     */
    public static double rawGbps(PcieSpeed speed, int width) {
        return rawGbpsPerLane(speed) * width;
    }

    /**
     * @param speed      the link speed
     * @param maxPayload Max_Payload_Size in bytes
     * @return the fraction of the raw rate left for payload
     */
    public static double efficiency(PcieSpeed speed, int maxPayload) {
        double gt = speed.gigaTransfers();
        if (gt >= 64.0) {
            return 236.0 / 256.0;
        }
        int overhead = gt <= 5.0 ? 24 : 26;
        return 4.0 * maxPayload / (4.0 * (maxPayload + overhead) + 16.0);
    }

    /**
     * @param speed      the link speed
     * @param width      lanes
     * @param maxPayload Max_Payload_Size in bytes
     * @return modelled payload Gb/s per direction
     */
    public static double modelGbps(PcieSpeed speed, int width, int maxPayload) {
        return rawGbps(speed, width) * efficiency(speed, maxPayload);
    }

    /**
     * NCCL's own figure ({@code kvDictPciGen}: 15/30/60/120/240/480 units of 100 Mb/s per lane, GB/s =
     * width·units/80), reported so users know when NCCL will consider the NIC PCIe-bound.
     *
     * @param speed the link speed
     * @param width lanes
     * @return NCCL's Gb/s, or NaN for speeds it does not know
     */
    public static double ncclGbps(PcieSpeed speed, int width) {
        int units = switch (speed.generation()) {
            case 1 -> 15;
            case 2 -> 30;
            case 3 -> 60;
            case 4 -> 120;
            case 5 -> 240;
            case 6 -> 480;
            default -> -1;
        };
        return units < 0 ? Double.NaN : width * units / 80.0 * 8.0;
    }
}
