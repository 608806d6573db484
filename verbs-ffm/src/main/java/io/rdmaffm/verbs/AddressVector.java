package io.rdmaffm.verbs;

import io.rdmaffm.verbs.raw.Offsets.ibv_ah_attr;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * struct ibv_ah_attr: how to reach a peer port. For RoCE always global (GRH) with the peer's GID and our
 * GID index; for InfiniBand the peer's LID, and a GRH only across subnets.
 */
public final class AddressVector {
    int dlid;
    int serviceLevel;
    int srcPathBits;
    int staticRate;
    int port = 1;
    boolean global;
    byte[] dgid = new byte[16];
    int sgidIndex;
    int hopLimit = 0xff;
    int trafficClass;
    int flowLabel;

    public AddressVector port(int p) {
        port = p;
        return this;
    }

    public AddressVector dlid(int lid) {
        dlid = lid;
        return this;
    }

    public AddressVector serviceLevel(int sl) {
        serviceLevel = sl;
        return this;
    }

    public AddressVector staticRate(int rate) {
        staticRate = rate;
        return this;
    }

    public AddressVector srcPathBits(int bits) {
        srcPathBits = bits;
        return this;
    }

    /** Adds a GRH: peer GID (16 bytes), our source GID index, hop limit 255, traffic class 0. */
    public AddressVector global(byte[] destinationGid, int sourceGidIndex) {
        if (destinationGid.length != 16) {
            throw new IllegalArgumentException("a GID has 16 bytes");
        }
        global = true;
        dgid = destinationGid.clone();
        sgidIndex = sourceGidIndex;
        return this;
    }

    public AddressVector hopLimit(int h) {
        hopLimit = h;
        return this;
    }

    public AddressVector trafficClass(int tc) {
        trafficClass = tc;
        return this;
    }

    public AddressVector flowLabel(int label) {
        flowLabel = label;
        return this;
    }

    /** The port the address vector leaves from (port_num). */
    public int port() {
        return port;
    }

    /** The destination LID (dlid; 0 on RoCE). */
    public int dlid() {
        return dlid;
    }

    public int serviceLevel() {
        return serviceLevel;
    }

    public int staticRate() {
        return staticRate;
    }

    public int srcPathBits() {
        return srcPathBits;
    }

    /** True when a GRH is sent (is_global): always on RoCE. */
    public boolean isGlobal() {
        return global;
    }

    /** The destination GID (grh.dgid), a copy; all zeros without a GRH. */
    public byte[] destinationGid() {
        return dgid.clone();
    }

    /** Our source GID index (grh.sgid_index). */
    public int sourceGidIndex() {
        return sgidIndex;
    }

    public int hopLimit() {
        return hopLimit;
    }

    public int trafficClass() {
        return trafficClass;
    }

    public int flowLabel() {
        return flowLabel;
    }

    /** An independent copy (address vectors are mutable builders). */
    public AddressVector copy() {
        AddressVector c = new AddressVector();
        c.dlid = dlid;
        c.serviceLevel = serviceLevel;
        c.srcPathBits = srcPathBits;
        c.staticRate = staticRate;
        c.port = port;
        c.global = global;
        c.dgid = dgid.clone();
        c.sgidIndex = sgidIndex;
        c.hopLimit = hopLimit;
        c.trafficClass = trafficClass;
        c.flowLabel = flowLabel;
        return c;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("AddressVector[port ").append(port);
        if (global) {
            sb.append(", dgid ").append(java.util.HexFormat.of().formatHex(dgid)).append(", sgid_index ")
                    .append(sgidIndex).append(", hop_limit ").append(hopLimit);
        } else {
            sb.append(", dlid ").append(dlid);
        }
        return sb.append(", sl ").append(serviceLevel).append(']').toString();
    }

    /** Writes this as a {@code struct ibv_ah_attr} at {@code base} of {@code s}. */
    void writeTo(MemorySegment s, long base) {
        MemorySegment.copy(dgid, 0, s, JAVA_BYTE, base + ibv_ah_attr.grh__dgid, 16);
        s.set(JAVA_INT, base + ibv_ah_attr.grh__flow_label, flowLabel);
        s.set(JAVA_BYTE, base + ibv_ah_attr.grh__sgid_index, (byte) sgidIndex);
        s.set(JAVA_BYTE, base + ibv_ah_attr.grh__hop_limit, (byte) hopLimit);
        s.set(JAVA_BYTE, base + ibv_ah_attr.grh__traffic_class, (byte) trafficClass);
        s.set(JAVA_SHORT, base + ibv_ah_attr.dlid, (short) dlid);
        s.set(JAVA_BYTE, base + ibv_ah_attr.sl, (byte) serviceLevel);
        s.set(JAVA_BYTE, base + ibv_ah_attr.src_path_bits, (byte) srcPathBits);
        s.set(JAVA_BYTE, base + ibv_ah_attr.static_rate, (byte) staticRate);
        s.set(JAVA_BYTE, base + ibv_ah_attr.is_global, (byte) (global ? 1 : 0));
        s.set(JAVA_BYTE, base + ibv_ah_attr.port_num, (byte) port);
    }
}
