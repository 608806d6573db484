package io.rdmaffm.examples.copy;

import io.rdmaffm.examples.Cli;
import io.rdmaffm.verbs.Access;
import io.rdmaffm.verbs.MemoryRegion;
import io.rdmaffm.verbs.connect.Connection;
import io.rdmaffm.verbs.connect.ConnectionOptions;
import io.rdmaffm.verbs.connect.RemoteBuffer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.zip.CRC32C;

/**
 * The sending side: reads the file into a registered staging buffer of two halves (the mirror of the receiver's
 * window) and pushes each half with pipelined RDMA WRITEs, poll style (16 in flight, every 8th signaled, as the
 * library counts); a CHUNK message after the writes tells the receiver (RC delivers it after the written bytes).
 * A half is refilled once the receiver acknowledged it.
 */
final class CopySender {
    /** Bytes per RDMA WRITE. */
    private static final int WRITE_SIZE = 256 * 1024;

    private final Path file;
    private final InetSocketAddress address;
    private final int windowMib;
    private final Duration timeout;

    CopySender(Path file, InetSocketAddress address, int windowMib, Duration timeout) {
        this.file = file;
        this.address = address;
        this.windowMib = windowMib;
        this.timeout = timeout;
    }

    int run() throws IOException {
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            throw new Cli.BadInput(file + " is not a readable file");
        }
        long size = Files.size(file);
        byte[] name = CopyProtocol.utf8(file.getFileName().toString());
        if (name.length > 1024) {
            throw new Cli.BadInput("the file name is longer than 1024 bytes");
        }
        ConnectionOptions options = new ConnectionOptions().sendQueueDepth(16).signalInterval(8);
        try (Connection c = Connection.connect(address, options, timeout);
             FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
            CopyProtocol p = new CopyProtocol(c, timeout);
            p.send(p.start(CopyProtocol.HEADER).putLong(size).putInt(windowMib << 20).putShort((short) name.length)
                    .put(name));
            ByteBuffer w = p.expect(CopyProtocol.WINDOW);
            byte[] encoded = new byte[RemoteBuffer.ENCODED_LENGTH];
            w.get(encoded);
            RemoteBuffer window = RemoteBuffer.decode(encoded);
            int half = w.getInt(); // the receiver's answer: it may be less than asked
            long start = System.nanoTime();
            int crc = push(c, p, in, size, window, half);
            p.send(p.start(CopyProtocol.DONE).putLong(size).putInt(crc));
            ByteBuffer r = p.expect(CopyProtocol.RESULT);
            boolean ok = r.get() == 1;
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.printf("rdma-copy: %s %d bytes to %s in %.3f s (%.1f MB/s), CRC-32C 0x%08x%s%n",
                    ok ? "copied" : "FAILED to copy", size, address, seconds, size / seconds / (1 << 20), crc,
                    ok ? "" : ", the receiver has 0x" + Integer.toHexString(r.getInt()));
            return ok ? 0 : Cli.FAILED;
        }
    }

    /** Moves the file through the window; returns its CRC-32C. */
    private static int push(Connection c, CopyProtocol p, FileChannel in, long size, RemoteBuffer window, int half)
            throws IOException {
        MemoryRegion staging = c.allocateRegion(2L * half, Access.LOCAL_WRITE);
        CRC32C crc = new CRC32C();
        boolean[] busy = new boolean[2];
        long offset = 0;
        for (int which = 0; offset < size; which ^= 1) {
            while (busy[which]) {
                busy[p.expect(CopyProtocol.ACK).getInt()] = false;
            }
            int n = (int) Math.min(half, size - offset);
            ByteBuffer data = staging.segment().asSlice((long) which * half, n).asByteBuffer();
            while (data.hasRemaining()) {
                if (in.read(data, offset + data.position()) < 0) {
                    throw new IOException(in + " ended early: the file changed while it was copied");
                }
            }
            crc.update(data.flip());
            for (int done = 0; done < n; done += WRITE_SIZE) {
                int len = Math.min(WRITE_SIZE, n - done);
                long at = (long) which * half + done;
                while (c.tryWrite(staging, at, window, at, len) < 0) {
                    c.progress();
                }
            }
            p.send(p.start(CopyProtocol.CHUNK).putInt(which).putInt(n).putLong(offset));
            busy[which] = true;
            offset += n;
        }
        for (int which = 0; which < 2; which++) {
            while (busy[which]) {
                busy[p.expect(CopyProtocol.ACK).getInt()] = false;
            }
        }
        return (int) crc.getValue();
    }
}
