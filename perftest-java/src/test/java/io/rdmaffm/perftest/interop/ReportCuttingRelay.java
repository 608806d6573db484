package io.rdmaffm.perftest.interop;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A TCP relay between a perftest client and its server that kills the client in the middle of the run's final
 * exchange (the report or closing handshake that follows the measured loop). Until {@link #arm} everything
 * passes unchanged; the first bytes the client sends after it are the start of that exchange: the relay passes
 * the first half of them on, runs the kill, then closes its connection to the server as the kernel closes a
 * killed process's socket. The server has then seen half a message and the end of the stream.
 */
final class ReportCuttingRelay implements AutoCloseable {
    private final ServerSocket listener;
    /** Counted down when the client-to-server direction ends, cut or not. */
    private final CountDownLatch cut = new CountDownLatch(1);
    private volatile Runnable kill;
    private volatile int passedBytes = -1;
    private volatile int heldBytes;

    /** Listens on an ephemeral port of {@code host}, relaying one connection to {@code serverPort}. */
    ReportCuttingRelay(String host, int serverPort) throws IOException {
        listener = new ServerSocket(0, 1, InetAddress.getByName(host));
        Thread t = new Thread(() -> {
            try (Socket client = listener.accept();
                 Socket server = new Socket()) {
                server.connect(new InetSocketAddress(host, serverPort), 10_000);
                Thread down = pump(server.getInputStream(), client.getOutputStream(), null);
                pump(client.getInputStream(), server.getOutputStream(), server).join();
                down.join(10_000);
            } catch (IOException | InterruptedException e) {
                // either side closed: the relay ends with the run
            }
        }, "report-cut-relay");
        t.setDaemon(true);
        t.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    /** From now on, the client's next bytes are its final exchange: cut them in half and run {@code kill}. */
    void arm(Runnable killTheClient) {
        kill = killTheClient;
    }

    /** Waits until the cut happened; false if the client closed or sent nothing more within {@code seconds}. */
    boolean awaitCut(long seconds) throws InterruptedException {
        return cut.await(seconds, TimeUnit.SECONDS) && passedBytes >= 0;
    }

    /** "12 of 24 bytes": what the server got of the client's first message after {@link #arm}. */
    String describeCut() {
        return passedBytes < 0 ? "no cut" : passedBytes + " of the first " + (passedBytes + heldBytes) + " bytes";
    }

    /** {@code cutSide}: the server's socket, for the client-to-server direction (the one that is cut). */
    private Thread pump(InputStream in, OutputStream out, Socket cutSide) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[4096];
            try {
                for (int n; (n = in.read(buf)) > 0; ) {
                    Runnable k = kill;
                    if (cutSide == null || k == null) {
                        out.write(buf, 0, n);
                        continue;
                    }
                    int half = n / 2;
                    out.write(buf, 0, half);
                    out.flush();
                    passedBytes = half;
                    heldBytes = n - half;
                    k.run();
                    cutSide.close();
                    return;
                }
            } catch (IOException e) {
                // closed
            } finally {
                if (cutSide != null) {
                    cut.countDown();
                }
                try {
                    out.close();
                } catch (IOException e) {
                    // already closed
                }
            }
        }, "report-cut-pump");
        t.setDaemon(true);
        t.start();
        return t;
    }

    @Override
    public void close() throws IOException {
        listener.close();
    }
}
