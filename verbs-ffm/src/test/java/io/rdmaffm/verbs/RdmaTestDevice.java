package io.rdmaffm.verbs;

import org.junit.jupiter.api.Assumptions;

import java.util.List;

/**
 * Which real device the rdma-tagged tests use. The test scripts export RDMA_DEVICE (and RDMA_GID_INDEX,
 * RDMA_IP, RDMA_NETDEV) for the Soft-RoCE device they brought up; then a missing device is a failure.
 * Without RDMA_DEVICE, tests use the first device, or skip with the reason when there is none.
 */
public final class RdmaTestDevice {
    private RdmaTestDevice() {
    }

    /** The device name to test on; skips (never passes) the calling test when none is available. */
    public static String name() {
        String wanted = System.getenv("RDMA_DEVICE");
        List<RdmaDevice> all;
        try {
            all = RdmaDevice.list();
        } catch (RuntimeException | LinkageError e) {
            if (wanted != null) {
                throw new AssertionError("RDMA_DEVICE=" + wanted + " but libibverbs is unusable: " + e, e);
            }
            Assumptions.abort("libibverbs unusable here: " + e.getMessage());
            throw new AssertionError("unreachable");
        }
        if (wanted != null) {
            for (RdmaDevice d : all) {
                if (d.name().equals(wanted)) {
                    return wanted;
                }
            }
            throw new AssertionError("RDMA_DEVICE=" + wanted + " is not among the devices " + all);
        }
        Assumptions.assumeFalse(all.isEmpty(),
                "no RDMA device on this host: run the rdma tests with scripts/test.sh (Soft-RoCE natively or in a VM)");
        return all.get(0).name();
    }

    /** GID index for RoCE v2 over IPv4 (RDMA_GID_INDEX, default 1 as on a fresh rxe device). */
    public static int gidIndex() {
        String v = System.getenv("RDMA_GID_INDEX");
        return v == null ? 1 : Integer.parseInt(v);
    }

    /** The IPv4 address of the netdev under the device, when the scripts say it. */
    public static String ipv4() {
        return System.getenv("RDMA_IP");
    }

    /** The device's IPv4 address: {@link #ipv4()}, else the address in its IPv4-mapped GID ({@link #gidIndex()}). */
    public static java.net.InetAddress ipv4Address() throws java.net.UnknownHostException {
        String device = name();
        if (ipv4() != null) {
            return java.net.InetAddress.getByName(ipv4());
        }
        try (Context ctx = Context.open(device)) {
            return ctx.queryGid(1, gidIndex()).address();
        }
    }

    public static String netdev() {
        return System.getenv("RDMA_NETDEV");
    }
}
