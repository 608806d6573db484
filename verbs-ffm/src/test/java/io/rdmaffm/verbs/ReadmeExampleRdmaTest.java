package io.rdmaffm.verbs;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The example of docs/verbs-example.md, verbatim between the markers, so the README's code is known to work. */
@Tag("rdma")
class ReadmeExampleRdmaTest {

    static void example(String device, int gidIndex, PrintStream out) {
        // --- example start ---
        try (Context ctx = Context.open(device);
             ProtectionDomain pd = ctx.allocateProtectionDomain();
             MemoryRegion src = pd.allocateRegion(4096, Access.LOCAL_WRITE);
             MemoryRegion dst = pd.allocateRegion(4096, Access.LOCAL_WRITE | Access.REMOTE_WRITE);
             CompletionQueue cq = ctx.createCompletionQueue(16);
             QueuePair qp = pd.createQueuePair(new QueuePairInit(QueuePairType.RC, cq, cq));
             SendWorkRequests send = new SendWorkRequests(1, 1);
             RecvWorkRequests recv = new RecvWorkRequests(1, 1);
             Completions wc = new Completions(1)) {
            // Loopback: the QP's peer is itself, reached through the port's RoCE v2 GID.
            byte[] gid = ctx.queryGid(1, gidIndex).gid();
            qp.modify(QueuePairAttributes.init(1, Access.REMOTE_WRITE));
            qp.modify(QueuePairAttributes.rtrRc(Mtu.MTU_1024, qp.qpNumber(), 0,
                    new AddressVector().port(1).global(gid, gidIndex), 1));
            qp.modify(QueuePairAttributes.rtsRc(0, 14, 7, 7, 1));

            // One RDMA WRITE: "hello" from src into dst.
            src.segment().setString(0, "hello");
            send.get(0).wrId(1).opcode(SendOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED)
                    .local(src, 0, 6).rdma(dst.address(), dst.rkey());
            qp.postSend(send, 1);
            while (cq.poll(wc) == 0) {
                Thread.onSpinWait();
            }
            out.println("write " + wc.status(0) + ": " + dst.segment().getString(0));

            // One SEND (unsignaled: only the receive completes) into a receive posted at offset 64 of dst.
            recv.set(0, 2, dst, 64, 64);
            qp.postRecv(recv, 1);
            src.segment().setString(0, "world");
            send.get(0).wrId(3).opcode(SendOpcode.SEND).local(src, 0, 6);
            qp.postSend(send, 1);
            while (cq.poll(wc) == 0) {
                Thread.onSpinWait();
            }
            out.println(wc.opcode(0) + " " + wc.status(0) + ": " + dst.segment().getString(64));
        }
        // --- example end ---
    }

    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void theReadmeExampleWritesAndSends() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        example(RdmaTestDevice.name(), RdmaTestDevice.gidIndex(), new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String printed = bytes.toString(StandardCharsets.UTF_8);
        System.out.print(printed);
        assertEquals("write SUCCESS: hello\nRECV SUCCESS: world\n", printed);
    }
}
