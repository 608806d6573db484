package io.rdmaffm.examples.kv;

import io.rdmaffm.verbs.Access;
import io.rdmaffm.verbs.MemoryRegion;
import io.rdmaffm.verbs.connect.Connection;
import io.rdmaffm.verbs.connect.ConnectionException;
import io.rdmaffm.verbs.connect.ConnectionOptions;
import io.rdmaffm.verbs.connect.Message;
import io.rdmaffm.verbs.connect.RdmaServer;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The store: accepts {@code clients} connections, serves each on its own thread (blocking receive, one response per
 * request) until its client disconnects, then exits. Values live in one map shared by all clients.
 */
final class KvServer {
    private final InetSocketAddress address;
    private final int clients;
    private final Duration timeout;
    private final Map<String, byte[]> store = new ConcurrentHashMap<>();

    KvServer(InetSocketAddress address, int clients, Duration timeout) {
        this.address = address;
        this.clients = clients;
        this.timeout = timeout;
    }

    int run() throws InterruptedException {
        ConnectionOptions options = new ConnectionOptions().bufferSize(RdmaKv.MAX_MESSAGE);
        List<Thread> served = new ArrayList<>();
        List<Throwable> failures = new ArrayList<>();
        try (RdmaServer server = RdmaServer.listen(address, options)) {
            System.out.println("rdma-kv: serving on " + server.localAddress());
            System.out.flush();
            for (int i = 0; i < clients; i++) {
                Connection c = server.accept(timeout);
                Thread t = Thread.ofPlatform().name("rdma-kv " + c.peerAddress()).start(() -> {
                    try (c) {
                        serve(c);
                    } catch (RuntimeException e) {
                        synchronized (failures) {
                            failures.add(e);
                        }
                        System.err.println("rdma-kv: client " + c.peerAddress() + ": " + e.getMessage());
                    }
                });
                served.add(t);
            }
        }
        for (Thread t : served) {
            t.join();
        }
        return failures.isEmpty() ? 0 : 1;
    }

    private void serve(Connection c) {
        MemoryRegion out = c.allocateRegion(RdmaKv.MAX_MESSAGE, Access.LOCAL_WRITE);
        long requests = 0;
        while (true) {
            Message m;
            try {
                m = c.receive(Duration.ofDays(1));
            } catch (ConnectionException e) {
                if (e.reason() == ConnectionException.Reason.PEER_DISCONNECTED) {
                    System.out.println("rdma-kv: " + c.peerAddress() + " done after " + requests + " requests");
                    return;
                }
                throw e;
            }
            byte op;
            byte[] key;
            byte[] value;
            try {
                ByteBuffer in = KvProtocol.view(m.buffer(), m.length());
                op = in.get();
                key = new byte[Short.toUnsignedInt(in.getShort())];
                value = new byte[in.getInt()];
                in.get(key).get(value);
            } finally {
                m.release();
            }
            int length = switch (op) {
                case KvProtocol.PUT -> {
                    store.put(new String(key, java.nio.charset.StandardCharsets.UTF_8), value);
                    yield KvProtocol.response(out.segment(), KvProtocol.OK, new byte[0]);
                }
                case KvProtocol.GET -> {
                    byte[] v = store.get(new String(key, java.nio.charset.StandardCharsets.UTF_8));
                    yield v == null ? KvProtocol.response(out.segment(), KvProtocol.NOT_FOUND, new byte[0])
                            : KvProtocol.response(out.segment(), KvProtocol.OK, v);
                }
                case KvProtocol.ECHO -> KvProtocol.response(out.segment(), KvProtocol.OK, value);
                default -> throw new IllegalStateException("unknown request '" + (char) op + "'");
            };
            c.send(out, 0, length, timeout);
            requests++;
        }
    }
}
