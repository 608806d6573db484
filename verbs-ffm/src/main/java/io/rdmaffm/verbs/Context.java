package io.rdmaffm.verbs;

import io.rdmaffm.verbs.internal.Errors;
import io.rdmaffm.verbs.raw.Downcalls;
import io.rdmaffm.verbs.raw.Ibv;
import io.rdmaffm.verbs.raw.LibC;
import io.rdmaffm.verbs.raw.Offsets.ibv_device_attr;
import io.rdmaffm.verbs.raw.Offsets.ibv_port_attr;
import io.rdmaffm.verbs.raw.Offsets;
import io.rdmaffm.verbs.raw.Shim;
import io.rdmaffm.verbs.raw.ShimInfo;
import io.rdmaffm.verbs.raw.Structs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * An open RDMA device ({@code struct ibv_context}): the root of every other verbs object. Queries are
 * safe from any thread; closing is refused while objects created from it are open, and waits for queries in
 * progress on other threads (later ones throw IllegalStateException).
 */
public final class Context extends NativeObject {
    /** Contexts librdmacm opened, one wrapper per ibv_context so PDs made through any id on it are shared. */
    private static final Map<Long, Context> BORROWED = new ConcurrentHashMap<>();

    private final RdmaDevice device;
    private final boolean borrowed;

    private Context(RdmaDevice device, MemorySegment handle, boolean borrowed) {
        super(null, "context of " + device.name(), handle);
        this.device = device;
        this.borrowed = borrowed;
    }

    /**
     * The Context of an ibv_context that librdmacm opened ({@code rdma_cm_id->verbs}). librdmacm keeps it open
     * for the life of the process, so {@link #close()} on it does nothing.
     */
    static Context borrowed(MemorySegment ibvContext) {
        return BORROWED.computeIfAbsent(ibvContext.address(), a -> {
            MemorySegment ctx = ibvContext.reinterpret(Structs.ibv_context.byteSize());
            MemorySegment dev = ctx.get(ADDRESS, Offsets.ibv_context.device);
            return new Context(RdmaDevice.describe(dev), ctx, true);
        });
    }

    /** True for the context of an rdma_cm id, which librdmacm owns. */
    public boolean isBorrowed() {
        return borrowed;
    }

    /**
     * {@code ibv_close_device}; refused while objects created from this context are open. Does nothing for a
     * context obtained from an rdma_cm id ({@link #isBorrowed()}), which librdmacm owns.
     */
    @Override
    public void close() {
        if (!borrowed) {
            super.close();
        }
    }

    /** Opens the device with this name ({@code ibv_open_device}). */
    public static Context open(String deviceName) {
        ShimInfo.requireCompatible();
        MemorySegment[] found = {MemorySegment.NULL};
        RdmaDevice[] described = {null};
        int[] errno = {0};
        RdmaDevice.withDeviceList((dev, i) -> {
            RdmaDevice d = RdmaDevice.describe(dev);
            if (!d.name().equals(deviceName)) {
                return false;
            }
            described[0] = d;
            try {
                found[0] = (MemorySegment) Ibv.ibv_open_device.handle().invokeExact(Downcalls.errnoState(), dev);
            } catch (Throwable t) {
                throw Errors.unchecked(t);
            }
            errno[0] = Downcalls.errno();
            return true;
        });
        if (described[0] == null) {
            List<RdmaDevice> all = RdmaDevice.list();
            throw new IllegalArgumentException("no RDMA device named '" + deviceName + "'"
                    + (all.isEmpty() ? " (no RDMA devices on this host)" : "; devices: " + names(all)));
        }
        if (found[0].equals(MemorySegment.NULL)) {
            throw Errors.of("ibv_open_device", errno[0], "device " + deviceName);
        }
        return new Context(described[0], found[0].reinterpret(Structs.ibv_context.byteSize()), false);
    }

    /** Opens the first device libibverbs lists; throws if there is none. */
    public static Context openFirst() {
        List<RdmaDevice> all = RdmaDevice.list();
        if (all.isEmpty()) {
            throw new IllegalStateException("no RDMA devices on this host (for Soft-RoCE: modprobe rdma_rxe && "
                    + "rdma link add rxe0 type rxe netdev <interface>)");
        }
        return open(all.get(0).name());
    }

    private static String names(List<RdmaDevice> all) {
        StringBuilder sb = new StringBuilder();
        for (RdmaDevice d : all) {
            sb.append(sb.isEmpty() ? "" : ", ").append(d.name());
        }
        return sb.toString();
    }

    public RdmaDevice device() {
        return device;
    }

    public String name() {
        return device.name();
    }

