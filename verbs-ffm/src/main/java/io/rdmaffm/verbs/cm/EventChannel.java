package io.rdmaffm.verbs.cm;

import io.rdmaffm.verbs.AddressVector;
import io.rdmaffm.verbs.internal.Errors;
import io.rdmaffm.verbs.internal.Fds;
import io.rdmaffm.verbs.internal.Lifetime;
import io.rdmaffm.verbs.raw.Cm;
import io.rdmaffm.verbs.raw.Constants;
import io.rdmaffm.verbs.raw.Downcalls;
import io.rdmaffm.verbs.raw.Offsets;
import io.rdmaffm.verbs.raw.Offsets.ibv_ah_attr;
import io.rdmaffm.verbs.raw.Offsets.rdma_cm_event;
import io.rdmaffm.verbs.raw.Structs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
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

    private final Lifetime life;
    private final int fd;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment pollFd = arena.allocate(Structs.pollfd);
    private final MemorySegment eventOut = arena.allocate(ADDRESS);
    private final Map<Long, CmId> ids = new ConcurrentHashMap<>();
    private final ArrayDeque<CmEvent> pending = new ArrayDeque<>(); // guarded by this
    private boolean reading; // guarded by this: one thread reads the fd at a time

    private EventChannel(MemorySegment handle) {
        this.fd = handle.get(JAVA_INT, Offsets.rdma_event_channel.fd);
        this.life = new Lifetime(null, "rdma_cm event channel", handle) {
            @Override
            protected void destroy(MemorySegment h) {
                try {
                    Cm.rdma_destroy_event_channel.handle().invokeExact(h);
                } catch (Throwable t) {
                    throw Errors.unchecked(t);
                }
            }

            @Override
            protected void afterClose() {
                synchronized (EventChannel.this) {
                    pending.clear();
                }
                arena.close();
            }
        };
    }

    /** Opens a channel ({@code rdma_create_event_channel}) with a non-blocking fd. */
    public static EventChannel create() {
        MemorySegment ch;
        try {
            ch = (MemorySegment) Cm.rdma_create_event_channel.handle().invokeExact(Downcalls.errnoState());
        } catch (Throwable t) {
            throw Errors.unchecked(t);
        }
        if (ch.equals(MemorySegment.NULL)) {
            int errno = Downcalls.errno();
            throw Errors.of("rdma_create_event_channel", errno, errno == Constants.ENOENT || errno == Constants.ENODEV
                    ? "no /dev/infiniband/rdma_cm (is the rdma_ucm module loaded?)" : "");
        }
        EventChannel channel = new EventChannel(ch.reinterpret(Structs.rdma_event_channel.byteSize()));
        try {
            Fds.setNonBlocking(channel.fd, "rdma_cm fd");
        } catch (RuntimeException e) {
            channel.close();
            throw e;
        }
        return channel;
    }

    /** The channel's file descriptor (non-blocking): readable when an event is pending. */
    public int fd() {
        life.handle();
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

    /**
     * The next event that {@code filter} accepts, waiting at most {@code timeout} (null: no limit; zero: no wait);
     * null when none came. Events it does not accept stay for other readers ({@link CmId#nextEvent}, the blocking
     * helpers of CmId, other filters), in arrival order: a way for several parts of an application to share a
     * channel, e.g. a thread that watches established connections while another accepts new ones.
     */
    public CmEvent nextEvent(Predicate<? super CmEvent> filter, Duration timeout) {
        if (filter == null) {
            throw new IllegalArgumentException("a filter is required (nextEvent(Duration) takes any event)");
        }
        return take(filter, timeout);
    }

    /** The events of {@code id}: its own, and the connect requests to it when it listens. */
    static boolean concerns(CmEvent e, CmId id) {
        return e.id() == id || (e.listenId() == id && e.type() == CmEventType.CONNECT_REQUEST);
    }

    /**
     * Waits for the next event of {@code id} and requires it to be {@code expected}: an error event, another
     * event or the timeout is a {@link CmException} naming {@code verb} and {@code about}.
     */
    CmEvent expect(CmId id, String verb, CmEventType expected, Duration timeout, String about) {
        if (timeout == null) {
            throw new IllegalArgumentException("a timeout is required");
        }
        CmEvent e = take(event -> concerns(event, id), timeout);
        if (e == null) {
            throw CmException.timedOut(verb, expected, timeout, about);
        }
        if (e.type() != expected) {
            throw CmException.forEvent(verb, e, expected, about);
        }
        return e;
    }

    /**
     * Waits for the first event that matches, reading the fd as needed; null on timeout. A timeout of zero still
     * reads the fd once (without waiting) when no other thread is reading it. Allocates nothing while no event
     * arrives and none is pending.
     */
    CmEvent take(Predicate<? super CmEvent> match, Duration timeout) {
        long deadline = timeout == null ? Long.MAX_VALUE : System.nanoTime() + Math.max(0, timeout.toNanos());
        boolean readOnce = false;
        while (true) {
            long left;
            synchronized (this) {
                life.handle();
                if (!pending.isEmpty()) {
                    for (Iterator<CmEvent> it = pending.iterator(); it.hasNext(); ) {
                        CmEvent e = it.next();
                        if (match.test(e)) {
                            it.remove();
                            return e;
                        }
                    }
                }
                left = deadline == Long.MAX_VALUE ? Long.MAX_VALUE : deadline - System.nanoTime();
                if (left <= 0 && readOnce) {
                    return null;
                }
                if (reading) {
                    if (left <= 0) {
                        return null;
                    }
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
            readOnce = true;
            CmEvent got = null;
            try {
                got = readOne(Math.max(0, left));
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
        if (!Fds.awaitReadable(pollFd, fd, nanos == Long.MAX_VALUE ? -1 : nanos, "rdma_cm fd")) {
            return null;
        }
        try {
            MemorySegment h = life.enter();
            int rc;
            try {
                rc = (int) Cm.rdma_get_cm_event.handle().invokeExact(Downcalls.errnoState(), h, eventOut);
            } finally {
                life.exit();
            }
            if (rc != 0) {
                int errno = Downcalls.errno();
                if (errno == Constants.EAGAIN || errno == Constants.EINTR) {
                    return null; // consumed inside librdmacm (e.g. a connect response turned into ESTABLISHED)
                }
                throw Errors.of("rdma_get_cm_event", errno, "rdma_cm fd " + fd);
            }
            MemorySegment ev = eventOut.get(ADDRESS, 0).reinterpret(Structs.rdma_cm_event.byteSize());
            CmEvent copy;
            try {
                copy = copy(ev);
            } finally {
                int ack = (int) Cm.rdma_ack_cm_event.handle().invokeExact(Downcalls.errnoState(), ev);
                if (ack != 0) {
                    throw Errors.of("rdma_ack_cm_event", Downcalls.errno(), "");
                }
            }
            return copy;
        } catch (Throwable t) {
            throw Errors.unchecked(t);
        }
    }

    private CmEvent copy(MemorySegment ev) {
        CmEventType type = CmEventType.of(ev.get(JAVA_INT, rdma_cm_event.event));
        int status = ev.get(JAVA_INT, rdma_cm_event.status);
        MemorySegment idPtr = ev.get(ADDRESS, rdma_cm_event.id);
        MemorySegment listenPtr = ev.get(ADDRESS, rdma_cm_event.listen_id);
        CmId listen = listenPtr.equals(MemorySegment.NULL) ? null : ids.get(listenPtr.address());
        CmId id = ids.get(idPtr.address());
        if (id == null && type == CmEventType.CONNECT_REQUEST && !idPtr.equals(MemorySegment.NULL)) {
            // librdmacm made a new id for the incoming connection; the application now owns it.
            id = CmId.adopt(this, idPtr, listen == null ? PortSpace.TCP : listen.portSpace(), listen);
        }
        boolean ud = id != null && id.portSpace() == PortSpace.UDP;
        MemorySegment pdata = ev.get(ADDRESS, ud ? rdma_cm_event.param__ud__private_data
                : rdma_cm_event.param__conn__private_data);
        int len = u8(ev, ud ? rdma_cm_event.param__ud__private_data_len : rdma_cm_event.param__conn__private_data_len);
        byte[] data = pdata.equals(MemorySegment.NULL) || len == 0 ? new byte[0]
                : pdata.reinterpret(len).toArray(JAVA_BYTE);
        if (ud) {
            // Only the active side's ESTABLISHED (the SIDR reply) says where the peer is; a UD connect request
            // carries no address of the requester (the passive side answers the sender of a datagram instead).
            AddressVector av = type == CmEventType.ESTABLISHED
                    ? addressVector(ev.asSlice(rdma_cm_event.param__ud__ah_attr, Structs.ibv_ah_attr.byteSize()))
                    : null;
            return new CmEvent(type, status, id, listen, data, 0, 0, 0, 0,
                    ev.get(JAVA_INT, rdma_cm_event.param__ud__qp_num) & 0xffffff,
                    ev.get(JAVA_INT, rdma_cm_event.param__ud__qkey), av);
        }
        return new CmEvent(type, status, id, listen, data, u8(ev, rdma_cm_event.param__conn__responder_resources),
                u8(ev, rdma_cm_event.param__conn__initiator_depth), u8(ev, rdma_cm_event.param__conn__retry_count),
                u8(ev, rdma_cm_event.param__conn__rnr_retry_count),
                ev.get(JAVA_INT, rdma_cm_event.param__conn__qp_num) & 0xffffff, 0);
    }

    /** A {@code struct ibv_ah_attr} as an AddressVector for ibv_create_ah. */
    private static AddressVector addressVector(MemorySegment ah) {
        AddressVector av = new AddressVector().port(u8(ah, ibv_ah_attr.port_num))
                .dlid(Short.toUnsignedInt(ah.get(JAVA_SHORT, ibv_ah_attr.dlid))).serviceLevel(u8(ah, ibv_ah_attr.sl))
                .srcPathBits(u8(ah, ibv_ah_attr.src_path_bits)).staticRate(u8(ah, ibv_ah_attr.static_rate));
        if (u8(ah, ibv_ah_attr.is_global) != 0) {
            av.global(ah.asSlice(ibv_ah_attr.grh__dgid, 16).toArray(JAVA_BYTE), u8(ah, ibv_ah_attr.grh__sgid_index))
                    .hopLimit(u8(ah, ibv_ah_attr.grh__hop_limit)).trafficClass(u8(ah, ibv_ah_attr.grh__traffic_class))
                    .flowLabel(ah.get(JAVA_INT, ibv_ah_attr.grh__flow_label));
        }
        return av;
    }

    private static int u8(MemorySegment s, long offset) {
        return Byte.toUnsignedInt(s.get(JAVA_BYTE, offset));
    }

    /** The channel's lifetime: its ids live inside it. */
    Lifetime lifetime() {
        return life;
    }

    void register(CmId id) {
        ids.put(id.address(), id);
    }

    void unregister(CmId id) {
        ids.remove(id.address());
        synchronized (this) {
            pending.removeIf(e -> e.id() == id);
        }
    }

    /** True once closed. */
    public boolean isClosed() {
        return life.isClosed();
    }

    /**
     * {@code rdma_destroy_event_channel}. Refused while ids created on it (or handed out with its connect
     * requests) are open; waits for a read of the channel in progress on another thread; idempotent.
     */
    @Override
    public void close() {
        life.close();
    }

    @Override
    public String toString() {
        return "EventChannel[fd " + fd + (isClosed() ? ", closed" : "") + "]";
    }
}
