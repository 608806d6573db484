package io.rdmaffm.verbs;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Port async events from the real device: taking the netdev under Soft-RoCE down and up makes the kernel
 * raise IBV_EVENT_PORT_ERR and IBV_EVENT_PORT_ACTIVE. Only in the throwaway test VM (RDMA_IN_VM=1), where
 * toggling the link disturbs nothing else; elsewhere it is skipped with that reason.
 */
@Tag("rdma")
class PortEventsRdmaTest {

    private static void ip(String... args) throws Exception {
        String[] cmd = new String[args.length + 1];
        cmd[0] = "ip";
        System.arraycopy(args, 0, cmd, 1, args.length);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        assertTrue(p.waitFor(10, TimeUnit.SECONDS), "ip " + String.join(" ", args) + " did not finish");
        assertEquals(0, p.exitValue(), "ip " + String.join(" ", args) + ": " + new String(p.getInputStream().readAllBytes()));
    }

    private static AsyncEvent awaitType(AsyncEvents events, String type) {
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (System.nanoTime() < deadline) {
            AsyncEvent e = events.next(Duration.ofSeconds(1));
            if (e != null && e.type().equals(type)) {
                return e;
            }
        }
        return null;
    }

    @Test
    void linkDownAndUpAreDeliveredAsPortEvents() throws Exception {
        String device = RdmaTestDevice.name();
        String netdev = RdmaTestDevice.netdev();
        Assumptions.assumeTrue("1".equals(System.getenv("RDMA_IN_VM")) && netdev != null,
                "toggles the link under the RDMA device: only in the Soft-RoCE test VM");
        try (Context ctx = Context.open(device)) {
            AsyncEvents events = ctx.asyncEvents();
            try {
                ip("link", "set", netdev, "down");
                AsyncEvent down = awaitType(events, "PORT_ERR");
                assertNotNull(down, "no PORT_ERR within 15 s after the link went down");
                assertEquals(1, down.portNumber());
                assertEquals(io.rdmaffm.verbs.raw.Constants.IBV_EVENT_PORT_ERR, down.code());
                assertTrue(ctx.queryPort(1).state() != PortState.ACTIVE, "port still ACTIVE after link down");
            } finally {
                ip("link", "set", netdev, "up");
            }
            AsyncEvent up = awaitType(events, "PORT_ACTIVE");
            assertNotNull(up, "no PORT_ACTIVE within 15 s after the link came back");
            assertEquals(1, up.portNumber());
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (ctx.queryPort(1).state() != PortState.ACTIVE && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertEquals(PortState.ACTIVE, ctx.queryPort(1).state());
            // The RoCE GIDs come back with the link; later tests need them.
            GidEntry gid = null;
            while (gid == null && System.nanoTime() < deadline + Duration.ofSeconds(10).toNanos()) {
                try {
                    gid = ctx.queryGid(1, RdmaTestDevice.gidIndex());
                } catch (VerbsException e) {
                    Thread.sleep(100);
                }
            }
            assertNotNull(gid, "GID index " + RdmaTestDevice.gidIndex() + " did not come back after link up");
        }
    }
}
