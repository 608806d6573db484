package io.rdmaffm.perftest.engine;

import io.rdmaffm.perftest.params.Flag;
import io.rdmaffm.perftest.params.DeviceCapabilities;
import io.rdmaffm.perftest.params.DeviceFacts;
import io.rdmaffm.perftest.params.DeviceRules;
import io.rdmaffm.perftest.params.InvalidParameterException;
import io.rdmaffm.perftest.params.ParameterRules;
import io.rdmaffm.perftest.params.RateLimit;
import io.rdmaffm.perftest.params.RunParameters;
import io.rdmaffm.verbs.Context;
import io.rdmaffm.verbs.DeviceAttributes;
import io.rdmaffm.verbs.ExtendedDeviceAttributes;
import io.rdmaffm.verbs.GidEntry;
import io.rdmaffm.verbs.LinkLayer;
import io.rdmaffm.verbs.PortAttributes;
import io.rdmaffm.verbs.PortState;
import io.rdmaffm.verbs.RdmaDevice;
import io.rdmaffm.verbs.VerbsException;

import java.util.List;

/**
 * The device and port a run uses, opened and checked: the port exists and is ACTIVE, the GID is chosen (or
 * the given one exists). Its {@link #facts()} feed the plan; the warm-up and the run create their resources on
 * its {@link #context()}. Closing it closes the device.
 */
public final class OpenDevice implements AutoCloseable {
    private final String name;
    private final int ibPort;
    private final Context ctx;
    private final DeviceAttributes device;
    private final PortAttributes port;
    private final boolean roce;
    private final int gidIndex;
    private final GidEntry gid;
    /** The rate limit as the device resolved it (an implicit HW on RoCE runs as SW). */
    private RateLimit rateLimit;

    private OpenDevice(String name, int ibPort, Context ctx, DeviceAttributes device, PortAttributes port,
            int gidIndex, GidEntry gid) {
        this.name = name;
        this.ibPort = ibPort;
        this.ctx = ctx;
        this.device = device;
        this.port = port;
        this.roce = port.linkLayer() == LinkLayer.ETHERNET;
        this.gidIndex = gidIndex;
        this.gid = gid;
    }

    /**
     * The name of the device {@code p} names, or of the first device when it names none.
     *
     * @throws InvalidParameterException when there is no device at all
     */
    public static String deviceName(RunParameters p) {
        if (p.endpoint().device() != null) {
            return p.endpoint().device();
        }
        List<RdmaDevice> all = RdmaDevice.list();
        if (all.isEmpty()) {
            throw new InvalidParameterException(
                    "no RDMA device found (for Soft-RoCE: scripts/softroce-up.sh, or run under scripts/rdma-env.sh)");
        }
        return all.get(0).name();
    }

    /**
     * Opens the device and port of {@code p} (whose device is named) and chooses the GID.
     *
     * @throws IllegalArgumentException for a port or GID index the device does not have
     * @throws IllegalStateException    for a port that is not ACTIVE, or a RoCE port without a GID
     */
    public static OpenDevice open(RunParameters p) {
        String name = p.endpoint().device();
        int ibPort = p.endpoint().ibPort();
        Context ctx = Context.open(name);
        try {
            DeviceAttributes device = ctx.queryDevice();
            PortAttributes port = activePort(ctx, device, name, ibPort);
            int pkeyIndex = (Integer) p.value(Flag.PKEY_INDEX);
            DeviceRules.pkeyIndex(pkeyIndex, port.pkeyTableLength(), name, ibPort, () -> ctx.queryPkey(ibPort, pkeyIndex));
            DeviceRules.linkFlags(ParameterRules.forcedLink((String) p.value(Flag.FORCE_LINK)),
                    (Integer) p.value(Flag.DLID), linkLayer(port.linkLayer()), name, ibPort);
            DeviceCapabilities caps = capabilities(p, name, ctx, device, port);
            DeviceRules.check(p, caps);
            int gidIndex = gidIndex(p, ctx, port);
            GidEntry gid = gidIndex < 0 ? null : ctx.queryGid(ibPort, gidIndex);
            if (p.on(Flag.MCG) && gid != null && gid.isIpv4Mapped()) {
                // perftest sets out the same way and stops at its exchange ("Found Incompatibility issue with GID
                // types"): the group's GID is IPv6, so this side's must be too.
                throw new InvalidParameterException("-g/--mcg: GID index " + gidIndex + " of " + name + " port " + ibPort
                        + " is IPv4-mapped and a multicast group's GID is IPv6: choose an IPv6 GID (--ipv6, or -x "
                        + "with an index the 'devices' command lists without an IPv4 address)");
            }
            OpenDevice opened = new OpenDevice(name, ibPort, ctx, device, port, gidIndex, gid);
            opened.rateLimit = DeviceRules.rateLimit(p, caps);
            return opened;
        } catch (RuntimeException e) {
            ctx.close();
            throw e;
        }
    }

