package io.rdmaffm.verbs.cm;

import io.rdmaffm.verbs.Context;
import io.rdmaffm.verbs.ProtectionDomain;
import io.rdmaffm.verbs.QueuePair;
import io.rdmaffm.verbs.QueuePairAttributes;
import io.rdmaffm.verbs.QueuePairInit;
import io.rdmaffm.verbs.QueuePairState;
import io.rdmaffm.verbs.internal.Errors;
import io.rdmaffm.verbs.internal.Lifetime;
import io.rdmaffm.verbs.internal.VerbsBridge;
import io.rdmaffm.verbs.raw.Cm;
import io.rdmaffm.verbs.raw.Constants;
import io.rdmaffm.verbs.raw.Downcalls;
import io.rdmaffm.verbs.raw.Offsets;
import io.rdmaffm.verbs.raw.Structs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.function.Predicate;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;

/**
 * {@code struct rdma_cm_id}: one end of an rdma_cm connection, or a listener. Its events arrive on its
 * {@link EventChannel}. The blocking helpers ({@link #resolveAddress}, {@link #resolveRoute}, {@link #connect},
 * {@link #accept}, {@link #awaitConnectRequest}, {@link #disconnect(Duration)}) wait for the expected event with a
 * timeout and turn an error event, an unexpected event or the timeout into a {@link CmException}.
 *
 * <p>Ownership: the id owns the queue pair made by {@link #createQueuePair}; {@link #close()} destroys it
 * ({@code rdma_destroy_qp}) before the id ({@code rdma_destroy_id}). Control calls are synchronized; the queue
 * pair's data path is the verbs one.
 *
 * <p>A queue pair the application creates itself ({@code ProtectionDomain.createQueuePair}, e.g. an extended one)
 * works too: give its number with {@link ConnectionParameters#qpNumber}, move it through INIT, RTR and RTS with
 * the attributes rdma_cm negotiated ({@link #queuePairAttributes}, {@code rdma_init_qp_attr}), and on the active
 * side finish with {@link #establish()} ({@code rdma_establish}) after {@link #connect} returned
 * CONNECT_RESPONSE. The id does not own such a queue pair: close it yourself.
 */
public final class CmId implements AutoCloseable {
    private static final StructLayout ID = Structs.rdma_cm_id;
    private static final long VERBS = Offsets.rdma_cm_id.verbs;
    private static final long QP = Offsets.rdma_cm_id.qp;
    private static final long SRC = Offsets.rdma_cm_id.route__addr__src_storage;
    private static final long DST = Offsets.rdma_cm_id.route__addr__dst_storage;
    private static final long PORT_NUM = Offsets.rdma_cm_id.port_num;
    private static final long STORAGE = Structs.sockaddr_storage.byteSize();
    /** Extra wait beyond librdmacm's own resolution timeout, for the event to reach us. */
    private static final Duration SLACK = Duration.ofSeconds(2);

    private final EventChannel channel;
    private final Lifetime life;
    private final long address;
    private final PortSpace portSpace;
    private final CmId listener;
    /** Which events of the channel are this id's, made once so that polling for them allocates nothing. */
    private final Predicate<CmEvent> mine = e -> EventChannel.concerns(e, this);
    private QueuePair qp; // guarded by this

    /** Takes over the place reserved for it in the channel (the channel may not close before its ids). */
    private CmId(EventChannel channel, MemorySegment handle, PortSpace portSpace, CmId listener) {
        this.channel = channel;
        this.address = handle.address();
        this.life = new Lifetime(channel.lifetime(), "rdma_cm id", handle.reinterpret(ID.byteSize())) {
            @Override
            protected void destroy(MemorySegment h) {
                int rc;
                try {
                    rc = (int) Cm.rdma_destroy_id.handle().invokeExact(Downcalls.errnoState(), h);
                } catch (Throwable t) {
                    throw Errors.unchecked(t);
                }
                Errors.check("rdma_destroy_id", rc, "");
            }

            @Override
            protected void afterClose() {
                channel.unregister(CmId.this);
            }

            @Override
            protected String describe() {
                return " 0x" + Long.toHexString(address) + " (" + portSpace + ")";
            }
        };
        this.portSpace = portSpace;
        this.listener = listener;
        channel.register(this);
    }

