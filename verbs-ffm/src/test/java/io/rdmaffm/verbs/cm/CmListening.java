package io.rdmaffm.verbs.cm;

import io.rdmaffm.verbs.RdmaTestDevice;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Test support for the rdma_cm tests: a listener bound to port 0 of an address of the test device, on its own event
 * channel, and a client task that runs on another thread (sharing the channel, as librdmacm allows) while the test
 * thread plays the server. Closing stops the client thread, destroys the listener, then the channel.
 */
final class CmListening implements AutoCloseable {
    final EventChannel channel;
    final CmId listener;
    /** Where the listener listens, with the port chosen. */
    final InetSocketAddress bound;
    private final ExecutorService clientThread = Executors.newSingleThreadExecutor();

    CmListening(InetAddress ip, PortSpace space, int backlog) {
        channel = EventChannel.create();
        CmId id = null;
        try {
            id = channel.createId(space);
            id.bindAddress(new InetSocketAddress(ip, 0));
            id.listen(backlog);
            listener = id;
            bound = id.localAddress();
        } catch (RuntimeException | Error e) {
            if (id != null) {
                id.close();
            }
            clientThread.shutdownNow();
            channel.close();
            throw e;
        }
    }

    /** The IPv4 address of the test device: RDMA_IP, else the address in its IPv4-mapped GID. */
    static InetAddress ipv4() throws Exception {
        return RdmaTestDevice.ipv4Address();
    }

    /** Runs the client side on the other thread. */
    <T> Future<T> client(Callable<T> run) {
        return clientThread.submit(run);
    }

    /** The next connect request, at most {@code timeout}. */
    CmEvent awaitRequest(Duration timeout) {
        return listener.awaitConnectRequest(timeout);
    }

    @Override
    public void close() {
        try {
            listener.close();
        } finally {
            clientThread.shutdownNow();
            channel.close();
        }
    }
}