    /** The port, which the device must have and which must be ACTIVE (the tools' check and the fabric worker's). */
    private static PortAttributes activePort(Context ctx, DeviceAttributes device, String name, int ibPort) {
        if (ibPort < 1 || ibPort > device.physicalPortCount()) {
            throw new IllegalArgumentException("device " + name + " has port(s) 1.." + device.physicalPortCount()
                    + ", not " + ibPort);
        }
        PortAttributes port = ctx.queryPort(ibPort);
        if (port.state() != PortState.ACTIVE) {
            throw new IllegalStateException("port " + ibPort + " of " + name + " is " + port.state()
                    + ", not ACTIVE");
        }
        return port;
    }

    /** The link layer as DeviceRules names it: "Ethernet", "IB" or "unspecified". */
    private static String linkLayer(LinkLayer link) {
        return link == LinkLayer.ETHERNET ? "Ethernet" : link == LinkLayer.INFINIBAND ? "IB" : "unspecified";
    }

    /**
     * Opens a port for a program that is not one of perftest's tools (the fabric worker): the same checks of the
     * port and the same GID choice as {@link #open(RunParameters)}, without the tools' flags.
     *
     * @param name      the device
     * @param ibPort    the port, from 1
     * @param gidIndex  the GID index, or -1 for perftest's choice
     * @throws IllegalArgumentException for a port or GID index the device does not have
     * @throws IllegalStateException    for a port that is not ACTIVE, or a RoCE port without a GID
     */
    public static OpenDevice openPort(String name, int ibPort, int gidIndex) {
        Context ctx = Context.open(name);
        try {
            DeviceAttributes device = ctx.queryDevice();
            PortAttributes port = activePort(ctx, device, name, ibPort);
            int index = gidIndex(name, ibPort, gidIndex, false, ctx, port);
            GidEntry gid = index < 0 ? null : ctx.queryGid(ibPort, index);
            return new OpenDevice(name, ibPort, ctx, device, port, index, gid);
        } catch (RuntimeException e) {
            ctx.close();
            throw e;
        }
    }

    /** What the device reports for the flags that need a capability; the extended query only where one asks. */
    private static DeviceCapabilities capabilities(RunParameters p, String name, Context ctx, DeviceAttributes device,
            PortAttributes port) {
        boolean pacing = "PP".equals(p.value(Flag.RATE_LIMIT_TYPE));
        ExtendedDeviceAttributes ex = p.on(Flag.ODP) || pacing ? ctx.queryDeviceExtended() : null;
        String link = port.linkLayer() == LinkLayer.ETHERNET ? "Ethernet"
                : port.linkLayer() == LinkLayer.INFINIBAND ? "IB" : "unspecified";
        return new DeviceCapabilities(name, device.physicalPortCount(), ctx.completionVectors(),
                ex != null && ex.onDemandPaging(), ex == null ? 0 : ex.rcOdpCaps(), link,
                ex == null ? 0 : ex.packetPacingMaxKbps(), device.maxMcastGroups(), device.maxMcastQpAttach(),
                (device.deviceCapFlags() & DeviceCapabilities.IBV_DEVICE_XRC) != 0, KernelDriver.of(name));
    }

