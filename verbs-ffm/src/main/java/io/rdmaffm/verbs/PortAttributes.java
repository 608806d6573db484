package io.rdmaffm.verbs;

/**
 * struct ibv_port_attr as filled by the inline {@code ibv_query_port} (so port_cap_flags2 is included).
 *
 * @param activeWidth IB_WIDTH code: 1 = 1x, 2 = 4x, 4 = 8x, 8 = 12x, 16 = 2x
 * @param activeSpeed IB speed code: 1 SDR, 2 DDR, 4 QDR, 8 FDR10, 16 FDR, 32 EDR, 64 HDR, 128 NDR
 */
public record PortAttributes(int port, PortState state, Mtu maxMtu, Mtu activeMtu, int gidTableLength,
                             int portCapFlags, long maxMessageSize, int badPkeyCounter, int qkeyViolationCounter,
                             int pkeyTableLength, int lid, int smLid, int lmc, int maxVlNum, int smSl,
                             int subnetTimeout, int activeWidth, int activeSpeed, int physState,
                             LinkLayer linkLayer, int flags, int portCapFlags2) {

    /** Lanes of {@link #activeWidth()}, 0 if unknown. */
    public int lanes() {
        return switch (activeWidth) {
            case 1 -> 1;
            case 2 -> 4;
            case 4 -> 8;
            case 8 -> 12;
            case 16 -> 2;
            default -> 0;
        };
    }

    /** Per-lane signalling rate in Gb/s for {@link #activeSpeed()}, as ibv_devinfo names it; 0 if unknown. */
    public double laneGbps() {
        return switch (activeSpeed) {
            case 1 -> 2.5;
            case 2 -> 5.0;
            case 4, 8 -> 10.0;
            case 16 -> 14.0;
            case 32 -> 25.0;
            case 64 -> 50.0;
            case 128 -> 100.0;
            default -> 0.0;
        };
    }

    /** lanes × lane rate in Gb/s; 0 if the kernel reported codes we do not know. */
    public double rateGbps() {
        return lanes() * laneGbps();
    }

    /** "LinkUp", "Polling", … as in sysfs phys_state. */
    public String physStateName() {
        return switch (physState) {
            case 1 -> "Sleep";
            case 2 -> "Polling";
            case 3 -> "Disabled";
            case 4 -> "PortConfigurationTraining";
            case 5 -> "LinkUp";
            case 6 -> "LinkErrorRecovery";
            case 7 -> "PhyTest";
            default -> "Unknown(" + physState + ")";
        };
    }
}
