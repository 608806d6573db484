package io.rdmaffm.verbs.connect;

import io.rdmaffm.verbs.Access;
import io.rdmaffm.verbs.MemoryRegion;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The connection example of the README, verbatim between the markers (DocsCodeTest checks the README holds it). */
@Tag("rdma")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ReadmeConnectionRdmaTest {

    static void server(InetAddress ip, int port, PrintStream out) {
        // --- server start ---
        try (RdmaServer server = RdmaServer.listen(new InetSocketAddress(ip, port));
             Connection c = server.accept(Duration.ofSeconds(30))) {
            MemoryRegion table = c.allocateRegion(4096, Access.LOCAL_WRITE | Access.REMOTE_READ);
            table.segment().setString(0, "read me remotely");
            MemoryRegion note = c.allocateRegion(64, Access.LOCAL_WRITE);
            RemoteBuffer.of(table).encodeTo(note.segment(), 0);            // address, rkey, length
            c.send(note, 0, RemoteBuffer.ENCODED_LENGTH, Duration.ofSeconds(5));
            Message m = c.receive(Duration.ofSeconds(30));                  // the client's answer
            out.println("server got: " + m.buffer().getString(0));
            m.release();                                                    // the buffer goes back to work
        }
        // --- server end ---
    }

    static void client(InetAddress ip, int port, PrintStream out) {
        // --- client start ---
        try (Connection c = Connection.connect(new InetSocketAddress(ip, port), Duration.ofSeconds(10))) {
            Message m = c.receive(Duration.ofSeconds(5));
            RemoteBuffer table = RemoteBuffer.decode(m.buffer(), 0);
            m.release();
            MemoryRegion buf = c.allocateRegion(4096, Access.LOCAL_WRITE);
            c.read(buf, 0, table, 0, 17, Duration.ofSeconds(5));           // RDMA READ, bounds checked first
            out.println("client read: " + buf.segment().getString(0));
            buf.segment().setString(0, "thanks");
            c.send(buf, 0, 7, Duration.ofSeconds(5));
        }
        // --- client end ---
    }

    @Test
    void serverAndClient() throws Exception {
        InetAddress ip = ConnectedPair.ipv4();
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        ByteArrayOutputStream serverOut = new ByteArrayOutputStream();
        ByteArrayOutputStream clientOut = new ByteArrayOutputStream();
        CompletableFuture<Void> s = CompletableFuture.runAsync(
                () -> server(ip, port, new PrintStream(serverOut, true, StandardCharsets.UTF_8)));
        for (int attempt = 0; ; attempt++) { // until the server listens
            try {
                client(ip, port, new PrintStream(clientOut, true, StandardCharsets.UTF_8));
                break;
            } catch (ConnectionException e) {
                if (attempt == 50 || e.reason() != ConnectionException.Reason.CONNECT_FAILED) {
                    throw e;
                }
                Thread.sleep(100);
            }
        }
        s.get(60, TimeUnit.SECONDS);
        assertEquals("client read: read me remotely\n", clientOut.toString(StandardCharsets.UTF_8));
        assertEquals("server got: thanks\n", serverOut.toString(StandardCharsets.UTF_8));
    }
}
