package io.rdmaffm.verbs;

import io.rdmaffm.verbs.raw.Downcalls;
import io.rdmaffm.verbs.raw.Ibv;
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
        CompletionChannel.setNonBlocking(context.asyncEventFd());
    }

    /** The next event, or null if none arrives within {@code timeout}. */
    public AsyncEvent next(Duration timeout) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment pfd = arena.allocate(Structs.pollfd);
            if (!CompletionChannel.waitReadable(pfd, context.asyncEventFd(), timeout)) {
                return null;
            }
            MemorySegment ev = arena.allocate(Structs.ibv_async_event);
            int rc = (int) Ibv.ibv_get_async_event().invokeExact(Downcalls.errnoState(), context.handle(), ev);
            if (rc != 0) {
                int errno = Downcalls.errno();
                if (errno == 11) {
                    return null;
                }
                throw VerbsException.of("ibv_get_async_event", errno, "device " + context.name());
            }
            int code = ev.get(JAVA_INT, Structs.offset(Structs.ibv_async_event, "event_type"));
            String name = code >= 0 && code < NAMES.length ? NAMES[code] : "UNKNOWN_" + code;
            boolean portEvent = code == 9 || code == 10 || code == 11 || code == 12 || code == 13 || code == 17 || code == 18;
            int port = portEvent ? ev.get(JAVA_INT, 0) : 0;
            long element = portEvent || code == 8 ? 0 : ev.get(ADDRESS, 0).address();
            MemorySegment text = (MemorySegment) Ibv.ibv_event_type_str().invokeExact(code);
            String description = text.reinterpret(256).getString(0);
            Ibv.ibv_ack_async_event().invokeExact(ev);
            return new AsyncEvent(name, code, description, port, element);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }
}