    /** Number of completion vectors (num_comp_vectors), the valid range of a CQ's comp_vector. */
    public int completionVectors() {
        return call(h -> h.get(JAVA_INT, Offsets.ibv_context.num_comp_vectors));
    }

    /** The async-event fd (async_fd), for callers that wait on it in their own event loop. */
    public int asyncEventFd() {
        return call(h -> h.get(JAVA_INT, Offsets.ibv_context.async_fd));
    }

    /** {@code ibv_alloc_pd}. */
    public ProtectionDomain allocateProtectionDomain() {
        return life.create(h -> {
            MemorySegment pd = (MemorySegment) Ibv.ibv_alloc_pd.handle().invokeExact(Downcalls.errnoState(), h);
            if (pd.equals(MemorySegment.NULL)) {
                throw Errors.of("ibv_alloc_pd", Downcalls.errno(), "device " + name());
            }
            return new ProtectionDomain(this, pd.reinterpret(Structs.ibv_pd.byteSize()));
        });
    }

    /** {@code ibv_create_comp_channel}. */
    public CompletionChannel createCompletionChannel() {
        return life.create(h -> {
            MemorySegment ch = (MemorySegment) Ibv.ibv_create_comp_channel.handle().invokeExact(Downcalls.errnoState(), h);
            if (ch.equals(MemorySegment.NULL)) {
                throw Errors.of("ibv_create_comp_channel", Downcalls.errno(), "device " + name());
            }
            return new CompletionChannel(this, ch.reinterpret(Structs.ibv_comp_channel.byteSize()));
        });
    }

    /** {@code ibv_create_cq} without a completion channel (busy polling). */
    public CompletionQueue createCompletionQueue(int entries) {
        return CompletionQueue.create(this, entries, null, 0);
    }

    /** {@code ibv_create_cq} whose events go to {@code channel} (may be null) on completion vector {@code vector}. */
    public CompletionQueue createCompletionQueue(int entries, CompletionChannel channel, int vector) {
        return CompletionQueue.create(this, entries, channel, vector);
    }

    /** {@code ibv_create_cq_ex}: an extended CQ, polled with start/next/end_poll; same API. */
    public CompletionQueue createExtendedCompletionQueue(int entries, CompletionChannel channel, int vector) {
        return CompletionQueue.createExtended(this, entries, channel, vector);
    }

    /** Async events of this device ({@code ibv_get_async_event}); one reader at a time. */
    public AsyncEvents asyncEvents() {
        handle();
        return new AsyncEvents(this);
    }

