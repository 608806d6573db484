package io.rdmaffm.verbs.cm;

import io.rdmaffm.verbs.AddressVector;
import io.rdmaffm.verbs.VerbsException;
import io.rdmaffm.verbs.raw.Cm;
import io.rdmaffm.verbs.raw.Constants;
import io.rdmaffm.verbs.raw.Downcalls;
import io.rdmaffm.verbs.raw.LibC;
import io.rdmaffm.verbs.raw.Structs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * {@code struct rdma_event_channel}: where the events of its {@link CmId}s arrive. Its fd is non-blocking and
 * can go into an application's own event loop; {@link #nextEvent(Duration)} waits with poll(2). Every event is
 * copied into a {@link CmEvent} and acknowledged at once, so ids can always be destroyed.
 *
 * <p>Thread-safe: several threads may wait at once (e.g. a listener's and a client's blocking helpers); one reads
 * the fd at a time and hands events for other ids to their waiters. Closing is refused while ids are open.
 */
public final class EventChannel implements AutoCloseable {
    private static final int EAGAIN = 11;
    private static final int EINTR = 4;
    private static final StructLayout EV = Structs.rdma_cm_event;
    private static final long EV_ID = Structs.offset(EV, "id");
    private static final long EV_LISTEN_ID = Structs.offset(EV, "listen_id");
    private static final long EV_EVENT = Structs.offset(EV, "event");
    private static final long EV_STATUS = Structs.offset(EV, "status");
    private static final long CONN_PDATA = Structs.offset(EV, "param.conn.private_data");
    private static final long CONN_PDATA_LEN = Structs.offset(EV, "param.conn.private_data_len");
    private static final long CONN_RESP_RES = Structs.offset(EV, "param.conn.responder_resources");
    private static final long CONN_INIT_DEPTH = Structs.offset(EV, "param.conn.initiator_depth");
    private static final long CONN_RETRY = Structs.offset(EV, "param.conn.retry_count");
    private static final long CONN_RNR_RETRY = Structs.offset(EV, "param.conn.rnr_retry_count");
    private static final long CONN_QP_NUM = Structs.offset(EV, "param.conn.qp_num");
    private static final long UD_PDATA = Structs.offset(EV, "param.ud.private_data");
    private static final long UD_PDATA_LEN = Structs.offset(EV, "param.ud.private_data_len");
    private static final long UD_QP_NUM = Structs.offset(EV, "param.ud.qp_num");
    private static final long UD_QKEY = Structs.offset(EV, "param.ud.qkey");
    private static final long UD_AH_DGID = Structs.offset(EV, "param.ud.ah_attr.grh.dgid");
    private static final long UD_AH_FLOW_LABEL = Structs.offset(EV, "param.ud.ah_attr.grh.flow_label");
    private static final long UD_AH_SGID_INDEX = Structs.offset(EV, "param.ud.ah_attr.grh.sgid_index");
    private static final long UD_AH_HOP_LIMIT = Structs.offset(EV, "param.ud.ah_attr.grh.hop_limit");
    private static final long UD_AH_TRAFFIC_CLASS = Structs.offset(EV, "param.ud.ah_attr.grh.traffic_class");
    private static final long UD_AH_DLID = Structs.offset(EV, "param.ud.ah_attr.dlid");
    private static final long UD_AH_SL = Structs.offset(EV, "param.ud.ah_attr.sl");
    private static final long UD_AH_SRC_PATH_BITS = Structs.offset(EV, "param.ud.ah_attr.src_path_bits");
    private static final long UD_AH_STATIC_RATE = Structs.offset(EV, "param.ud.ah_attr.static_rate");
    private static final long UD_AH_IS_GLOBAL = Structs.offset(EV, "param.ud.ah_attr.is_global");
    private static final long UD_AH_PORT = Structs.offset(EV, "param.ud.ah_attr.port_num");

    private final MemorySegment handle;
    private final int fd;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment pollFd = arena.allocate(Structs.pollfd);
    private final MemorySegment eventOut = arena.allocate(ADDRESS);
    private final Map<Long, CmId> ids = new ConcurrentHashMap<>();
    private final ArrayDeque<CmEvent> pending = new ArrayDeque<>(); // guarded by this
    private boolean reading; // guarded by this: one thread reads the fd at a time
    private boolean closed; // guarded by this

    private EventChannel(MemorySegment handle) {
        this.handle = handle;
        this.fd = handle.get(JAVA_INT, Structs.offset(Structs.rdma_event_channel, "fd"));
    }

