package io.rdmaffm.verbs;

import io.rdmaffm.verbs.internal.Errors;
import io.rdmaffm.verbs.raw.Constants;
import io.rdmaffm.verbs.raw.Downcalls;
import io.rdmaffm.verbs.raw.Ibv;
import io.rdmaffm.verbs.raw.LibC;
import io.rdmaffm.verbs.raw.Shim;
import io.rdmaffm.verbs.raw.Structs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * {@code struct ibv_pd}: groups memory regions, windows, queue pairs, SRQs and address handles that may
 * be used together. Created by {@link Context#allocateProtectionDomain()}.
 */
public final class ProtectionDomain extends NativeObject {
    private final Context context;

    ProtectionDomain(Context context, MemorySegment handle) {
        super(context, "protection domain", handle);
        this.context = context;
    }

    public Context context() {
        return context;
    }

    /**
     * Registers a native segment ({@code ibv_reg_mr}) with {@link Access} bits, e.g.
     * {@code Access.LOCAL_WRITE | Access.REMOTE_READ}. The region keeps the segment reachable; the caller must keep
     * the segment's arena open until the region is closed (closing it earlier is reported when the region is
     * closed). Prefer {@link #allocateRegion(long, int)}, which owns its memory.
     */
    public MemoryRegion registerMemory(MemorySegment segment, int accessFlags) {
        return register(segment, null, accessFlags);
    }

    /**
     * {@link #registerMemory(MemorySegment, int)} with the bits ORed together.
     *
     * @deprecated combine the {@link Access} bits with {@code |}.
     */
    @Deprecated
    public MemoryRegion registerMemory(MemorySegment segment, int access, int more, int... rest) {
        return registerMemory(segment, access | more | Access.mask(rest));
    }

    /**
     * {@link #allocateRegion(long, int)} with the bits ORed together.
     *
     * @deprecated combine the {@link Access} bits with {@code |}.
     */
    @Deprecated
    public MemoryRegion allocateRegion(long bytes, int access, int more, int... rest) {
        return allocateRegion(bytes, access | more | Access.mask(rest));
    }

    /**
     * Allocates page-aligned, zeroed native memory and registers it with {@link Access} bits; the memory is freed
     * when the region is closed, after deregistration, so the device can never write into freed memory.
     */
    public MemoryRegion allocateRegion(long bytes, int accessFlags) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("region size must be positive, not " + bytes);
        }
        Arena arena = Arena.ofShared();
        try {
            MemorySegment seg = arena.allocate(bytes, 4096);
            return register(seg, arena, accessFlags);
        } catch (RuntimeException | Error e) {
            arena.close();
            throw e;
        }
    }

    /**
     * Allocates {@code bytes} rounded up to whole huge pages of {@code hugePageBytes} ({@code mmap} with
     * {@code MAP_HUGETLB}, from the pool reserved in {@code /proc/sys/vm/nr_hugepages}) and registers them; the
     * pages are unmapped when the region is closed, after deregistration.
     *
     * @throws VerbsException "mmap" with the errno (ENOMEM: too few huge pages free) when the pages cannot be had
     */
    public MemoryRegion allocateHugePageRegion(long bytes, long hugePageBytes, int accessFlags) {
        if (bytes <= 0 || hugePageBytes <= 0) {
            throw new IllegalArgumentException("region and page sizes must be positive, not " + bytes + ", "
                    + hugePageBytes);
        }
        long length = (bytes + hugePageBytes - 1) / hugePageBytes * hugePageBytes;
        MemorySegment at;
        try {
            // PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_HUGETLB (Linux values; the binding is Linux-only)
            at = (MemorySegment) LibC.mmap.handle().invokeExact(Downcalls.errnoState(), MemorySegment.NULL, length,
                    0x1 | 0x2, 0x02 | 0x20 | 0x40000, -1, 0L);
        } catch (Throwable t) {
            throw Errors.unchecked(t);
        }
        if (at.address() == -1L) {
            throw Errors.of("mmap", Downcalls.errno(), length + " bytes of huge pages (" + hugePageBytes
                    + "-byte pages, MAP_HUGETLB)");
        }
        Arena arena = Arena.ofShared();
        MemorySegment seg = at.reinterpret(length, arena, s -> unmap(s, length));
        try {
            return register(seg, arena, accessFlags);
        } catch (RuntimeException | Error e) {
            arena.close();
            throw e;
        }
    }

    private static void unmap(MemorySegment at, long length) {
        try {
            int rc = (int) LibC.munmap.handle().invokeExact(Downcalls.errnoState(), at, length);
            if (rc != 0) {
                throw new IllegalStateException("munmap of " + length + " bytes of huge pages failed: errno "
                        + Downcalls.errno());
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private MemoryRegion register(MemorySegment segment, Arena owned, int accessFlags) {
        if (!segment.isNative()) {
            throw new IllegalArgumentException("only native (off-heap) segments can be registered, not a heap segment");
        }
        if (!segment.scope().isAlive()) {
            throw new IllegalStateException("cannot register a segment whose arena is already closed");
        }
        if (segment.byteSize() == 0) {
            throw new IllegalArgumentException("cannot register an empty segment");
        }
        return life.create(h -> {
            MemorySegment mr = (MemorySegment) Ibv.ibv_reg_mr_iova2.handle().invokeExact(Downcalls.errnoState(), h,
                    segment, segment.byteSize(), segment.address(), accessFlags);
            if (mr.equals(MemorySegment.NULL)) {
                int errno = Downcalls.errno();
                String what = "device " + context.name() + ", " + segment.byteSize() + " bytes at 0x"
                        + Long.toHexString(segment.address()) + ", access 0x" + Integer.toHexString(accessFlags)
                        + " (" + Access.describe(accessFlags) + ")";
                // A kernel whose device has no on-demand paging answers IBV_ACCESS_ON_DEMAND with EINVAL
                // (ib_uverbs_reg_mr, e.g. Soft-RoCE on Linux 6.1), which reads like a bad argument; say what it is.
                if ((accessFlags & Access.ON_DEMAND) != 0 && (context.onDemandPagingCaps() & 1) == 0) {
                    throw new VerbsUnsupportedException("ibv_reg_mr", errno, what
                            + ", IBV_ACCESS_ON_DEMAND: the device reports no on-demand paging (odp_caps.general_caps "
                            + "lacks IBV_ODP_SUPPORT)");
                }
                throw Errors.of("ibv_reg_mr", errno, what);
            }
            return new MemoryRegion(this, mr.reinterpret(Structs.ibv_mr.byteSize()), segment, owned, accessFlags);
        });
    }

    /**
     * Registers device memory exported as a dma-buf ({@code ibv_reg_dmabuf_mr}): {@code length} bytes at
     * {@code offset} of the dma-buf {@code fd}, addressed by peers at {@code iova}. The region's
     * {@link MemoryRegion#segment()} only describes the iova range (for {@link MemoryRegion#addressOf}); it
     * is not host memory and must not be read or written. Providers without dma-buf support (Soft-RoCE among
     * them) fail with EOPNOTSUPP: a {@link VerbsUnsupportedException}; so does an rdma-core older than 34,
     * which lacks the verb.
     */
    public MemoryRegion registerDmabuf(long offset, long length, long iova, int fd, int accessFlags) {
        if (length <= 0) {
            throw new IllegalArgumentException("region size must be positive, not " + length);
        }
        String what = "device " + context.name() + ", dma-buf fd " + fd + ", " + length + " bytes at offset " + offset;
        try {
            return life.create(h -> {
                MemorySegment mr = (MemorySegment) Ibv.ibv_reg_dmabuf_mr.handle().invokeExact(Downcalls.errnoState(), h,
                        offset, length, iova, fd, accessFlags);
                if (mr.equals(MemorySegment.NULL)) {
                    throw Errors.of("ibv_reg_dmabuf_mr", Downcalls.errno(), what);
                }
                return new MemoryRegion(this, mr.reinterpret(Structs.ibv_mr.byteSize()),
                        MemorySegment.ofAddress(iova).reinterpret(length), null, accessFlags);
            });
        } catch (UnsupportedOperationException e) {
            throw new VerbsUnsupportedException("ibv_reg_dmabuf_mr", Constants.ENOSYS,
                    what + ", not in this rdma-core release");
        }
    }

    /** Allocates a memory window of type 1 or 2 ({@code ibv_alloc_mw}). */
    public MemoryWindow allocateMemoryWindow(MemoryWindow.Type type) {
        return life.create(h -> {
            MemorySegment mw = (MemorySegment) Shim.rdmaffm_alloc_mw.handle().invokeExact(Downcalls.errnoState(), h,
                    type.value());
            if (mw.equals(MemorySegment.NULL)) {
                throw Errors.of("ibv_alloc_mw", Downcalls.errno(), "device " + context.name() + ", " + type);
            }
            return new MemoryWindow(this, mw.reinterpret(Structs.ibv_mw.byteSize()), type);
        });
    }

    /** Creates a queue pair ({@code ibv_create_qp}, or {@code ibv_create_qp_ex} for the extended send API). */
    public QueuePair createQueuePair(QueuePairInit init) {
        return QueuePair.create(this, init);
    }

    /** Creates a shared receive queue ({@code ibv_create_srq}). */
    public SharedReceiveQueue createSharedReceiveQueue(int maxWr, int maxSge, int limit) {
        return SharedReceiveQueue.create(this, maxWr, maxSge, limit);
    }

    /** Creates an address handle for UD sends ({@code ibv_create_ah}). */
    public AddressHandle createAddressHandle(AddressVector av) {
        return AddressHandle.create(this, av);
    }

    /** Creates an address handle that answers the sender of a received UD completion ({@code ibv_create_ah_from_wc}). */
    public AddressHandle createAddressHandleFromCompletion(Completions completions, int index, MemorySegment grh, int port) {
        return AddressHandle.fromCompletion(this, completions, index, grh, port);
    }

    @Override
    void destroy(MemorySegment handle) {
        destroyWith(Ibv.ibv_dealloc_pd.handle(), "ibv_dealloc_pd", handle, "device " + context.name());
    }
}
