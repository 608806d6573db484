package io.rdmaffm.verbs;

import io.rdmaffm.verbs.raw.Downcalls;
import io.rdmaffm.verbs.raw.Ibv;
import io.rdmaffm.verbs.raw.LibC;
import io.rdmaffm.verbs.raw.Shim;
import io.rdmaffm.verbs.raw.ShimInfo;
import io.rdmaffm.verbs.raw.Structs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.util.ArrayList;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * An open RDMA device ({@code struct ibv_context}): the root of every other verbs object. Queries are
 * safe from any thread; closing is refused while objects created from it are open.
 */
public final class Context extends NativeObject {
    static {
        io.rdmaffm.verbs.internal.VerbsBridge.install(new Bridge());
    }

    /** Contexts librdmacm opened, one wrapper per ibv_context so PDs made through any id on it are shared. */
    private static final java.util.Map<Long, Context> BORROWED = new java.util.concurrent.ConcurrentHashMap<>();

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
            MemorySegment dev = ctx.get(ADDRESS, Structs.offset(Structs.ibv_context, "device"));
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
                found[0] = (MemorySegment) Ibv.ibv_open_device().invokeExact(Downcalls.errnoState(), dev);
            } catch (Throwable t) {
                throw new IllegalStateException(t);
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
            throw VerbsException.of("ibv_open_device", errno[0], "device " + deviceName);
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

    @Override
    String describeSuffix() {
        return "";
    }

    /** Number of completion vectors (num_comp_vectors), the valid range of a CQ's comp_vector. */
    public int completionVectors() {
        return handle().get(JAVA_INT, Structs.offset(Structs.ibv_context, "num_comp_vectors"));
    }

    /** The async-event fd (async_fd), for callers that wait on it in their own event loop. */
    public int asyncEventFd() {
        return handle().get(JAVA_INT, Structs.offset(Structs.ibv_context, "async_fd"));
    }

    /** {@code ibv_alloc_pd}. */
    public ProtectionDomain allocateProtectionDomain() {
        try {
            MemorySegment pd = (MemorySegment) Ibv.ibv_alloc_pd().invokeExact(Downcalls.errnoState(), handle());
            if (pd.equals(MemorySegment.NULL)) {
                throw VerbsException.of("ibv_alloc_pd", Downcalls.errno(), "device " + name());
            }
            return new ProtectionDomain(this, pd.reinterpret(Structs.ibv_pd.byteSize()));
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** {@code ibv_create_comp_channel}. */
    public CompletionChannel createCompletionChannel() {
        try {
            MemorySegment ch = (MemorySegment) Ibv.ibv_create_comp_channel().invokeExact(Downcalls.errnoState(), handle());
            if (ch.equals(MemorySegment.NULL)) {
                throw VerbsException.of("ibv_create_comp_channel", Downcalls.errno(), "device " + name());
            }
            return new CompletionChannel(this, ch.reinterpret(Structs.ibv_comp_channel.byteSize()));
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
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
        StructLayout l = Structs.ibv_device_attr;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(l);
            int rc = (int) Ibv.ibv_query_device().invokeExact(Downcalls.errnoState(), handle(), a);
            check("ibv_query_device", rc, "device " + name());
            return new DeviceAttributes(
                    a.getString(Structs.offset(l, "fw_ver")),
                    Long.reverseBytes(a.get(JAVA_LONG, Structs.offset(l, "node_guid"))),
                    Long.reverseBytes(a.get(JAVA_LONG, Structs.offset(l, "sys_image_guid"))),
                    a.get(JAVA_LONG, Structs.offset(l, "max_mr_size")),
                    a.get(JAVA_LONG, Structs.offset(l, "page_size_cap")),
                    i32(a, l, "vendor_id"), i32(a, l, "vendor_part_id"), i32(a, l, "hw_ver"), i32(a, l, "max_qp"),
                    i32(a, l, "max_qp_wr"), i32(a, l, "device_cap_flags"), i32(a, l, "max_sge"),
                    i32(a, l, "max_sge_rd"), i32(a, l, "max_cq"), i32(a, l, "max_cqe"), i32(a, l, "max_mr"),
                    i32(a, l, "max_pd"), i32(a, l, "max_qp_rd_atom"), i32(a, l, "max_res_rd_atom"),
                    i32(a, l, "max_qp_init_rd_atom"), i32(a, l, "atomic_cap"), i32(a, l, "max_mw"),
                    i32(a, l, "max_ah"), i32(a, l, "max_srq"), i32(a, l, "max_srq_wr"), i32(a, l, "max_srq_sge"),
                    Short.toUnsignedInt(a.get(JAVA_SHORT, Structs.offset(l, "max_pkeys"))),
                    u8(a, l, "local_ca_ack_delay"), u8(a, l, "phys_port_cnt"));
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** {@code ibv_query_port} (the inline version, through the shim). */
    public PortAttributes queryPort(int port) {
        checkPortNumber(port);
        StructLayout l = Structs.ibv_port_attr;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(l);
            int rc = (int) Shim.rdmaffm_query_port().invokeExact(Downcalls.errnoState(), handle(), (byte) port, a);
            check("ibv_query_port", rc, "device " + name() + ", port " + port);
            return new PortAttributes(port,
                    PortState.of(i32(a, l, "state")),
                    Mtu.of(i32(a, l, "max_mtu")),
                    Mtu.of(i32(a, l, "active_mtu")),
                    i32(a, l, "gid_tbl_len"),
                    i32(a, l, "port_cap_flags"),
                    Integer.toUnsignedLong(i32(a, l, "max_msg_sz")),
                    i32(a, l, "bad_pkey_cntr"),
                    i32(a, l, "qkey_viol_cntr"),
                    u16(a, l, "pkey_tbl_len"), u16(a, l, "lid"), u16(a, l, "sm_lid"),
                    u8(a, l, "lmc"), u8(a, l, "max_vl_num"), u8(a, l, "sm_sl"), u8(a, l, "subnet_timeout"),
                    u8(a, l, "active_width"), u8(a, l, "active_speed"), u8(a, l, "phys_state"),
                    LinkLayer.of(u8(a, l, "link_layer")), u8(a, l, "flags"), u16(a, l, "port_cap_flags2"));
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /**
     * odp_caps.general_caps of {@code ibv_query_device_ex}: bit 0 (IBV_ODP_SUPPORT) says the device can
     * register on-demand-paging memory. 0 when the query fails.
     */
    long onDemandPagingCaps() {
        StructLayout l = Structs.ibv_device_attr_ex;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(l);
            int rc = (int) Shim.rdmaffm_query_device_ex().invokeExact(Downcalls.errnoState(), handle(), a);
            return rc == 0 ? a.get(JAVA_LONG, Structs.offset(l, "odp_caps.general_caps")) : 0;
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
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
            int rc = (int) Ibv._ibv_query_gid_ex().invokeExact(Downcalls.errnoState(), handle(), port, index, e, 0,
                    l.byteSize());
            if (rc != 0) {
                int errno = rc > 0 ? rc : Downcalls.errno();
                int len = queryPort(port).gidTableLength();
                String why = index >= len ? "index out of range, the table has " + len + " entries"
                        : "empty GID slot";
                throw VerbsException.of("ibv_query_gid_ex", errno,
                        "device " + name() + ", port " + port + ", GID index " + index + ": " + why);
            }
            return gidFrom(e);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
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
            long n = (long) Ibv._ibv_query_gid_table().invokeExact(Downcalls.errnoState(), handle(), entries,
                    (long) total, 0, l.byteSize());
            if (n < 0) {
                throw VerbsException.of("ibv_query_gid_table", (int) -n, "device " + name());
            }
            for (long i = 0; i < n; i++) {
                out.add(gidFrom(entries.asSlice(i * l.byteSize(), l.byteSize())));
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
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
            int rc = (int) Ibv.ibv_query_pkey().invokeExact(Downcalls.errnoState(), handle(), (byte) port, index, pkey);
            check("ibv_query_pkey", rc, "device " + name() + ", port " + port + ", pkey index " + index);
            return Short.toUnsignedInt(Short.reverseBytes(pkey.get(JAVA_SHORT, 0)));
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private GidEntry gidFrom(MemorySegment e) {
        StructLayout l = Structs.ibv_gid_entry;
        byte[] gid = e.asSlice(Structs.offset(l, "gid"), 16).toArray(JAVA_BYTE);
        int ifindex = i32(e, l, "ndev_ifindex");
        return new GidEntry(i32(e, l, "port_num"), i32(e, l, "gid_index"), gid, GidType.of(i32(e, l, "gid_type")),
                ifindex, netdevName(ifindex));
    }

    static String netdevName(int ifindex) {
        if (ifindex <= 0) {
            return "";
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(16 + 1);
            MemorySegment r = (MemorySegment) LibC.if_indextoname().invokeExact(Downcalls.errnoState(), ifindex, buf);
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

    /** Verbs return 0, an errno value, or -1 with errno set. */
    static void check(String verb, int rc, String context) {
        if (rc != 0) {
            throw VerbsException.of(verb, rc > 0 ? rc : Downcalls.errno(), context);
        }
    }

    private static int i32(MemorySegment s, StructLayout l, String field) {
        return s.get(JAVA_INT, Structs.offset(l, field));
    }

    private static int u16(MemorySegment s, StructLayout l, String field) {
        return Short.toUnsignedInt(s.get(JAVA_SHORT, Structs.offset(l, field)));
    }

    private static int u8(MemorySegment s, StructLayout l, String field) {
        return Byte.toUnsignedInt(s.get(JAVA_BYTE, Structs.offset(l, field)));
    }

    @Override
    void destroy(MemorySegment handle) {
        try {
            int rc = (int) Ibv.ibv_close_device().invokeExact(Downcalls.errnoState(), handle);
            check("ibv_close_device", rc, "device " + name());
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    @Override
    public String toString() {
        return "Context[" + name() + (borrowed ? ", from rdma_cm" : "") + (isClosedInternal() ? ", closed" : "") + "]";
    }

}
