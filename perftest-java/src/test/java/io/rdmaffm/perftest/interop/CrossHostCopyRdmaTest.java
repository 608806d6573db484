package io.rdmaffm.perftest.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rdma-copy example between two hosts, each side its own command as a user runs it: the receiver on the other
 * host (over ssh), the sender here, over rdma_cm on the RoCE addresses; the copy there must have the file's
 * SHA-256. Run by scripts/test.sh in two VMs (multihost stage).
 */
@Tag("multihost")
class CrossHostCopyRdmaTest {
    private static final long SIZE = 16L << 20;

    @Test
    void rdmaCopyMovesAFileToTheOtherHostByteForByte(@TempDir Path tmp) throws Exception {
        List<String> hosts = RemoteHost.clusterHosts();
        String device = PerftestPeers.device();
        RemoteHost peer = new RemoteHost(System.getProperty("multihost.peer", hosts.get(1)));
        RemoteHost.GidTable there = peer.gids(device);
        String address = there.address(there.ipv4Index()).getHostAddress();
        int port = PerftestPeers.freshPort();
        String dir = "/tmp/rdma-copy-" + port;
        Path file = randomFile(tmp.resolve("data.bin"));
        Path copy = RemoteHost.ROOT.resolve("bin/rdma-copy");

        RemoteHost.Started receiver = peer.startServer(port, true, 300, 180, List.of("sh", "-c",
                "mkdir -p " + dir + " && exec " + copy + " receive " + address + ":" + port + " --dir " + dir
                        + " --timeout 120"));
        PerftestPeers.Outcome sent = PerftestPeers.startProcess(List.of(copy.toString(), "send", file.toString(),
                address + ":" + port, "--window", "4", "--timeout", "120")).await(240);
        PerftestPeers.Outcome received = receiver.await(120);
        String both = "\n--- sender (here) ---\n" + sent.output() + "\n--- receiver (" + peer.name + ") ---\n"
                + received.output();
        assertEquals(0, sent.exitCode(), "the sender's exit status" + both);
        assertEquals(0, received.exitCode(), "the receiver's exit status" + both);
        String sum = peer.run(60, List.of("sha256sum", dir + "/data.bin"));
        assertTrue(sum.startsWith(sha256(file) + " "), "the copy there has the file's SHA-256: " + sum + both);
        peer.run(60, List.of("rm", "-rf", dir));
    }

    private static Path randomFile(Path f) throws Exception {
        SplittableRandom random = new SplittableRandom(SIZE);
        ByteBuffer block = ByteBuffer.allocate(1 << 20);
        try (FileChannel out = FileChannel.open(f, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (long done = 0; done < SIZE; done += block.capacity()) {
                block.clear();
                while (block.hasRemaining()) {
                    block.putLong(random.nextLong());
                }
                block.flip();
                while (block.hasRemaining()) {
                    out.write(block);
                }
            }
        }
        return f;
    }

    private static String sha256(Path f) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(f)));
    }
}
