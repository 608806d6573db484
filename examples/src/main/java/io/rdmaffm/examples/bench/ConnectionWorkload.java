package io.rdmaffm.examples.bench;

import io.rdmaffm.verbs.Access;
import io.rdmaffm.verbs.MemoryRegion;
import io.rdmaffm.verbs.connect.Connection;
import io.rdmaffm.verbs.connect.ConnectionOptions;
import io.rdmaffm.verbs.connect.Message;
import io.rdmaffm.verbs.connect.RdmaServer;
import io.rdmaffm.verbs.connect.RemoteBuffer;
import org.HdrHistogram.Histogram;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The workload through the connection API, poll style (tryWrite/tryRead, progress, isComplete); with {@code blocking},
 * the READs are the blocking {@code read} instead, which parks the calling thread until the driver signals.
 */
final class ConnectionWorkload implements Workload {
    private static final Duration T = Duration.ofSeconds(60);

    private final RdmaServer server;
    private final Connection client;
    private final Connection served;
    private final MemoryRegion target;
    private final MemoryRegion source;
    private final MemoryRegion readInto;
    private final RemoteBuffer remote;

    private final boolean blocking;

    ConnectionWorkload(InetAddress ip, long bytes, boolean blocking) throws Exception {
        this.blocking = blocking;
        server = RdmaServer.listen(new InetSocketAddress(ip, 0));
        CompletableFuture<Connection> accepted = CompletableFuture.supplyAsync(() -> server.accept(T));
        client = Connection.connect(server.localAddress(), new ConnectionOptions().sendQueueDepth(IN_FLIGHT)
                .signalInterval(SIGNAL_EVERY), T);
        served = accepted.get(60, TimeUnit.SECONDS);
        target = served.allocateRegion(bytes, Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ);
        MemoryRegion note = served.allocateRegion(64, Access.LOCAL_WRITE);
        RemoteBuffer.of(target).encodeTo(note.segment(), 0);
        served.send(note, 0, RemoteBuffer.ENCODED_LENGTH, T);
        Message m = client.receive(T);
        remote = RemoteBuffer.decode(m.buffer(), 0);
        m.release();
        source = client.allocateRegion(bytes, Access.LOCAL_WRITE);
        RawVerbsWorkload.fill(source.segment());
        readInto = client.allocateRegion(64, Access.LOCAL_WRITE);
    }

    @Override
    public String name() {
        return blocking ? "connection API (blocking)" : "connection API";
    }

    @Override
    public long transfer() {
        target.segment().fill((byte) 0);
        long start = System.nanoTime();
        long last = 0;
        for (long off = 0; off < source.length(); off += WRITE_SIZE) {
            int len = (int) Math.min(WRITE_SIZE, source.length() - off);
            while ((last = client.tryWrite(source, off, remote, off, len)) < 0) {
                client.progress();
            }
        }
        while (!client.isComplete(last)) {
            client.progress();
        }
        return System.nanoTime() - start;
    }

    @Override
    public boolean verify() {
        return target.segment().mismatch(source.segment()) == -1;
    }

    @Override
    public void reads(int n, Histogram into) {
        for (int i = 0; i < n; i++) {
            long t0 = System.nanoTime();
            if (blocking) {
                client.read(readInto, 0, remote, 8L * (i & 1023), 8, T);
                if (into != null) {
                    into.recordValue(System.nanoTime() - t0);
                }
                continue;
            }
            long seq;
            while ((seq = client.tryRead(readInto, 0, remote, 8L * (i & 1023), 8)) < 0) {
                client.progress();
            }
            while (!client.isComplete(seq)) {
                client.progress();
            }
            if (into != null) {
                into.recordValue(System.nanoTime() - t0);
            }
        }
    }

    @Override
    public void close() {
        try {
            client.close();
            served.close();
        } finally {
            server.close();
        }
    }
}
