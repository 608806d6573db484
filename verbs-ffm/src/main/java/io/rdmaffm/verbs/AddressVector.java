package io.rdmaffm.verbs;

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

    void writeTo(java.lang.foreign.MemorySegment s, long base) {
        var l = io.rdmaffm.verbs.raw.Structs.ibv_ah_attr;
        java.lang.foreign.MemorySegment.copy(dgid, 0, s, java.lang.foreign.ValueLayout.JAVA_BYTE,
                base + io.rdmaffm.verbs.raw.Structs.offset(l, "grh.dgid"), 16);
        s.set(java.lang.foreign.ValueLayout.JAVA_INT, base + io.rdmaffm.verbs.raw.Structs.offset(l, "grh.flow_label"), flowLabel);
        s.set(java.lang.foreign.ValueLayout.JAVA_BYTE, base + io.rdmaffm.verbs.raw.Structs.offset(l, "grh.sgid_index"), (byte) sgidIndex);
        s.set(java.lang.foreign.ValueLayout.JAVA_BYTE, base + io.rdmaffm.verbs.raw.Structs.offset(l, "grh.hop_limit"), (byte) hopLimit);
        s.set(java.lang.foreign.ValueLayout.JAVA_BYTE, base + io.rdmaffm.verbs.raw.Structs.offset(l, "grh.traffic_class"), (byte) trafficClass);
        s.set(java.lang.foreign.ValueLayout.JAVA_SHORT, base + io.rdmaffm.verbs.raw.Structs.offset(l, "dlid"), (short) dlid);
        s.set(java.lang.foreign.ValueLayout.JAVA_BYTE, base + io.rdmaffm.verbs.raw.Structs.offset(l, "sl"), (byte) serviceLevel);
        s.set(java.lang.foreign.ValueLayout.JAVA_BYTE, base + io.rdmaffm.verbs.raw.Structs.offset(l, "src_path_bits"), (byte) srcPathBits);
        s.set(java.lang.foreign.ValueLayout.JAVA_BYTE, base + io.rdmaffm.verbs.raw.Structs.offset(l, "static_rate"), (byte) staticRate);
        s.set(java.lang.foreign.ValueLayout.JAVA_BYTE, base + io.rdmaffm.verbs.raw.Structs.offset(l, "is_global"), (byte) (global ? 1 : 0));
        s.set(java.lang.foreign.ValueLayout.JAVA_BYTE, base + io.rdmaffm.verbs.raw.Structs.offset(l, "port_num"), (byte) port);
    }
}
