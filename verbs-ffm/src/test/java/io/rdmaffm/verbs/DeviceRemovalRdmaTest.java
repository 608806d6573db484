package io.rdmaffm.verbs;

import io.rdmaffm.verbs.raw.Constants;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Removing the RDMA device ({@code rdma link delete}) while a {@link Context} on it is open, then re-creating it.
 * Only in the throwaway Soft-RoCE VM (RDMA_IN_VM=1, RDMA_NETDEV set); elsewhere skipped with that reason.
 *
 * <p>IBV_EVENT_DEVICE_FATAL reaches open contexts only when the kernel detaches them: {@code ib_uverbs_remove_one}
 * (drivers/infiniband/core/uverbs_main.c:1206-1236, Linux 6.1.192) calls {@code ib_uverbs_free_hw_resources}, whose
 * {@code uverbs_destroy_ufile_hw(file, RDMA_REMOVE_DRIVER_REMOVE)} makes the async event file send DEVICE_FATAL
 * (uverbs_std_types_async_fd.c:22-33), only {@code if (device->ops.disassociate_ucontext)} (line 1214). Soft-RoCE's
 * {@code rxe_dev_ops} (rxe_verbs.c:1012-1073) has no such operation, so the kernel instead waits in
 * {@code wait_for_completion(&uverbs_dev->comp)} (line 1233) until every process has closed the device, and no event
 * is sent. The test therefore accepts either outcome and checks what each one promises: with DEVICE_FATAL, the event
 * names no element and the removal completes; without it (rxe), the removal is still waiting, the device has left
 * ibv_get_device_list, and closing the context is what lets it finish. Either way every object and the context
 * close cleanly, and the closed objects refuse further use with exceptions, not crashes. The device is re-created in
 * {@code finally}, and the test waits until its port is ACTIVE with the test GID again, so the tests after it work.
 *
 * <p>It runs first ({@link Order}): any other open context on the device (librdmacm keeps every device it opened
 * until the device leaves ibv_get_device_list, rdma-core v44 librdmacm/cma.c remove_cma_dev/sync_devices_list)
 * would make the removal wait until that process exits, so the test checks that nobody holds the device before it
 * starts, and skips with the holders' names if someone does.
 */
