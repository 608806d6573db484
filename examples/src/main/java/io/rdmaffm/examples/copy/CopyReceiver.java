package io.rdmaffm.examples.copy;

import io.rdmaffm.examples.Cli;
import io.rdmaffm.verbs.Access;
import io.rdmaffm.verbs.MemoryRegion;
import io.rdmaffm.verbs.connect.Connection;
import io.rdmaffm.verbs.connect.ConnectionException;
import io.rdmaffm.verbs.connect.RdmaServer;
import io.rdmaffm.verbs.connect.RemoteBuffer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.zip.CRC32C;

/**
 * The receiving side: accepts one sender, offers a window of two halves for its RDMA WRITEs, writes each half to
 * {@code NAME.part} when told, and renames it to {@code NAME} once size and checksum match.
 */
final class CopyReceiver {
    private final InetSocketAddress address;
    private final Path dir;
    private final Duration timeout;

    CopyReceiver(InetSocketAddress address, Path dir, Duration timeout) {
        this.address = address;
        this.dir = dir;
        this.timeout = timeout;
    }

    int run() throws IOException {
        if (!Files.isDirectory(dir) || !Files.isWritable(dir)) {
            throw new Cli.BadInput("--dir " + dir + " is not a writable directory");
        }
        Connection c;
        try (RdmaServer server = RdmaServer.listen(address)) {
            System.out.println("rdma-copy: receiving on " + server.localAddress());
            System.out.flush();
            c = server.accept(timeout);
        }
        try (c) {
            CopyProtocol p = new CopyProtocol(c, timeout);
            ByteBuffer h = p.expect(CopyProtocol.HEADER);
            long size = h.getLong();
            int asked = h.getInt();
            String name = checkedName(CopyProtocol.utf8(h, Short.toUnsignedInt(h.getShort())));
            System.out.println("rdma-copy: connected to " + c.peerAddress() + ", receiving " + name + " (" + size
                    + " bytes)");
            System.out.flush();
            Path part = dir.resolve(name + ".part");
            boolean ok = receive(c, p, part, size, asked);
            if (ok) {
                Files.move(part, dir.resolve(name), StandardCopyOption.REPLACE_EXISTING);
                System.out.println("rdma-copy: wrote " + dir.resolve(name));
            }
            awaitSenderClose(c);
            return ok ? 0 : Cli.FAILED;
        }
    }

    /** The sender's file name, as a plain name in {@code dir}: no directories, nothing hidden behind "..". */
    private static String checkedName(String name) {
        if (name.isEmpty() || name.contains("/") || name.contains("\\") || name.equals(".") || name.equals("..")
                || name.indexOf('\0') >= 0) {
            throw new IllegalStateException("the sender named its file '" + name + "', which is not a plain file name");
        }
        return name;
    }

    private boolean receive(Connection c, CopyProtocol p, Path part, long size, int asked) throws IOException {
        // Each half at most what the sender asked for, 64 MiB, and what the file needs.
        int half = (int) Math.max(4096, Math.min(Math.min(asked, 64L << 20), size));
        MemoryRegion window = c.allocateRegion(2L * half, Access.LOCAL_WRITE | Access.REMOTE_WRITE);
        ByteBuffer w = p.start(CopyProtocol.WINDOW);
        w.put(RemoteBuffer.of(window).encode()).putInt(half);
        p.send(w);
        CRC32C crc = new CRC32C();
        long written = 0;
        try (FileChannel out = FileChannel.open(part, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            while (true) {
                ByteBuffer m = p.receive();
                byte type = m.get();
                if (type == CopyProtocol.CHUNK) {
                    int which = m.getInt();
                    int length = m.getInt();
                    long offset = m.getLong();
                    if (which < 0 || which > 1 || length < 0 || length > half || offset != written) {
                        throw new IllegalStateException("protocol error: chunk of half " + which + ", " + length
                                + " bytes at " + offset + " (expected offset " + written + ")");
                    }
                    ByteBuffer data = window.segment().asSlice((long) which * half, length).asByteBuffer();
                    crc.update(data.duplicate());
                    while (data.hasRemaining()) {
                        out.write(data, offset + length - data.remaining());
                    }
                    written += length;
                    p.send(p.start(CopyProtocol.ACK).putInt(which));
                } else if (type == CopyProtocol.DONE) {
                    long total = m.getLong();
                    int theirs = m.getInt();
                    boolean ok = total == size && written == size && theirs == (int) crc.getValue();
                    p.send(p.start(CopyProtocol.RESULT).put((byte) (ok ? 1 : 0)).putInt((int) crc.getValue()));
                    if (!ok) {
                        System.err.printf("rdma-copy: %d of %d bytes, CRC-32C 0x%08x here, 0x%08x at the sender%n",
                                written, size, (int) crc.getValue(), theirs);
                    }
                    return ok;
                } else {
                    throw new IllegalStateException("protocol error: unexpected message '" + (char) type + "'");
                }
            }
        }
    }

    /** The sender closes once it has the result: wait for that, so it surely read it (at most 5 s). */
    private static void awaitSenderClose(Connection c) {
        try {
            c.receive(Duration.ofSeconds(5)).release();
        } catch (ConnectionException e) {
            // PEER_DISCONNECTED, or a timeout: either way the result was sent
        }
    }
}
