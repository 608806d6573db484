package io.rdmaffm.perftest.engine;

import io.rdmaffm.perftest.params.Flag;
import io.rdmaffm.perftest.params.DeviceCapabilities;
import io.rdmaffm.perftest.params.DeviceFacts;
import io.rdmaffm.perftest.params.DeviceRules;
import io.rdmaffm.perftest.params.InvalidParameterException;
import io.rdmaffm.perftest.params.ParameterRules;
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
            if (ibPort < 1 || ibPort > device.physicalPortCount()) {
                throw new IllegalArgumentException("device " + name + " has port(s) 1.." + device.physicalPortCount()
                        + ", not " + ibPort);
            }
            PortAttributes port = ctx.queryPort(ibPort);
            if (port.state() != PortState.ACTIVE) {
                throw new IllegalStateException("port " + ibPort + " of " + name + " is " + port.state()
                        + ", not ACTIVE");
            }
            checkPkeyIndex((Integer) p.value(Flag.PKEY_INDEX), port.pkeyTableLength(), name, ibPort, ctx);
            checkLinkFlags(ParameterRules.forcedLink((String) p.value(Flag.FORCE_LINK)), (Integer) p.value(Flag.DLID),
                    port.linkLayer(), name, ibPort);
            DeviceRules.check(p, capabilities(p, name, ctx, device));
            int gidIndex = gidIndex(p, ctx, port);
            GidEntry gid = gidIndex < 0 ? null : ctx.queryGid(ibPort, gidIndex);
            return new OpenDevice(name, ibPort, ctx, device, port, gidIndex, gid);
        } catch (RuntimeException e) {
            ctx.close();
            throw e;
        }
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
            if (ibPort < 1 || ibPort > device.physicalPortCount()) {
                throw new IllegalArgumentException("device " + name + " has port(s) 1.." + device.physicalPortCount()
                        + ", not " + ibPort);
            }
            PortAttributes port = ctx.queryPort(ibPort);
            if (port.state() != PortState.ACTIVE) {
                throw new IllegalStateException("port " + ibPort + " of " + name + " is " + port.state()
                        + ", not ACTIVE");
            }
            int index = gidIndex(name, ibPort, gidIndex, ctx, port);
            GidEntry gid = index < 0 ? null : ctx.queryGid(ibPort, index);
            return new OpenDevice(name, ibPort, ctx, device, port, index, gid);
        } catch (RuntimeException e) {
            ctx.close();
            throw e;
        }
    }

    /**
     * {@code --pkey_index} against the port's P_Key table as the device reports it (pkey_tbl_len; Soft-RoCE has
     * one entry): perftest checks only the device-wide max_pkeys and falls back to 0, which hides a wrong index.
     */
    static void checkPkeyIndex(int index, int tableLength, String name, int ibPort, Context ctx) {
        if (index >= tableLength) {
            throw new IllegalArgumentException("--pkey_index " + index + ": port " + ibPort + " of " + name + " has "
                    + tableLength + " P_Key table entr" + (tableLength == 1 ? "y" : "ies") + " (pkey_tbl_len), index 0"
                    + (tableLength > 1 ? ".." + (tableLength - 1) : "") + " only");
        }
        if (index > 0 && ctx.queryPkey(ibPort, index) == 0) {
            throw new IllegalArgumentException("--pkey_index " + index + ": entry " + index + " of the P_Key table of "
                    + name + " port " + ibPort + " is empty (P_Key 0)");
        }
    }

    /**
     * {@code --force-link} and {@code --dlid} against the port's link layer as the device reports it. perftest takes a
     * forced type as true and goes on without the GRH RoCE needs (IB on Ethernet) or with a GID chosen as on RoCE
     * (Ethernet on InfiniBand); it puts a LID into a RoCE address, where nothing reads it.
     *
     * @param forced "IB", "Ethernet", or null (not given)
     * @param dlid   0: not given
     */
    static void checkLinkFlags(String forced, int dlid, LinkLayer link, String name, int ibPort) {
        String is = link == LinkLayer.ETHERNET ? "Ethernet" : link == LinkLayer.INFINIBAND ? "IB" : "unspecified";
        if (forced != null && !forced.equals(is)) {
            throw new IllegalArgumentException("--force-link " + forced + ": port " + ibPort + " of " + name + " is "
                    + is + " (its link_layer)" + (forced.equals("Ethernet")
                    ? "; for a GRH on InfiniBand give a GID index (-x)" : "; perftest-java runs a port as the link it is"));
        }
        if (dlid != 0 && link != LinkLayer.INFINIBAND) {
            throw new IllegalArgumentException("--dlid " + dlid + ": port " + ibPort + " of " + name + " is " + is
                    + " (its link_layer): RoCE addresses the peer by its GID, a LID applies only on InfiniBand");
        }
    }

    /** What the device reports for the flags that need a capability; the extended query only where one asks. */
    private static DeviceCapabilities capabilities(RunParameters p, String name, Context ctx, DeviceAttributes device) {
        ExtendedDeviceAttributes ex = p.on(Flag.ODP) ? ctx.queryDeviceExtended() : null;
        return new DeviceCapabilities(name, device.physicalPortCount(), ctx.completionVectors(),
                ex != null && ex.onDemandPaging(), ex == null ? 0 : ex.rcOdpCaps());
    }

    /** The given index (checked), perftest's choice on RoCE, or -1 (InfiniBand without -x). */
    private static int gidIndex(RunParameters p, Context ctx, PortAttributes port) {
        return gidIndex(p.endpoint().device(), p.endpoint().ibPort(), p.endpoint().gidIndex(), ctx, port);
    }

    private static int gidIndex(String name, int ibPort, int requested, Context ctx, PortAttributes port) {
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
            return -1;
        }
        int best = GidChoice.best(ctx.gidTable(ibPort), false);
        if (best < 0) {
            throw new IllegalStateException("port " + ibPort + " of " + name
                    + " has no GID (does its netdev have an IP address?)");
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
