package io.rdmaffm.verbs.connect;

import io.rdmaffm.verbs.cm.EventChannel;

/**
 * The rdma_cm event channel of a server: librdmacm puts the id of every accepted connection on its listener's
 * channel, so the channel stays open while the server or any of its connections is; the last to go closes it.
 */
final class SharedChannel {
    final EventChannel channel;
    /** Reads the rdma_cm events of the accepted connections. */
    final CmWatcher watcher;
    private int users = 1; // guarded by this: the server itself

    SharedChannel(EventChannel channel, String name) {
        this.channel = channel;
        this.watcher = new CmWatcher(channel, name);
    }

    synchronized void acquire() {
        users++;
    }

    synchronized void release() {
        if (--users == 0) {
            watcher.stop();
            channel.close();
        }
    }
}
