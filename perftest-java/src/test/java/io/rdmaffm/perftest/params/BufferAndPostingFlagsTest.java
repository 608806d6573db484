package io.rdmaffm.perftest.params;

import io.rdmaffm.perftest.vocab.Tool;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static io.rdmaffm.perftest.params.Flag.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * perftest 4.5's buffer and posting flags: {@code --use_hugepages}, {@code --mmap}/{@code --mmap-offset},
 * {@code --use_old_post_send}, {@code --inline_recv}, {@code --recv_post_list}: defaults, the tools that take
 * them, the rules between them (perftest's message where it has one) and what the JSON shows.
 */
class BufferAndPostingFlagsTest {

    @Test
    void defaultsAndTools() {
        RunParameters bw = ParameterRules.check(Tool.SEND_BW, new ToolOptions());
        assertFalse(bw.on(HUGEPAGES));
        assertNull(bw.value(MMAP));
        assertEquals(0L, bw.value(MMAP_OFFSET));
        assertEquals(0, bw.value(INLINE_RECV));
        assertEquals(1, bw.value(RECV_POST_LIST));
        // perftest's help: --inline_recv where the verb is not WRITE, --recv_post_list on the bandwidth tools.
        assertTrue(INLINE_RECV.takenBy(Tool.SEND_LAT) && INLINE_RECV.takenBy(Tool.READ_BW)
                && INLINE_RECV.takenBy(Tool.ATOMIC_LAT));
        assertFalse(INLINE_RECV.takenBy(Tool.WRITE_BW) || INLINE_RECV.takenBy(Tool.WRITE_LAT));
        assertTrue(RECV_POST_LIST.takenBy(Tool.WRITE_BW));
        assertFalse(RECV_POST_LIST.takenBy(Tool.SEND_LAT));
        for (Flag f : new Flag[] {HUGEPAGES, MMAP, MMAP_OFFSET, OLD_POST_SEND}) {
            assertFalse(f.rawEthernet(), f.name());
            for (Tool t : Tool.values()) {
                assertTrue(f.takenBy(t), f + " on " + t);
            }
        }
    }

    @Test
    void theJsonNamesWhatWasChosen() {
        var m = ParameterRules.check(Tool.SEND_BW, new ToolOptions().with(MMAP, Path.of("buf.bin"))
                .with(MMAP_OFFSET, 8192L).with(RECV_POST_LIST, 4).with(INLINE_RECV, 64)).describe("c");
        assertEquals("file buf.bin from offset 8192", m.get("memory"));
        assertEquals(4, m.get("recv_post_list"));
        assertEquals(64, m.get("inline_recv"));
        assertEquals("huge pages", ParameterRules.check(Tool.WRITE_LAT, new ToolOptions().with(HUGEPAGES))
                .describe("c").get("memory"));
        assertEquals("file /dev/shm/b", ParameterRules.check(Tool.READ_LAT, new ToolOptions()
                .with(MMAP, Path.of("/dev/shm/b"))).describe("c").get("memory"));
        assertEquals("host memory", ParameterRules.check(Tool.READ_LAT, new ToolOptions()).describe("c").get("memory"));
    }

    @Test
    void rulesBetweenFlags() {
        assertRefused("--mmap-offset needs --mmap FILE", Tool.WRITE_BW, new ToolOptions().with(MMAP_OFFSET, 4096L));
        assertRefused("invalid --mmap-offset -4096 (bytes into the file)", Tool.WRITE_BW,
                new ToolOptions().with(MMAP, Path.of("f")).with(MMAP_OFFSET, -4096L));
        assertRefused("You cannot use CUDA and an mmap'd file at the same time (--mmap with --use_cuda)", Tool.READ_BW,
                new ToolOptions().with(MMAP, Path.of("f")).with(USE_CUDA_BUS_ID, "3b:00.0"));
        assertRefused("--use_hugepages and --mmap both choose the buffer: give one", Tool.SEND_LAT,
                new ToolOptions().with(HUGEPAGES).with(MMAP, Path.of("f")));
        assertRefused("--use_hugepages puts the buffer in host memory: not with --use_cuda", Tool.SEND_BW,
                new ToolOptions().with(HUGEPAGES).with(USE_CUDA, "0"));
        assertRefused("--recv_post_list posts receives: only ib_send_bw receives (ib_read_bw posts none)",
                Tool.READ_BW, new ToolOptions().with(RECV_POST_LIST, 2));
        assertRefused("Number of iterations must be a multiple of receive post list size (-n, --recv_post_list)",
                Tool.SEND_BW, new ToolOptions().with(ITERATIONS, 1000L).with(RECV_POST_LIST, 3));
        assertRefused("rx depth (-r 512) must be a multiple of the receive post list (--recv_post_list 3)",
                Tool.SEND_BW, new ToolOptions().with(ITERATIONS, 999L).with(RECV_POST_LIST, 3));
        assertRefused("receive post list (--recv_post_list) must be 1..16384, not 0", Tool.SEND_BW,
                new ToolOptions().with(RECV_POST_LIST, 0));
        assertRefused("invalid --inline_recv -1", Tool.SEND_LAT, new ToolOptions().with(INLINE_RECV, -1));
        // With -D the iterations do not count; 1 is every tool's (the rules ask nothing of it).
        assertEquals(3, ParameterRules.check(Tool.SEND_BW, new ToolOptions().with(DURATION, 4).with(RX_DEPTH, 510)
                .with(RECV_POST_LIST, 3)).value(RECV_POST_LIST));
        assertEquals(1, ParameterRules.check(Tool.WRITE_BW, new ToolOptions().with(RECV_POST_LIST, 1))
                .value(RECV_POST_LIST));
        assertTrue(ParameterRules.check(Tool.ATOMIC_BW, new ToolOptions().with(OLD_POST_SEND)).on(OLD_POST_SEND));
        // --source_ip: an IPv4 literal, as perftest's inet_addr reads it; the JSON says "" when not given.
        assertEquals("10.77.0.1", ParameterRules.check(Tool.SEND_LAT, new ToolOptions().with(SOURCE_IP, "10.77.0.1"))
                .describe("c").get("source_ip"));
        assertEquals(true, ParameterRules.check(Tool.SEND_LAT, new ToolOptions().with(IPV6)).describe("c").get("ipv6"));
        // --mr_per_qp: the bandwidth tools (perftest's help), host memory.
        assertEquals(true, ParameterRules.check(Tool.READ_BW, new ToolOptions().with(MR_PER_QP).with(QPS, 2))
                .describe("c").get("mr_per_qp"));
        assertFalse(MR_PER_QP.takenBy(Tool.READ_LAT));
        assertRefused("--mr_per_qp registers host memory once per QP: not with --use_cuda", Tool.WRITE_BW,
                new ToolOptions().with(MR_PER_QP).with(USE_CUDA, "0"));
    }

    private static void assertRefused(String message, Tool tool, ToolOptions o) {
        InvalidParameterException e = assertThrows(InvalidParameterException.class, () -> ParameterRules.check(tool, o));
        assertEquals(message, e.getMessage());
    }
}
