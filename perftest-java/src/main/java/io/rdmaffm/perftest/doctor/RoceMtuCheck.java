package io.rdmaffm.perftest.doctor;

import io.rdmaffm.verbs.topology.NetDevice;
import io.rdmaffm.verbs.topology.Topology;

/** {@code roce-mtu}: the netdev MTU leaves room for the 4096-byte RoCE MTU ({@link Doctor#iboeMtu}). */
record RoceMtuCheck(Topology topo) implements Check<DevicePort> {
    private static final CheckId ID = CheckId.ROCE_MTU;

    @Override
    public CheckResult examine(DevicePort dp) {
        return dp.withRoceNetdev(ID, "", topo, nd -> mtu(dp, nd));
    }

    private static CheckResult mtu(DevicePort dp, NetDevice nd) {
        String name = nd.name();
        if (!nd.mtu().known()) {
            return dp.na(ID, "MTU of " + name + " unknown: " + nd.mtu().problem());
        }
        int mtu = nd.mtu().value();
        int roce = Doctor.iboeMtu(mtu);
        Numbers.Builder n = Numbers.builder().text("netdev", name).whole("netdevMtu", mtu).whole("roceMtu", roce);
        if (mtu >= 4096 + Doctor.ROCE_HEADERS) {
            return dp.result(ID, Verdict.OK, name + " MTU " + mtu + " allows the 4096-byte RoCE MTU", n);
        }
        return dp.result(ID, Verdict.WARN, name + " MTU " + mtu + " limits the RoCE MTU to "
                + (roce == 0 ? "nothing" : Integer.toString(roce)) + " (4096 needs a netdev MTU of at least "
                + (4096 + Doctor.ROCE_HEADERS) + "; 9000 is usual)", n);
    }
}