    /** {@code ibv_query_device}. */
    public DeviceAttributes queryDevice() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(Structs.ibv_device_attr);
            int rc = call(h -> (int) Ibv.ibv_query_device.handle().invokeExact(Downcalls.errnoState(), h, a));
            Errors.check("ibv_query_device", rc, "device " + name());
            return deviceAttributes(a);
        }
    }

    /** {@code ibv_query_port} (the inline version, through the shim). */
    public PortAttributes queryPort(int port) {
        checkPortNumber(port);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(Structs.ibv_port_attr);
            int rc = call(h -> (int) Shim.rdmaffm_query_port.handle().invokeExact(Downcalls.errnoState(), h, (byte) port, a));
            Errors.check("ibv_query_port", rc, "device " + name() + ", port " + port);
            return portAttributes(port, a);
        }
    }

    /**
     * odp_caps.general_caps of {@code ibv_query_device_ex}: bit 0 (IBV_ODP_SUPPORT) says the device can
     * register on-demand-paging memory. 0 when the query fails.
     */
    long onDemandPagingCaps() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(Structs.ibv_device_attr_ex);
            int rc = call(h -> (int) Shim.rdmaffm_query_device_ex.handle().invokeExact(Downcalls.errnoState(), h, a));
            return rc == 0 ? a.get(JAVA_LONG, Offsets.ibv_device_attr_ex.odp_caps__general_caps) : 0;
        }
    }

    /**
     * The capabilities {@code ibv_query_device_ex} adds to {@link #queryDevice()}: on-demand paging and packet
     * pacing. A device whose provider has no extended query reports neither (all zero), as libibverbs' fallback
     * does.
     */
    public ExtendedDeviceAttributes queryDeviceExtended() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(Structs.ibv_device_attr_ex);
            int rc = call(h -> (int) Shim.rdmaffm_query_device_ex.handle().invokeExact(Downcalls.errnoState(), h, a));
            Errors.check("ibv_query_device_ex", rc, "device " + name());
            long pacing = Offsets.ibv_device_attr_ex.packet_pacing_caps;
            return new ExtendedDeviceAttributes(a.get(JAVA_LONG, Offsets.ibv_device_attr_ex.odp_caps__general_caps),
                    a.get(JAVA_INT, Offsets.ibv_device_attr_ex.odp_caps__per_transport_caps__rc_odp_caps),
                    a.get(JAVA_INT, Offsets.ibv_device_attr_ex.odp_caps__per_transport_caps__ud_odp_caps),
                    a.get(JAVA_INT, pacing), a.get(JAVA_INT, pacing + 4), a.get(JAVA_INT, pacing + 8));
        }
    }

    /** Port numbers of this device: 1..phys_port_cnt. */
    public int portCount() {
        return queryDevice().physicalPortCount();
    }

    /**
     * One GID table entry ({@code ibv_query_gid_ex}). Throws {@link VerbsException} for an empty or
     * out-of-range index (ENODATA / EINVAL), naming the port's table size.
     */
    public GidEntry queryGid(int port, int index) {
        checkPortNumber(port);
        if (index < 0) {
            throw new IllegalArgumentException("GID index must be >= 0, not " + index);
        }
        StructLayout l = Structs.ibv_gid_entry;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment e = arena.allocate(l);
            int rc = call(h -> (int) Ibv._ibv_query_gid_ex.handle().invokeExact(Downcalls.errnoState(), h, port, index, e, 0,
                    l.byteSize()));
            if (rc != 0) {
                int errno = Errors.errnoOf(rc);
                int len = queryPort(port).gidTableLength();
                String why = index >= len ? "index out of range, the table has " + len + " entries"
                        : "empty GID slot";
                throw Errors.of("ibv_query_gid_ex", errno,
                        "device " + name() + ", port " + port + ", GID index " + index + ": " + why);
            }
            return gidFrom(e);
        }
    }

    /** Every populated GID of every port ({@code ibv_query_gid_table}), in port and index order. */
    public List<GidEntry> gidTable() {
        int total = 0;
        int ports = portCount();
        for (int p = 1; p <= ports; p++) {
            total += queryPort(p).gidTableLength();
        }
        StructLayout l = Structs.ibv_gid_entry;
        List<GidEntry> out = new ArrayList<>();
        if (total == 0) {
            return out;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment entries = arena.allocate(l, total);
            long max = total;
            long n = call(h -> (long) Ibv._ibv_query_gid_table.handle().invokeExact(Downcalls.errnoState(), h, entries, max,
                    0, l.byteSize()));
            if (n < 0) {
                throw Errors.of("ibv_query_gid_table", (int) -n, "device " + name());
            }
            for (long i = 0; i < n; i++) {
                out.add(gidFrom(entries.asSlice(i * l.byteSize(), l.byteSize())));
            }
        }
        out.sort((a, b) -> a.port() != b.port() ? Integer.compare(a.port(), b.port()) : Integer.compare(a.index(), b.index()));
        return out;
    }

    /** The populated GIDs of one port. */
    public List<GidEntry> gidTable(int port) {
        checkPortNumber(port);
        List<GidEntry> out = new ArrayList<>();
        for (GidEntry g : gidTable()) {
            if (g.port() == port) {
                out.add(g);
            }
        }
        return out;
    }

    /** {@code ibv_query_pkey}: the P_Key at an index, host order. */
    public int queryPkey(int port, int index) {
        checkPortNumber(port);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment pkey = arena.allocate(JAVA_SHORT);
            int rc = call(h -> (int) Ibv.ibv_query_pkey.handle().invokeExact(Downcalls.errnoState(), h, (byte) port, index,
                    pkey));
            Errors.check("ibv_query_pkey", rc, "device " + name() + ", port " + port + ", pkey index " + index);
            return Short.toUnsignedInt(Short.reverseBytes(pkey.get(JAVA_SHORT, 0)));
        }
    }

    private static GidEntry gidFrom(MemorySegment e) {
        byte[] gid = e.asSlice(Offsets.ibv_gid_entry.gid, 16).toArray(JAVA_BYTE);
        int ifindex = e.get(JAVA_INT, Offsets.ibv_gid_entry.ndev_ifindex);
        return new GidEntry(e.get(JAVA_INT, Offsets.ibv_gid_entry.port_num), e.get(JAVA_INT, Offsets.ibv_gid_entry.gid_index),
                gid, GidType.of(e.get(JAVA_INT, Offsets.ibv_gid_entry.gid_type)), ifindex, netdevName(ifindex));
    }

    static String netdevName(int ifindex) {
        if (ifindex <= 0) {
            return "";
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(16 + 1);
            MemorySegment r = (MemorySegment) LibC.if_indextoname.handle().invokeExact(Downcalls.errnoState(), ifindex, buf);
            return r.equals(MemorySegment.NULL) ? "" : buf.getString(0);
        } catch (Throwable t) {
            return "";
        }
    }

    private void checkPortNumber(int port) {
        if (port < 1 || port > 255) {
            throw new IllegalArgumentException("port numbers start at 1 (and fit in 8 bits), not " + port);
        }
        handle();
    }

    private static DeviceAttributes deviceAttributes(MemorySegment a) {
        return new DeviceAttributes(a.getString(ibv_device_attr.fw_ver),
                Long.reverseBytes(a.get(JAVA_LONG, ibv_device_attr.node_guid)),
                Long.reverseBytes(a.get(JAVA_LONG, ibv_device_attr.sys_image_guid)),
                a.get(JAVA_LONG, ibv_device_attr.max_mr_size), a.get(JAVA_LONG, ibv_device_attr.page_size_cap),
                i32(a, ibv_device_attr.vendor_id), i32(a, ibv_device_attr.vendor_part_id),
                i32(a, ibv_device_attr.hw_ver), i32(a, ibv_device_attr.max_qp), i32(a, ibv_device_attr.max_qp_wr),
                i32(a, ibv_device_attr.device_cap_flags), i32(a, ibv_device_attr.max_sge),
                i32(a, ibv_device_attr.max_sge_rd), i32(a, ibv_device_attr.max_cq), i32(a, ibv_device_attr.max_cqe),
                i32(a, ibv_device_attr.max_mr), i32(a, ibv_device_attr.max_pd),
                i32(a, ibv_device_attr.max_qp_rd_atom), i32(a, ibv_device_attr.max_res_rd_atom),
                i32(a, ibv_device_attr.max_qp_init_rd_atom), i32(a, ibv_device_attr.atomic_cap),
                i32(a, ibv_device_attr.max_mw), i32(a, ibv_device_attr.max_ah), i32(a, ibv_device_attr.max_srq),
                i32(a, ibv_device_attr.max_srq_wr), i32(a, ibv_device_attr.max_srq_sge),
                u16(a, ibv_device_attr.max_pkeys), u8(a, ibv_device_attr.local_ca_ack_delay),
                u8(a, ibv_device_attr.phys_port_cnt), i32(a, ibv_device_attr.max_mcast_grp),
                i32(a, ibv_device_attr.max_mcast_qp_attach));
    }

    private static PortAttributes portAttributes(int port, MemorySegment a) {
        return new PortAttributes(port, PortState.of(i32(a, ibv_port_attr.state)),
                Mtu.of(i32(a, ibv_port_attr.max_mtu)), Mtu.of(i32(a, ibv_port_attr.active_mtu)),
                i32(a, ibv_port_attr.gid_tbl_len), i32(a, ibv_port_attr.port_cap_flags),
                Integer.toUnsignedLong(i32(a, ibv_port_attr.max_msg_sz)), i32(a, ibv_port_attr.bad_pkey_cntr),
                i32(a, ibv_port_attr.qkey_viol_cntr), u16(a, ibv_port_attr.pkey_tbl_len), u16(a, ibv_port_attr.lid),
                u16(a, ibv_port_attr.sm_lid), u8(a, ibv_port_attr.lmc), u8(a, ibv_port_attr.max_vl_num),
                u8(a, ibv_port_attr.sm_sl), u8(a, ibv_port_attr.subnet_timeout), u8(a, ibv_port_attr.active_width),
                u8(a, ibv_port_attr.active_speed), u8(a, ibv_port_attr.phys_state),
                LinkLayer.of(u8(a, ibv_port_attr.link_layer)), u8(a, ibv_port_attr.flags),
                u16(a, ibv_port_attr.port_cap_flags2));
    }

    private static int i32(MemorySegment s, long offset) {
        return s.get(JAVA_INT, offset);
    }

    private static int u16(MemorySegment s, long offset) {
        return Short.toUnsignedInt(s.get(JAVA_SHORT, offset));
    }

    private static int u8(MemorySegment s, long offset) {
        return Byte.toUnsignedInt(s.get(JAVA_BYTE, offset));
    }

    @Override
    void destroy(MemorySegment handle) {
        destroyWith(Ibv.ibv_close_device.handle(), "ibv_close_device", handle, "device " + name());
    }

    @Override
    public String toString() {
        return "Context[" + name() + (borrowed ? ", from rdma_cm" : "") + (isClosedInternal() ? ", closed" : "") + "]";
    }
}
