package io.rdmaffm.verbs;

import io.rdmaffm.verbs.internal.Errors;
import io.rdmaffm.verbs.raw.Constants;
import io.rdmaffm.verbs.raw.Downcalls;
import io.rdmaffm.verbs.raw.Ibv;
import io.rdmaffm.verbs.raw.Offsets;
import io.rdmaffm.verbs.raw.Structs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * An RDMA device known to libibverbs, as listed by {@code ibv_get_device_list}. A plain description:
 * open it with {@link Context#open(String)}.
 *
 * @param name          kernel device name, e.g. {@code mlx5_0} or {@code rxe0}
 * @param guid          node GUID in host byte order ({@code ibv_get_device_guid})
 * @param nodeType      IBV_NODE_* value (1 = CA, 4 = RNIC)
 * @param transportType IBV_TRANSPORT_* value (0 = IB, also for RoCE; 1 = iWARP)
 * @param ibdevPath     sysfs path of the device, e.g. /sys/class/infiniband/rxe0
 */
public record RdmaDevice(String name, long guid, int nodeType, int transportType, String ibdevPath) {

    private static final long NAME = Offsets.ibv_device.name;
    private static final long NODE_TYPE = Offsets.ibv_device.node_type;
    private static final long TRANSPORT = Offsets.ibv_device.transport_type;
    private static final long IBDEV_PATH = Offsets.ibv_device.ibdev_path;

    /**
     * All devices ({@code ibv_get_device_list}). An empty list when there is none; note that libibverbs
     * reports ENOSYS when the kernel has no RDMA support at all, which is also returned as an empty list.
     */
    public static List<RdmaDevice> list() {
        List<RdmaDevice> out = new ArrayList<>();
        withDeviceList((device, i) -> {
            out.add(describe(device));
            return false;
        });
        return List.copyOf(out);
    }

    static RdmaDevice describe(MemorySegment device) {
        MemorySegment d = device.reinterpret(Structs.ibv_device.byteSize());
        long guid;
        try {
            guid = Long.reverseBytes((long) Ibv.ibv_get_device_guid.handle().invokeExact(device));
        } catch (Throwable t) {
            throw Errors.unchecked(t);
        }
        return new RdmaDevice(d.getString(NAME), guid, d.get(JAVA_INT, NODE_TYPE), d.get(JAVA_INT, TRANSPORT),
                d.getString(IBDEV_PATH));
    }

    /** Visits the devices of one ibv_get_device_list call; the visitor returns true to stop. */
    interface DeviceVisitor {
        boolean visit(MemorySegment device, int index);
    }

    static void withDeviceList(DeviceVisitor visitor) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment count = arena.allocate(JAVA_INT);
            MemorySegment list = (MemorySegment) Ibv.ibv_get_device_list.handle().invokeExact(Downcalls.errnoState(), count);
            if (list.equals(MemorySegment.NULL)) {
                int errno = Downcalls.errno();
                if (errno == Constants.ENOSYS) {
                    return; // no RDMA support in this kernel: no devices
                }
                throw Errors.of("ibv_get_device_list", errno, "");
            }
            try {
                int n = count.get(JAVA_INT, 0);
                MemorySegment array = list.reinterpret(ADDRESS.byteSize() * n);
                for (int i = 0; i < n; i++) {
                    if (visitor.visit(array.getAtIndex(ADDRESS, i), i)) {
                        return;
                    }
                }
            } finally {
                Ibv.ibv_free_device_list.handle().invokeExact(list);
            }
        } catch (Throwable t) {
            throw Errors.unchecked(t);
        }
    }

    /** Opens this device ({@code ibv_open_device}). */
    public Context open() {
        return Context.open(name);
    }
}