    /** Opens a channel ({@code rdma_create_event_channel}) with a non-blocking fd. */
    public static EventChannel create() {
        MemorySegment ch;
        try {
            ch = (MemorySegment) Cm.rdma_create_event_channel().invokeExact(Downcalls.errnoState());
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        if (ch.equals(MemorySegment.NULL)) {
            int errno = Downcalls.errno();
            throw VerbsExceptions.of("rdma_create_event_channel", errno,
                    errno == 2 || errno == 19 ? "no /dev/infiniband/rdma_cm (is the rdma_ucm module loaded?)" : "");
        }
        EventChannel channel = new EventChannel(ch.reinterpret(Structs.rdma_event_channel.byteSize()));
        try {
            channel.setNonBlocking();
        } catch (RuntimeException e) {
            channel.destroyChannel();
            throw e;
        }
        return channel;
    }

    private void setNonBlocking() {
        try {
            int flags = (int) LibC.fcntl().invokeExact(Downcalls.errnoState(), fd, Constants.F_GETFL, 0);
            if (flags < 0) {
                throw VerbsExceptions.of("fcntl", Downcalls.errno(), "F_GETFL on rdma_cm fd " + fd);
            }
            int rc = (int) LibC.fcntl().invokeExact(Downcalls.errnoState(), fd, Constants.F_SETFL, flags | Constants.O_NONBLOCK);
            if (rc < 0) {
                throw VerbsExceptions.of("fcntl", Downcalls.errno(), "F_SETFL O_NONBLOCK on rdma_cm fd " + fd);
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** The channel's file descriptor (non-blocking): readable when an event is pending. */
    public int fd() {
        checkOpen();
        return fd;
    }

    /** Creates an id on this channel ({@code rdma_create_id}). */
    public CmId createId(PortSpace portSpace) {
        return CmId.create(this, portSpace);
    }

    /**
     * The next event of any id on this channel ({@code rdma_get_cm_event}, then {@code rdma_ack_cm_event}),
     * waiting at most {@code timeout} (null: no limit); null when none arrived in time. Events that a blocking
     * helper of another thread read on behalf of someone else come first, in arrival order.
     */
    public CmEvent nextEvent(Duration timeout) {
        return take(e -> true, timeout);
    }

    /** Waits for the first event that matches, reading the fd as needed; null on timeout. */
    CmEvent take(Predicate<CmEvent> match, Duration timeout) {
        long deadline = timeout == null ? Long.MAX_VALUE : System.nanoTime() + Math.max(0, timeout.toNanos());
        while (true) {
            long left;
            synchronized (this) {
                checkOpen();
                for (Iterator<CmEvent> it = pending.iterator(); it.hasNext(); ) {
                    CmEvent e = it.next();
                    if (match.test(e)) {
                        it.remove();
                        return e;
                    }
                }
                left = deadline == Long.MAX_VALUE ? Long.MAX_VALUE : deadline - System.nanoTime();
                if (left <= 0) {
                    return null;
                }
                if (reading) {
                    try {
                        long ms = Math.max(1, Math.min(left / 1_000_000, Integer.MAX_VALUE));
                        wait(ms);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException("interrupted while waiting for an rdma_cm event", e);
                    }
                    continue;
                }
                reading = true;
            }
            CmEvent got = null;
            try {
                got = readOne(left);
            } finally {
                synchronized (this) {
                    reading = false;
                    if (got != null) {
                        pending.addLast(got);
                    }
                    notifyAll();
                }
            }
        }
    }

    /** poll(2) then one rdma_get_cm_event; null when nothing came within {@code nanos}. */
    private CmEvent readOne(long nanos) {
        int ms = nanos == Long.MAX_VALUE ? -1 : (int) Math.min(Integer.MAX_VALUE, Math.max(1, (nanos + 999_999) / 1_000_000));
        try {
            pollFd.set(JAVA_INT, Structs.offset(Structs.pollfd, "fd"), fd);
            pollFd.set(JAVA_SHORT, Structs.offset(Structs.pollfd, "events"), (short) Constants.POLLIN);
            pollFd.set(JAVA_SHORT, Structs.offset(Structs.pollfd, "revents"), (short) 0);
            int n = (int) LibC.poll().invokeExact(Downcalls.errnoState(), pollFd, 1L, ms);
            if (n < 0) {
                int errno = Downcalls.errno();
                if (errno == EINTR) {
                    return null;
                }
                throw VerbsExceptions.of("poll", errno, "rdma_cm fd " + fd);
            }
            if (n == 0) {
                return null;
            }
            int rc = (int) Cm.rdma_get_cm_event().invokeExact(Downcalls.errnoState(), handle, eventOut);
            if (rc != 0) {
                int errno = Downcalls.errno();
                if (errno == EAGAIN || errno == EINTR) {
                    return null; // consumed inside librdmacm (e.g. a connect response turned into ESTABLISHED)
                }
                throw VerbsExceptions.of("rdma_get_cm_event", errno, "rdma_cm fd " + fd);
            }
            MemorySegment ev = eventOut.get(ADDRESS, 0).reinterpret(EV.byteSize());
            CmEvent copy;
            try {
                copy = copy(ev);
            } finally {
                int ack = (int) Cm.rdma_ack_cm_event().invokeExact(Downcalls.errnoState(), ev);
                if (ack != 0) {
                    throw VerbsExceptions.of("rdma_ack_cm_event", Downcalls.errno(), "");
                }
            }
            return copy;
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private CmEvent copy(MemorySegment ev) {
        CmEventType type = CmEventType.of(ev.get(JAVA_INT, EV_EVENT));
        int status = ev.get(JAVA_INT, EV_STATUS);
        MemorySegment idPtr = ev.get(ADDRESS, EV_ID);
        MemorySegment listenPtr = ev.get(ADDRESS, EV_LISTEN_ID);
        CmId listen = listenPtr.equals(MemorySegment.NULL) ? null : ids.get(listenPtr.address());
        CmId id = ids.get(idPtr.address());
        if (id == null && type == CmEventType.CONNECT_REQUEST && !idPtr.equals(MemorySegment.NULL)) {
            // librdmacm made a new id for the incoming connection; the application now owns it.
            id = CmId.adopt(this, idPtr, listen == null ? PortSpace.TCP : listen.portSpace(), listen);
        }
        boolean ud = id != null && id.portSpace() == PortSpace.UDP;
        MemorySegment pdata = ev.get(ADDRESS, ud ? UD_PDATA : CONN_PDATA);
        int len = Byte.toUnsignedInt(ev.get(JAVA_BYTE, ud ? UD_PDATA_LEN : CONN_PDATA_LEN));
        byte[] data = pdata.equals(MemorySegment.NULL) || len == 0 ? new byte[0]
                : pdata.reinterpret(len).toArray(JAVA_BYTE);
        if (ud) {
            // Only the active side's ESTABLISHED (the SIDR reply) says where the peer is; a UD connect request
            // carries no address of the requester (the passive side answers the sender of a datagram instead).
            AddressVector av = type == CmEventType.ESTABLISHED ? udAddressVector(ev) : null;
            return new CmEvent(type, status, id, listen, data, 0, 0, 0, 0, ev.get(JAVA_INT, UD_QP_NUM) & 0xffffff,
                    ev.get(JAVA_INT, UD_QKEY), av);
        }
        return new CmEvent(type, status, id, listen, data, u8(ev, CONN_RESP_RES), u8(ev, CONN_INIT_DEPTH),
                u8(ev, CONN_RETRY), u8(ev, CONN_RNR_RETRY), ev.get(JAVA_INT, CONN_QP_NUM) & 0xffffff, 0);
    }

    /** param.ud.ah_attr (struct ibv_ah_attr) as an AddressVector for ibv_create_ah. */
    private static AddressVector udAddressVector(MemorySegment ev) {
        AddressVector av = new AddressVector().port(u8(ev, UD_AH_PORT))
                .dlid(Short.toUnsignedInt(ev.get(JAVA_SHORT, UD_AH_DLID))).serviceLevel(u8(ev, UD_AH_SL))
                .srcPathBits(u8(ev, UD_AH_SRC_PATH_BITS)).staticRate(u8(ev, UD_AH_STATIC_RATE));
        if (u8(ev, UD_AH_IS_GLOBAL) != 0) {
            av.global(ev.asSlice(UD_AH_DGID, 16).toArray(JAVA_BYTE), u8(ev, UD_AH_SGID_INDEX))
                    .hopLimit(u8(ev, UD_AH_HOP_LIMIT)).trafficClass(u8(ev, UD_AH_TRAFFIC_CLASS))
                    .flowLabel(ev.get(JAVA_INT, UD_AH_FLOW_LABEL));
        }
        return av;
    }

    private static int u8(MemorySegment s, long offset) {
        return Byte.toUnsignedInt(s.get(JAVA_BYTE, offset));
    }

    MemorySegment handle() {
        checkOpen();
        return handle;
    }

    void register(CmId id) {
        synchronized (this) {
            checkOpen();
            ids.put(id.address(), id);
        }
    }

    void unregister(CmId id) {
        ids.remove(id.address());
        synchronized (this) {
            pending.removeIf(e -> e.id() == id);
        }
    }

    private synchronized void checkOpen() {
        if (closed) {
            throw new IllegalStateException("rdma_cm event channel is closed");
        }
    }

    /** True once closed. */
    public synchronized boolean isClosed() {
        return closed;
    }

    /**
     * {@code rdma_destroy_event_channel}. Refused while ids created on it (or handed out with its connect
     * requests) are open; idempotent.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            if (!ids.isEmpty()) {
                throw new IllegalStateException("cannot close the rdma_cm event channel: " + ids.size()
                        + " id(s) on it are still open; close them first");
            }
            closed = true;
            pending.clear();
        }
        destroyChannel();
    }

    private void destroyChannel() {
        try {
            Cm.rdma_destroy_event_channel().invokeExact(handle);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        } finally {
            arena.close();
        }
    }

    @Override
    public String toString() {
        return "EventChannel[fd " + fd + (isClosed() ? ", closed" : "") + "]";
    }
}