@Tag("rdma")
@Order(1)
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class DeviceRemovalRdmaTest {
    private static final Duration FATAL_WAIT = Duration.ofSeconds(8);
    private static final Duration REMOVAL_WAIT = Duration.ofSeconds(60);
    private static final Duration RESTORE_WAIT = Duration.ofSeconds(60);

    @Test
    void removingTheDeviceUnderAnOpenContextThenRecreatingIt() throws Exception {
        String device = RdmaTestDevice.name();
        String netdev = RdmaTestDevice.netdev();
        Assumptions.assumeTrue("1".equals(System.getenv("RDMA_IN_VM")) && netdev != null,
                "removes and re-creates the RDMA device: only in the Soft-RoCE test VM (RDMA_IN_VM=1, RDMA_NETDEV)");
        Path node = uverbsNode(device);
        Map<Long, Integer> holders = holders(node);
        Assumptions.assumeTrue(holders.isEmpty(), () -> "other holders of " + node + " would make the removal wait "
                + "for them to exit: " + describe(holders));

        Process removal = null;
        StringBuilder removalOutput = new StringBuilder();
        Context ctx = Context.open(device);
        ProtectionDomain pd = null;
        CompletionQueue cq = null;
        QueuePair qp = null;
        MemoryRegion mr = null;
        try {
            pd = ctx.allocateProtectionDomain();
            cq = ctx.createCompletionQueue(8);
            qp = pd.createQueuePair(new QueuePairInit(QueuePairType.RC, cq, cq));
            mr = pd.allocateRegion(4096, Access.LOCAL_WRITE);
            AsyncEvents events = ctx.asyncEvents();
            assertEquals(Map.of(ProcessHandle.current().pid(), 1), holders(node),
                    "the test's context is the only holder of " + node);

            removal = new ProcessBuilder("rdma", "link", "delete", device).redirectErrorStream(true).start();
            List<AsyncEvent> seen = new ArrayList<>();
            AsyncEvent fatal = AffiliatedEventsRdmaTest.await(events,
                    e -> e.code() == Constants.IBV_EVENT_DEVICE_FATAL, FATAL_WAIT, seen);
            if (fatal != null) {
                // A driver that detaches contexts (disassociate_ucontext): the event names no element.
                assertEquals("DEVICE_FATAL", fatal.type());
                assertEquals(0, fatal.elementAddress());
                assertEquals(0, fatal.portNumber());
                assertFalse(fatal.isQueuePairEvent());
                assertTrue(removal.waitFor(REMOVAL_WAIT.toSeconds(), TimeUnit.SECONDS),
                        "the removal did not finish after DEVICE_FATAL");
            } else {
                // Soft-RoCE: no DEVICE_FATAL; the removal waits in the kernel for this process's context.
                Process ended = removal;
                assertTrue(removal.isAlive(), () -> "rdma link delete " + device + " ended without waiting for the "
                        + "open context, yet no DEVICE_FATAL came (exit " + ended.exitValue() + ": "
                        + output(ended, removalOutput) + "); events seen: " + seen);
                assertEquals(List.of(), seen, "no other async event either");
                // Its uverbs device is gone (cdev_device_del, the first step of ib_uverbs_remove_one), so libibverbs
                // no longer lists it, though this process's context is still attached to it.
                Path sysfs = Path.of("/sys/class/infiniband_verbs", node.getFileName().toString());
                assertFalse(Files.exists(sysfs), sysfs + " still exists while the removal waits");
                assertFalse(names(RdmaDevice.list()).contains(device), "still listed: " + RdmaDevice.list());
                try {
                    System.out.println("port 1 of the device being removed: " + ctx.queryPort(1).state());
                } catch (VerbsException e) {
                    System.out.println("port query on the device being removed: " + e.getMessage());
                }
            }

            // Everything closes cleanly on a device that is gone (or going); that lets a waiting removal finish.
            mr.close();
            qp.close();
            cq.close();
            pd.close();
            ctx.close();
            ctx.close();
            assertTrue(ctx.isClosed());
            assertThrows(IllegalStateException.class, () -> ctx.queryPort(1), "a closed context refuses queries");
            assertThrows(IllegalStateException.class, () -> events.next(Duration.ofMillis(10)),
                    "its async events refuse reads");
            ProtectionDomain closedPd = pd;
            assertThrows(IllegalStateException.class, () -> closedPd.allocateRegion(64, Access.LOCAL_WRITE));

            assertTrue(removal.waitFor(REMOVAL_WAIT.toSeconds(), TimeUnit.SECONDS),
                    "rdma link delete still waits " + REMOVAL_WAIT.toSeconds() + " s after the context was closed");
            assertEquals(0, removal.exitValue(), "rdma link delete: " + output(removal, removalOutput));
            assertFalse(names(RdmaDevice.list()).contains(device));
            IllegalArgumentException gone = assertThrows(IllegalArgumentException.class, () -> Context.open(device));
            assertTrue(gone.getMessage().contains("no RDMA device named '" + device + "'"), gone.getMessage());
        } finally {
            closeQuietly(mr, qp, cq, pd, ctx);
            if (removal != null && !removal.waitFor(REMOVAL_WAIT.toSeconds(), TimeUnit.SECONDS)) {
                fail("rdma link delete " + device + " never finished: the device cannot be re-created in this run");
            }
            restore(device, netdev);
        }
    }

    /** Re-creates the Soft-RoCE device if it is gone, then waits until port 1 is ACTIVE with the test GID. */
    private static void restore(String device, String netdev) throws Exception {
        if (!names(RdmaDevice.list()).contains(device)) {
            run("rdma", "link", "add", device, "type", "rxe", "netdev", netdev);
        }
        long deadline = System.nanoTime() + RESTORE_WAIT.toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            try (Context c = Context.open(device)) {
                if (c.queryPort(1).state() == PortState.ACTIVE) {
                    GidEntry gid = c.queryGid(1, RdmaTestDevice.gidIndex());
                    assertNotNull(gid);
                    return;
                }
                last = "port 1 is " + c.queryPort(1).state();
            } catch (RuntimeException e) {
                last = e.toString();
            }
            Thread.sleep(200);
        }
        fail(device + " did not come back (port ACTIVE with GID index " + RdmaTestDevice.gidIndex() + ") within "
                + RESTORE_WAIT.toSeconds() + " s: " + last);
    }

    private static void run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), String.join(" ", command) + " did not finish");
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), String.join(" ", command) + ": " + out);
    }

    private static String output(Process p, StringBuilder cache) {
        if (cache.isEmpty() && !p.isAlive()) {
            try {
                cache.append(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip());
            } catch (IOException e) {
                cache.append(e);
            }
        }
        return cache.toString();
    }

    /** /dev/infiniband/uverbsN of a device: the class/infiniband_verbs entry whose ibdev names it. */
    static Path uverbsNode(String device) throws IOException {
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(Path.of("/sys/class/infiniband_verbs"), "uverbs*")) {
            for (Path d : dirs) {
                if (device.equals(Files.readString(d.resolve("ibdev")).strip())) {
                    return Path.of("/dev/infiniband", d.getFileName().toString());
                }
            }
        }
        throw new AssertionError("no uverbs node for " + device + " under /sys/class/infiniband_verbs");
    }

    /** pid → number of its open file descriptors on {@code node}, over every process. */
    static Map<Long, Integer> holders(Path node) throws IOException {
        Map<Long, Integer> out = new TreeMap<>();
        try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
            for (Path proc : procs) {
                try (DirectoryStream<Path> fds = Files.newDirectoryStream(proc.resolve("fd"))) {
                    for (Path fd : fds) {
                        try {
                            if (Files.readSymbolicLink(fd).equals(node)) {
                                out.merge(Long.parseLong(proc.getFileName().toString()), 1, Integer::sum);
                            }
                        } catch (IOException e) {
                            // the fd closed while we looked
                        }
                    }
                } catch (IOException e) {
                    // the process ended, or is not ours to inspect
                }
            }
        }
        return out;
    }

    private static String describe(Map<Long, Integer> holders) {
        StringBuilder sb = new StringBuilder();
        long self = ProcessHandle.current().pid();
        holders.forEach((pid, n) -> {
            sb.append(sb.isEmpty() ? "" : "; ").append("pid ").append(pid).append(" (")
                    .append(ProcessHandle.of(pid).flatMap(h -> h.info().command()).orElse("?")).append(") with ")
                    .append(n).append(" fd(s)");
            if (pid == self) {
                sb.append(": this JVM, e.g. librdmacm, which keeps a device it opened until the device disappears");
            }
        });
        return sb.toString();
    }

    private static List<String> names(List<RdmaDevice> devices) {
        List<String> out = new ArrayList<>();
        for (RdmaDevice d : devices) {
            out.add(d.name());
        }
        return out;
    }

    private static void closeQuietly(AutoCloseable... resources) {
        for (AutoCloseable r : resources) {
            if (r != null) {
                try {
                    r.close();
                } catch (Exception e) {
                    System.out.println("while cleaning up: " + e);
                }
            }
        }
    }
}