    /**
     * {@code p} with the rate limit type the device resolved: where HW was implied on a port without a static rate,
     * SW, said on stderr as perftest says it (its line, without its colour).
     */
    public RunParameters rateLimited(RunParameters p) {
        if ("SW".equals(p.value(Flag.RATE_LIMIT_TYPE)) && (Integer) p.value(Flag.BURST_SIZE) == 0) {
            System.err.println(" Setting burst size to tx depth = " + p.workload().txDepth()); // perftest's line
        }
        if (rateLimit.type() == RateLimit.Type.SW && !"SW".equals(p.value(Flag.RATE_LIMIT_TYPE))) {
            System.err.println("The QP failed to accept HW rate limit, providing SW rate limit (port " + ibPort
                    + " of " + name + " is Ethernet: no static rate)");
            return p.withFlag(Flag.RATE_LIMIT_TYPE, "SW");
        }
        return p;
    }

    /** The given index (checked), perftest's choice on RoCE, or -1 (InfiniBand without -x). */
    private static int gidIndex(RunParameters p, Context ctx, PortAttributes port) {
        return gidIndex(p.endpoint().device(), p.endpoint().ibPort(), p.endpoint().gidIndex(), p.on(Flag.IPV6), ctx,
                port);
    }

    private static int gidIndex(String name, int ibPort, int requested, boolean ipv6, Context ctx,
            PortAttributes port) {
        if (requested >= 0) {
            try {
                ctx.queryGid(ibPort, requested);
            } catch (VerbsException e) {
                throw new IllegalArgumentException("GID index " + requested + " of " + name + " port "
                        + ibPort + " is empty or out of range (see the 'devices' command for the table)");
            }
            return requested;
        }
        if (port.linkLayer() != LinkLayer.ETHERNET) {
            if (ipv6) {
                throw new InvalidParameterException("--ipv6 chooses among RoCE GIDs: port " + ibPort + " of " + name
                        + " is " + port.linkLayer() + " (its address is its LID)");
            }
            return -1;
        }
        List<GidEntry> table = ctx.gidTable(ibPort);
        int best = GidChoice.best(table, ipv6);
        if (best < 0) {
            throw new IllegalStateException("port " + ibPort + " of " + name
                    + " has no GID (does its netdev have an IP address?)");
        }
        String noIpv6 = ipv6 ? GidChoice.noIpv6(table, best) : null;
        if (noIpv6 != null) {
            throw new InvalidParameterException("--ipv6: port " + ibPort + " of " + name + " " + noIpv6);
        }
        return best;
    }

    /** What the plan needs to know. */
    public DeviceFacts facts() {
        return new DeviceFacts(device.vendorId(), device.maxQpRdAtom(), port.activeMtu().value(),
                port.maxMessageSize());
    }

    /**
     * "port 1 of rxe0 is DOWN" when the port has left ACTIVE (its link went down), else null: said next to a run's
     * failure, which the completion's status alone (LOC_QP_OP_ERR on Soft-RoCE) does not explain.
     */
    public String portTrouble() {
        try {
            PortState state = ctx.queryPort(ibPort).state();
            return state == PortState.ACTIVE ? null : "port " + ibPort + " of " + name + " is " + state;
        } catch (RuntimeException e) {
            return null; // the device may be going away: the failure's own message stands
        }
    }

    /**
     * The port's rate in Gb/s, active width x active speed as {@code ibv_query_port} reports them (the kernel's
     * {@code ports/N/rate}, which doctor reads); 0 when the device reports codes not known here.
     */
    public double portRateGbps() {
        return port.rateGbps();
    }

    /** The opened device. */
    public Context context() {
        return ctx;
    }

    /** The device's name. */
    public String name() {
        return name;
    }

    /** The port in use ({@code -i}). */
    public int ibPort() {
        return ibPort;
    }

    /** The port's LID (0 on RoCE). */
    public int lid() {
        return port.lid();
    }

    /** True on an Ethernet link layer (RoCE). */
    public boolean roce() {
        return roce;
    }

    /** The GID index in use, -1 without GID. */
    public int gidIndex() {
        return gidIndex;
    }

    /** Whether a GID is in use (then the keys carry it). */
    public boolean withGid() {
        return gidIndex >= 0;
    }

    /** The GID in use, or null. */
    public byte[] gid() {
        return gid == null ? null : gid.gid();
    }

    @Override
    public void close() {
        ctx.close();
    }
}
