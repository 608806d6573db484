package io.rdmaffm.verbs;

import io.rdmaffm.verbs.internal.Errors;
import io.rdmaffm.verbs.internal.Fds;
import io.rdmaffm.verbs.raw.Constants;
import io.rdmaffm.verbs.raw.Downcalls;
import io.rdmaffm.verbs.raw.Ibv;
import io.rdmaffm.verbs.raw.Offsets;
import io.rdmaffm.verbs.raw.Structs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * Reads a device's async events ({@code ibv_get_async_event} / {@code ibv_ack_async_event}) with a bounded
 * wait on the context's async fd, which is made non-blocking. One reader per context. Each event is acknowledged
 * as soon as it is read, so {@code ibv_destroy_qp}/{@code _cq}/{@code _srq}, which wait until every event of their
 * object has been acknowledged, never block on an event nobody took.
 *
 * <p>IBV_EVENT_DEVICE_FATAL comes when the kernel detaches the device from open contexts: on unregistration
 * ({@code rdma link delete}, driver unbind), {@code ib_uverbs_remove_one} does that only for drivers with a
 * {@code disassociate_ucontext} operation (mlx4, mlx5, hns, irdma in Linux 6.1). For the others, Soft-RoCE
 * among them, the kernel sends no event: the removal waits in the kernel until every process has closed the
 * device ({@code wait_for_completion} in {@code ib_uverbs_remove_one}), so an application learns of it only
 * from the tool that removes the device. Closing the {@link Context} then lets the removal finish.
 */
public final class AsyncEvents {
    private static final String[] NAMES = {"CQ_ERR", "QP_FATAL", "QP_REQ_ERR", "QP_ACCESS_ERR", "COMM_EST",
        "SQ_DRAINED", "PATH_MIG", "PATH_MIG_ERR", "DEVICE_FATAL", "PORT_ACTIVE", "PORT_ERR", "LID_CHANGE",
        "PKEY_CHANGE", "SM_CHANGE", "SRQ_ERR", "SRQ_LIMIT_REACHED", "QP_LAST_WQE_REACHED", "CLIENT_REREGISTER",
        "GID_CHANGE", "WQ_FATAL"};

    private final Context context;

    AsyncEvents(Context context) {
        this.context = context;
        Fds.setNonBlocking(context.asyncEventFd(), "fd");
    }

    /** The next event, or null if none arrives within {@code timeout}. */
    public AsyncEvent next(Duration timeout) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment pfd = arena.allocate(Structs.pollfd);
            long nanos = timeout == null ? -1 : Math.max(0, timeout.toNanos());
            if (!Fds.awaitReadable(pfd, context.asyncEventFd(), nanos, "fd")) {
                return null;
            }
            MemorySegment ev = arena.allocate(Structs.ibv_async_event);
            int rc = context.call(h -> (int) Ibv.ibv_get_async_event.handle().invokeExact(Downcalls.errnoState(), h, ev));
            if (rc != 0) {
                int errno = Downcalls.errno();
                if (errno == Constants.EAGAIN) {
                    return null;
                }
                throw Errors.of("ibv_get_async_event", errno, "device " + context.name());
            }
            return acknowledged(ev);
        }
    }

    /** Copies the event, then acknowledges it (ibv_destroy_qp/_cq/_srq wait until their events are). */
    private static AsyncEvent acknowledged(MemorySegment ev) {
        int code = ev.get(JAVA_INT, Offsets.ibv_async_event.event_type);
        String name = code >= 0 && code < NAMES.length ? NAMES[code] : "UNKNOWN_" + code;
        boolean portEvent = switch (code) {
            case Constants.IBV_EVENT_PORT_ACTIVE, Constants.IBV_EVENT_PORT_ERR, Constants.IBV_EVENT_LID_CHANGE,
                 Constants.IBV_EVENT_PKEY_CHANGE, Constants.IBV_EVENT_SM_CHANGE,
                 Constants.IBV_EVENT_CLIENT_REREGISTER, Constants.IBV_EVENT_GID_CHANGE -> true;
            default -> false;
        };
        int port = portEvent ? ev.get(JAVA_INT, Offsets.ibv_async_event.element) : 0;
        long element = portEvent || code == Constants.IBV_EVENT_DEVICE_FATAL ? 0
                : ev.get(ADDRESS, Offsets.ibv_async_event.element).address();
        try {
            MemorySegment text = (MemorySegment) Ibv.ibv_event_type_str.handle().invokeExact(code);
            String description = text.reinterpret(256).getString(0);
            Ibv.ibv_ack_async_event.handle().invokeExact(ev);
            return new AsyncEvent(name, code, description, port, element);
        } catch (Throwable t) {
            throw Errors.unchecked(t);
        }
    }
}