    static CmId create(EventChannel channel, PortSpace portSpace) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ADDRESS);
            return channel.lifetime().create(ch -> {
                int rc = (int) Cm.rdma_create_id.handle().invokeExact(Downcalls.errnoState(), ch, out, MemorySegment.NULL,
                        portSpace.value());
                if (rc != 0) {
                    throw Errors.of("rdma_create_id", Downcalls.errno(), "port space " + portSpace);
                }
                return new CmId(channel, out.get(ADDRESS, 0), portSpace, null);
            });
        }
    }

    /** The id librdmacm created for an incoming connect request. */
    static CmId adopt(EventChannel channel, MemorySegment handle, PortSpace portSpace, CmId listener) {
        return channel.lifetime().create(ch -> new CmId(channel, handle, portSpace, listener));
    }

    long address() {
        return address;
    }

    public EventChannel channel() {
        return channel;
    }

    public PortSpace portSpace() {
        return portSpace;
    }

    /** The listening id whose connect request created this one, or null. */
    public CmId listener() {
        return listener;
    }

    /** {@code rdma_bind_addr}: binds to a local address (port 0 picks a free port; see {@link #localAddress()}). */
    public synchronized void bindAddress(InetSocketAddress address) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment sa = SocketAddresses.write(arena, address);
            int rc = life.call(h -> (int) Cm.rdma_bind_addr.handle().invokeExact(Downcalls.errnoState(), h, sa));
            Errors.check("rdma_bind_addr", rc, "address " + address);
        }
    }

    /**
     * {@code rdma_resolve_addr}: finds the device and port that reach {@code destination} (from {@code source}, or
     * any local address when null), and waits for ADDR_RESOLVED. librdmacm gives up after {@code timeout}; an
     * ADDR_ERROR (e.g. no host answers) or no event within the timeout plus two seconds is a {@link CmException}.
     */
    public void resolveAddress(InetSocketAddress source, InetSocketAddress destination, Duration timeout) {
        startResolveAddress(source, destination, timeout);
        expect("rdma_resolve_addr", CmEventType.ADDR_RESOLVED, timeout.plus(SLACK), "to " + destination);
    }

    /**
     * {@code rdma_resolve_addr} without waiting: ADDR_RESOLVED or ADDR_ERROR follows as an event (wait for it with
     * {@link #awaitEvent}), at the latest when librdmacm gives up after {@code timeout}.
     */
    public synchronized void startResolveAddress(InetSocketAddress source, InetSocketAddress destination,
                                                 Duration timeout) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment src = source == null ? MemorySegment.NULL : SocketAddresses.write(arena, source);
            MemorySegment dst = SocketAddresses.write(arena, destination);
            int ms = millis(timeout);
            int rc = life.call(h -> (int) Cm.rdma_resolve_addr.handle().invokeExact(Downcalls.errnoState(), h, src, dst, ms));
            Errors.check("rdma_resolve_addr", rc, "to " + destination);
        }
    }

    /** {@code rdma_resolve_route}, then waits for ROUTE_RESOLVED (ROUTE_ERROR or timeout: {@link CmException}). */
    public void resolveRoute(Duration timeout) {
        startResolveRoute(timeout);
        expect("rdma_resolve_route", CmEventType.ROUTE_RESOLVED, timeout.plus(SLACK), "to " + peerAddress());
    }

    /** {@code rdma_resolve_route} without waiting: ROUTE_RESOLVED or ROUTE_ERROR follows as an event. */
    public synchronized void startResolveRoute(Duration timeout) {
        int ms = millis(timeout);
        int rc = life.call(h -> (int) Cm.rdma_resolve_route.handle().invokeExact(Downcalls.errnoState(), h, ms));
        Errors.check("rdma_resolve_route", rc, "to " + peerAddress());
    }

    /**
     * {@code rdma_set_option(RDMA_OPTION_ID_TOS)}: the IP type of service of this id's connection (RoCE v2: the
     * DSCP/ECN byte of every packet and the GRH traffic class). Set it after the address is resolved and before the
     * route is (client), or on the listening id before connections arrive.
     *
     * @param tos 0..255
     * @throws IllegalArgumentException when {@code tos} is not 0..255
     */
    public synchronized void setTypeOfService(int tos) {
        if (tos < 0 || tos > 255) {
            throw new IllegalArgumentException("type of service must be 0..255, not " + tos);
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment v = arena.allocate(JAVA_BYTE);
            v.set(JAVA_BYTE, 0, (byte) tos);
            int rc = life.call(h -> (int) Cm.rdma_set_option.handle().invokeExact(Downcalls.errnoState(), h,
                    Constants.RDMA_OPTION_ID, Constants.RDMA_OPTION_ID_TOS,
                    v, 1L));
            Errors.check("rdma_set_option(TOS)", rc, "type of service " + tos);
        }
    }

    /** {@code rdma_listen} on the bound address; connect requests arrive as CONNECT_REQUEST events. */
    public synchronized void listen(int backlog) {
        int rc = life.call(h -> (int) Cm.rdma_listen.handle().invokeExact(Downcalls.errnoState(), h, backlog));
        Errors.check("rdma_listen", rc, "on " + localAddress() + ", backlog " + backlog);
    }

    /**
     * Waits for the next connect request on this listening id. The returned event's {@link CmEvent#id()} is the
     * new id: create its queue pair, then {@link #accept} or {@link #reject} it, and close it when done.
     */
    public CmEvent awaitConnectRequest(Duration timeout) {
        return expect("rdma_listen", CmEventType.CONNECT_REQUEST, timeout, "on " + localAddress());
    }

    /**
     * {@code rdma_create_qp}: a queue pair on this id's device, which librdmacm moves to INIT now and to RTR/RTS
     * on connect or accept. The PD must come from {@link #context()}. Owned by this id: closed with it.
     */
    public synchronized QueuePair createQueuePair(ProtectionDomain pd, QueuePairInit init) {
        if (hasOwnQueuePair()) {
            throw new IllegalStateException("this rdma_cm id already has a queue pair (QP 0x"
                    + Integer.toHexString(qp.qpNumber()) + ")");
        }
        Context device = context();
        if (pd.context() != device) { // one Context per librdmacm ibv_context (borrowedContext)
            throw new IllegalArgumentException("the protection domain belongs to device " + pd.context().name()
                    + ", this rdma_cm id to " + device.name() + ": allocate it from CmId.context()");
        }
        // The id stays open (guarded) while librdmacm creates the QP; rdma_destroy_qp goes through the guard too.
        qp = life.call(id -> (QueuePair) VerbsBridge.get(Context.class).createQueuePair(pd, init, "rdma_create_qp", (pdHandle, attr) -> {
            int rc = (int) Cm.rdma_create_qp.handle().invokeExact(Downcalls.errnoState(), id, pdHandle, attr);
            return rc == 0 ? id.get(ADDRESS, QP) : MemorySegment.NULL;
        }, () -> life.call(h -> {
            Cm.rdma_destroy_qp.handle().invokeExact(h);
            return null;
        })));
        return qp;
    }

    /** The queue pair made by {@link #createQueuePair}, or null. */
    public synchronized QueuePair queuePair() {
        return qp;
    }

    /**
     * The device context of this id ({@code id->verbs}), known after bind, address resolution or a connect
     * request. librdmacm opens each device once per process and owns it: every id on the same device returns the
     * same {@link Context} object ({@link Context#isBorrowed()}), PDs and CQs allocated from it can be shared by those
     * ids, and its {@code close()} does nothing (close what you allocated from it instead). A queue pair made with
     * {@link #createQueuePair} must use a PD of this context. An application's own queue pair (moved with
     * {@link #queuePairAttributes}) may instead live on a context opened separately with {@code Context.open} for the
     * same device: the attributes name the port, GID and path, not the ibv_context.
     */
    public Context context() {
        MemorySegment verbs = life.call(h -> h.get(ADDRESS, VERBS));
        if (verbs.equals(MemorySegment.NULL)) {
            throw new IllegalStateException("this rdma_cm id has no device yet: bind it to a local address or "
                    + "resolve an address first");
        }
        return (Context) VerbsBridge.get(Context.class).borrowedContext(verbs);
    }

    /**
     * The {@code struct rdma_cm_id *}, for native code that takes it; valid until {@link #close()} (throws
     * IllegalStateException after). Keep the id open while native code may use it, and leave its destruction to
     * close().
     */
    public MemorySegment nativeHandle() {
        return life.handle();
    }

    /** The device port of this id ({@code id->port_num}), 0 before it has one. */
    public int port() {
        return life.call(h -> Byte.toUnsignedInt(h.get(JAVA_BYTE, PORT_NUM)));
    }

    /** The local address ({@code rdma_get_local_addr}: id->route.addr.src_addr), or null before bind/resolve. */
    public InetSocketAddress localAddress() {
        return life.call(h -> SocketAddresses.read(h.asSlice(SRC, STORAGE)));
    }

    /** The peer's address ({@code rdma_get_peer_addr}: id->route.addr.dst_addr), or null if none yet. */
    public InetSocketAddress peerAddress() {
        return life.call(h -> SocketAddresses.read(h.asSlice(DST, STORAGE)));
    }

    /**
     * {@code rdma_connect}, then waits for the event that says the peer accepted; returns it (with the peer's
     * private data from the accept, and its QP number). That event is ESTABLISHED when this id has a queue pair from
     * {@link #createQueuePair}, which librdmacm then moves to RTS itself, and for {@link PortSpace#UDP} (where it also
     * carries the peer's address vector, QP number and Q_Key). For an application's own queue pair
     * ({@link ConnectionParameters#qpNumber}) it is CONNECT_RESPONSE: move the queue pair to RTS with
     * {@link #queuePairAttributes}, then call {@link #establish()}.
     */
    public CmEvent connect(ConnectionParameters parameters, Duration timeout) {
        boolean librdmacmMovesTheQp = portSpace == PortSpace.UDP || hasOwnQueuePair();
        startConnect(parameters);
        return expect("rdma_connect", librdmacmMovesTheQp ? CmEventType.ESTABLISHED : CmEventType.CONNECT_RESPONSE,
                timeout, "to " + peerAddress());
    }

    private synchronized boolean hasOwnQueuePair() {
        return qp != null && !qp.isClosed();
    }

    /**
     * {@code rdma_connect} without waiting: the outcome arrives as an event (ESTABLISHED, CONNECT_RESPONSE, REJECTED,
     * ...).
     */
    public synchronized void startConnect(ConnectionParameters parameters) {
        if (parameters == null) {
            throw new IllegalArgumentException("connection parameters are required");
        }
        if (portSpace == PortSpace.TCP) {
            InitAttributes.checkQueuePairNumber("rdma_connect", hasOwnQueuePair() ? qp.qpNumber() : 0, parameters);
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment param = parameters.toNative(arena);
            int rc = life.call(h -> (int) Cm.rdma_connect.handle().invokeExact(Downcalls.errnoState(), h, param));
            Errors.check("rdma_connect", rc, "to " + peerAddress());
        }
    }

    /**
     * {@code rdma_accept} on an id from a connect request, then waits for ESTABLISHED (for the application's own
     * queue pair: move it to RTR and RTS with {@link #queuePairAttributes} first; librdmacm does it only for a queue
     * pair from {@link #createQueuePair}). Not for {@link PortSpace#UDP}, whose passive side gets no ESTABLISHED
     * (the SIDR reply ends the exchange): use {@link #startAccept} there.
     */
    public CmEvent accept(ConnectionParameters parameters, Duration timeout) {
        if (portSpace == PortSpace.UDP) {
            throw new IllegalStateException("rdma_accept of an RDMA_PS_UDP request sends the SIDR reply and no "
                    + "ESTABLISHED event follows on this side: use startAccept");
        }
        startAccept(parameters);
        return expect("rdma_accept", CmEventType.ESTABLISHED, timeout, "from " + peerAddress());
    }

    /** {@code rdma_accept} without waiting for ESTABLISHED (the whole accept, for {@link PortSpace#UDP}). */
    public synchronized void startAccept(ConnectionParameters parameters) {
        if (parameters == null) {
            throw new IllegalArgumentException("connection parameters are required");
        }
        InitAttributes.checkQueuePairNumber("rdma_accept", hasOwnQueuePair() ? qp.qpNumber() : 0, parameters);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment param = parameters.toNative(arena);
            int rc = life.call(h -> (int) Cm.rdma_accept.handle().invokeExact(Downcalls.errnoState(), h, param));
            Errors.check("rdma_accept", rc, "from " + peerAddress());
        }
    }

    /**
     * {@code rdma_init_qp_attr}: the attributes rdma_cm negotiated for moving a queue pair the application created
     * itself to {@code state} (INIT, RTR or RTS), for {@code QueuePair.modify}: port and P_Key index for INIT; the
     * peer's address vector, QP number, PSN, path MTU and responder resources for RTR; PSN, timeouts, retry counts
     * and initiator depth for RTS. Available once the route is resolved (active side) or the connect request
     * arrived (passive side); RTR and RTS need the peer's answer on the active side (CONNECT_RESPONSE). They apply
     * to a queue pair on {@link #context()} as well as to one created on a context opened separately for the same
     * device ({@code Context.open}): they carry port, GID index and path, nothing of the ibv_context.
     */
    public synchronized QueuePairAttributes queuePairAttributes(QueuePairState state) {
        return InitAttributes.of(this, life, state);
    }

    /**
     * {@code rdma_establish}: the active side's last step for a queue pair the application created itself: after
     * {@link #connect} returned CONNECT_RESPONSE and the queue pair is in RTS, sends the RTU that makes the passive
     * side's accept end in ESTABLISHED. This side gets no further event. Refused for an id with a queue pair from
     * {@link #createQueuePair}, for which librdmacm sends the RTU itself (it would fail with EINVAL).
     */
    public synchronized void establish() {
        life.handle();
        if (hasOwnQueuePair()) {
            throw new IllegalStateException("rdma_establish is for a queue pair the application created itself; "
                    + "librdmacm already completed the connection of QP 0x" + Integer.toHexString(qp.qpNumber()));
        }
        int rc = life.call(h -> (int) Cm.rdma_establish.handle().invokeExact(Downcalls.errnoState(), h));
        Errors.check("rdma_establish", rc, "to " + peerAddress());
    }

    /**
     * {@code rdma_reject}: refuses a connect request, sending {@code privateData} (may be null) to the peer,
     * which sees a REJECTED event. The id still has to be closed.
     */
    public synchronized void reject(byte[] privateData) {
        byte[] data = privateData == null ? new byte[0] : privateData;
        if (data.length > 255) {
            throw new IllegalArgumentException("private data is at most 255 bytes, not " + data.length);
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment p = data.length == 0 ? MemorySegment.NULL : arena.allocateFrom(JAVA_BYTE, data);
            int rc = life.call(h -> (int) Cm.rdma_reject.handle().invokeExact(Downcalls.errnoState(), h, p, (byte) data.length));
            Errors.check("rdma_reject", rc, "from " + peerAddress());
        }
    }

    /**
     * {@code rdma_disconnect} without waiting; both sides then get DISCONNECTED. The side that receives
     * DISCONNECTED first should call this too: on InfiniBand and RoCE that sends the DREP that completes the
     * initiator's disconnect, which otherwise waits for its DREQ to time out.
     */
    public synchronized void disconnect() {
        int rc = life.call(h -> (int) Cm.rdma_disconnect.handle().invokeExact(Downcalls.errnoState(), h));
        Errors.check("rdma_disconnect", rc, "from " + peerAddress());
    }

    /** {@code rdma_disconnect}, then waits for this side's DISCONNECTED. */
    public CmEvent disconnect(Duration timeout) {
        disconnect();
        return expect("rdma_disconnect", CmEventType.DISCONNECTED, timeout, "from " + peerAddress());
    }

    /**
     * Waits for the next event of this id and requires it to be {@code expected} (e.g. the DISCONNECTED that
     * follows the peer's disconnect): an error event, another event or the timeout is a {@link CmException}.
     */
    public CmEvent awaitEvent(CmEventType expected, Duration timeout) {
        return expect("rdma_get_cm_event", expected, timeout, "rdma_cm id " + localAddress());
    }

    /**
     * The next event of this id (connect requests, for a listener), or null if none arrived within the timeout (null:
     * no limit). {@link Duration#ZERO} checks without waiting, and allocates nothing when there is no event.
     */
    public CmEvent nextEvent(Duration timeout) {
        return channel.take(mine, timeout);
    }

    private CmEvent expect(String verb, CmEventType expected, Duration timeout, String about) {
        return channel.expect(this, verb, expected, timeout, about);
    }

    private static int millis(Duration timeout) {
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive, not " + timeout);
        }
        return (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
    }

    /** True once closed. */
    public boolean isClosed() {
        return life.isClosed();
    }

    /**
     * Destroys the id's queue pair ({@code rdma_destroy_qp}) if it has one, then the id ({@code rdma_destroy_id},
     * whose result is checked). Idempotent; refused (IllegalStateException) while objects created from the queue
     * pair are open. A call on the id in progress on another thread finishes first; later ones throw
     * IllegalStateException.
     */
    @Override
    public synchronized void close() {
        if (life.isClosed()) {
            return;
        }
        if (hasOwnQueuePair()) {
            qp.close();
        }
        life.close();
    }

    @Override
    public String toString() {
        if (life.isClosed()) {
            return "CmId[closed]";
        }
        return "CmId[" + portSpace + " " + localAddress() + " -> " + peerAddress() + "]";
    }
}
