package io.rdmaffm.verbs;

/**
 * The useful part of struct ibv_device_attr (from {@code ibv_query_device}). Limits a user sizes queues
 * and registrations with; GUIDs in host order.
 */
public record DeviceAttributes(String firmwareVersion, long nodeGuid, long systemImageGuid, long maxMrSize,
                               long pageSizeCap, int vendorId, int vendorPartId, int hardwareVersion, int maxQp,
                               int maxQpWr, int deviceCapFlags, int maxSge, int maxSgeRd, int maxCq, int maxCqe,
                               int maxMr, int maxPd, int maxQpRdAtom, int maxResRdAtom, int maxQpInitRdAtom,
                               int atomicCap, int maxMw, int maxAh, int maxSrq, int maxSrqWr, int maxSrqSge,
                               int maxPkeys, int localCaAckDelay, int physicalPortCount, int maxMcastGroups,
                               int maxMcastQpAttach) {

    /** IBV_DEVICE_MEM_WINDOW_TYPE_2B, as reported in device_cap_flags. */
    public boolean supportsMemoryWindowType2() {
        return (deviceCapFlags & (1 << 24)) != 0;
    }

    /** IBV_DEVICE_MEM_WINDOW. */
    public boolean supportsMemoryWindows() {
        return (deviceCapFlags & (1 << 17)) != 0;
    }

    /** atomic_cap is IBV_ATOMIC_HCA or IBV_ATOMIC_GLOB. */
    public boolean supportsAtomics() {
        return atomicCap != 0;
    }
}
