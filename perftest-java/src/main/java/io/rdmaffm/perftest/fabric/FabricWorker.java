package io.rdmaffm.perftest.fabric;

import io.rdmaffm.perftest.counters.EthtoolStats;
import io.rdmaffm.perftest.counters.PortCounters;
import io.rdmaffm.perftest.engine.OpenDevice;
import io.rdmaffm.perftest.engine.QpShares;
import io.rdmaffm.verbs.RdmaDevice;
import io.rdmaffm.verbs.topology.Reading;
import io.rdmaffm.verbs.topology.Sysfs;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.IntFunction;

/**
 * One rank of a fabric run (docs/fabric-design.md §4–§9, the worker half of docs/fabric-contract): rendezvous,
 * the pattern's QPs, counters before, READY/GO, warm-up, timed iterations and the check, DONE/END, counters after,
 * and the result line, whatever happened. On any failure the QPs go to ERR and are drained before the memory is
 * deregistered, the coordinator is told (it aborts the others naming this rank), and the exit status is 2.
 */
public final class FabricWorker {
    /** How long past the coordinator's join deadline a rank waits for its answer (the table or an ABORT). */
    private static final long TABLE_GRACE_NANOS = TimeUnit.SECONDS.toNanos(5);
    /** How long after END the counters are read again: the sysfs hw_counters cache (lifespan) is 10 ms. */
    static final long AFTER_MILLIS = 12;

    private final FabricOptions o;
    private final PrintStream out;
    private final PrintStream log;
    private final BooleanSupplier interrupted;

    /**
     * @param o           the checked orders
     * @param out         where the result line goes (last)
     * @param log         progress lines
     * @param interrupted true once SIGTERM/SIGINT arrived
     */
    public FabricWorker(FabricOptions o, PrintStream out, PrintStream log, BooleanSupplier interrupted) {
        this.o = o;
        this.out = out;
        this.log = log;
        this.interrupted = interrupted;
    }

    /**
     * Runs the rank and prints its result line.
     *
     * @return 0 done and right, 1 wrong data, 2 anything else
     */
    public int run() {
        String hostName = hostName();
        FabricResult result = new FabricResult(o, hostName);
        long stepNanos = TimeUnit.SECONDS.toNanos(o.stepTimeoutS());
        Thread coordinatorThread = null;
        CoordinatorClient client = null;
        OpenDevice dev = null;
        RankRegion region = null;
        RdmaEndpoint[] eps = new RdmaEndpoint[o.threads()];
        int exit;
        try {
            if (o.rank() == 0) {
                coordinatorThread = startCoordinator();
            }
            long joinDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(o.joinTimeoutS());
            client = CoordinatorClient.connect(o.coordinatorHost(), o.coordinatorPort(), o.rank(), hostName,
                    joinDeadline, interrupted);
            // Once connected, the coordinator is up and answers by its own join deadline (at most the join timeout
            // from now) with the table or an ABORT naming the ranks that never joined: wait for that answer a little
            // past it, so that the one who knows who is missing speaks first (a rank whose JVM started before the
            // coordinator's would otherwise give up first, saying only that no table came).
            long tableDeadline = Math.max(joinDeadline, System.nanoTime() + TimeUnit.SECONDS.toNanos(o.joinTimeoutS()))
                    + TABLE_GRACE_NANOS;
            List<String> hosts = client.table(o.ranks(), tableDeadline);
            log.println("fabric-worker rank " + o.rank() + ": " + o.ranks() + " ranks joined");

            String name = o.device() != null ? o.device() : firstDevice();
            dev = OpenDevice.openPort(name, o.ibPort(), o.gidIndex());
            result.device = dev.name();
            result.port = dev.ibPort();
            result.netdev = netdev(dev);

            Plan plan = plan();
            result.role = plan.role;
            // A rotating incast's rank sends in every case but its own turn as the target.
            if (plan.sendsPerIteration > 0 || plan.rotating) {
                checkRate(hostName, dev);
            }
            int lanes = o.threads();
            boolean ring = o.pattern().ring();
            LaneGate gate = new LaneGate(lanes, o.warmup() + o.iters() + (ring ? 1 : 0), stepNanos, client);
            // One region and one set of QPs for the whole run, laid out for the largest size (and, rotating, for
            // every rank's turn as the target): each case uses the start of every slot.
            region = new RankRegion(dev, plan.regionBytes);
            for (int t = 0; t < lanes; t++) {
                eps[t] = new RdmaEndpoint(dev, region, plan.peers, hosts, stepNanos, gate);
            }
            // Lane t of a link writes its share at the same offset past the link's slot at both ends (the write's
            // own offset, so the shares may change from size to size).
            for (int t = 0; t < lanes; t++) {
                for (int i = 0; i < plan.peers.length; i++) {
                    client.send("QP " + eps[t].record(i, plan.laneName(i, t, lanes), plan.offsets[i]).line());
                }
            }
            boolean[] have = new boolean[plan.peers.length * lanes];
            for (int got = 0; got < have.length; got++) {
                QpRecord r = QpRecord.parse(client.await("QP ", System.nanoTime() + stepNanos, "a peer's QP record")
                        .substring(3));
                int lane = plan.lane(r.peer(), r.link(), lanes);
                if (lane < 0 || have[lane]) {
                    throw new FabricFailure("rank " + r.peer() + " sent an unexpected QP record for link " + r.link());
                }
                have[lane] = true;
                eps[lane / plan.peers.length].connect(lane % plan.peers.length, r);
            }

            result.before = counters(dev, result.netdev);
            RingRank[] previous = new RingRank[lanes];
            int k = 0;
            for (long size : o.sizes()) {
                for (int target : o.targets()) {
                    final RdmaEndpoint[] ends = eps;
                    LaneWork[] work = caseWork(o, plan, size, target, region.mr().segment(),
                            t -> new RdmaRingLinks(ends[t]), t -> ends[t], previous);
                    // No rank starts a case before every rank has ended the one before: its writes land in slots
                    // and outputs the others may still read.
                    client.barrier(k == 0 ? "READY" : "CASE " + k, System.nanoTime() + stepNanos);
                    if (k == 0) {
                        log.println("fabric-worker rank " + o.rank() + ": go" + (lanes > 1 ? " (" + lanes
                                + " threads)" : "") + (o.sizes().length > 1 ? ", " + o.sizes().length + " sizes" : "")
                                + (o.targets().length > 1 ? ", each rank the target in turn" : ""));
                    }
                    // Ring patterns end with one untimed iteration into a poisoned output: a chunk no transfer
                    // wrote cannot pass.
                    long[] times = LaneThreads.run(work, gate, o.warmup(), o.iters(), ring);
                    result.addCase(size, target, plan.forTarget(o.rank(), target).role, times, work, plan.peers, eps);
                    k++;
                }
            }
            client.barrier("DONE", System.nanoTime() + stepNanos);
            Thread.sleep(AFTER_MILLIS);
            result.after = counters(dev, result.netdev);
            client.send("BYE");
            exit = result.wrong != null && result.wrong > 0 ? 1 : 0;
            if (exit == 1) {
                result.error = result.wrong + " elements wrong on rank " + o.rank();
            }
        } catch (RuntimeException | IOException e) {
            exit = 2;
            result.error = message(e);
            if (client != null && client.abortReason() == null) {
                client.sendError(result.error);
            }
            log.println("fabric-worker rank " + o.rank() + ": " + result.error);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            exit = 2;
            result.error = "interrupted";
            if (client != null) {
                client.sendError(result.error);
            }
        } finally {
            for (RdmaEndpoint ep : eps) {
                if (ep != null) {
                    ep.close();
                }
            }
            if (region != null) {
                region.close(); // after every lane's QPs are drained and closed
            }
            if (dev != null) {
                dev.close();
            }
        }
        if (coordinatorThread != null) {
            try {
                coordinatorThread.join(TimeUnit.SECONDS.toMillis(o.stepTimeoutS() + 3));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (client != null) {
            client.close();
        }
        out.println(result.line());
        out.flush();
        return exit;
    }

    /**
     * {@code --rate} above this sender's port rate is bad input, found here before any QP exists
     * (docs/fabric-design.md §12): the driver checks the ports its hosts told it of before launch, but a rate is
     * only known for certain on the host itself. The failure reaches the coordinator, which aborts the other ranks
     * naming this one.
     */
    private void checkRate(String hostName, OpenDevice dev) {
        if (o.rate() == null) {
            return;
        }
        double port = dev.portRateGbps();
        if (port <= 0) {
            log.println("fabric-worker rank " + o.rank() + ": " + dev.name() + " port " + dev.ibPort() + " reports no"
                    + " rate known here: --rate " + o.rate().text() + " not checked against it");
        } else if (o.rate().above(port)) {
            throw new FabricFailure("--rate " + o.rate().text() + " is above the port rate of " + hostName + " "
                    + dev.name() + " port " + dev.ibPort() + " (" + new SendRate(Math.round(port * 1e9)).text() + ")");
        }
    }

    private static String message(Throwable e) {
        String m = e.getMessage();
        return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
    }

    private Thread startCoordinator() throws IOException {
        ServerSocket server = new ServerSocket();
        try {
            server.setReuseAddress(true);
            server.bind(new InetSocketAddress(o.coordinatorPort()));
        } catch (IOException e) {
            server.close();
            throw new FabricFailure("rank 0 cannot listen on port " + o.coordinatorPort() + ": " + e.getMessage());
        }
        Coordinator c = new Coordinator(server, o.ranks(), o.joinTimeoutS(), o.stepTimeoutS(), log);
        return Thread.ofPlatform().name("fabric-coordinator").daemon(true).start(() -> {
            try {
                c.run();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                log.println("fabric coordinator failed: " + e); // the ranks see their connections close
            }
        });
    }

    /**
     * The lanes of one case of the run (one size of a sweep; with a rotating incast, one target): over the links the
     * whole run keeps, the case's shares of its size; a ring lane carries its credits over from the lane of the case
     * before ({@code previous}, updated), since credits of that case may still be on their way.
     *
     * @param full      the run's plan (its links, laid out for the largest size)
     * @param target    the incast receiver of this case, -1 for other patterns
     * @param mem       the rank's region
     * @param ringLinks lane t's ring links
     * @param peerLinks lane t's links of the other patterns
     */
    static LaneWork[] caseWork(FabricOptions o, Plan full, long size, int target, MemorySegment mem,
            IntFunction<RingLinks> ringLinks, IntFunction<PeerLinks> peerLinks, RingRank[] previous) {
        FabricOptions c = o.forCase(size, target < 0 ? o.receiver() : target);
        int lanes = o.threads();
        LaneWork[] work = new LaneWork[lanes];
        if (o.pattern().ring()) {
            RingLayout layout = RingLayout.of(o.pattern(), o.ranks(), size);
            long[] share = laneShares(true, layout.chunk() / 4, lanes);
            for (int t = 0; t < lanes; t++) {
                RingRank rr = new RingRank(o.rank(), o.pattern(), o.reduce(), layout, mem, ringLinks.apply(t),
                        share[t], share[t + 1] - share[t]);
                rr.continueFrom(previous[t]);
                rr.fillInput();
                previous[t] = rr;
                work[t] = rr;
            }
        } else {
            Plan p = full.forTarget(o.rank(), target);
            long[] share = laneShares(false, c.bytes(), lanes);
            for (int t = 0; t < lanes; t++) {
                work[t] = new PeerLane(p, peerLinks.apply(t), share[t], share[t + 1] - share[t],
                        SendPacer.of(o.rate(), p.sendsPerIteration * c.bytes()));
            }
        }
        return work;
    }

    /**
     * Where each lane's share starts, and past the last its end (T + 1 entries): of the m bytes per link, or of a
     * ring chunk in bytes (whole float32 elements), cut as the bandwidth tools cut -q ({@link QpShares}).
     */
    static long[] laneShares(FabricOptions o, Plan plan) {
        boolean ring = o.pattern().ring();
        return laneShares(ring, ring ? plan.layout.chunk() / 4 : o.bytes(), o.threads());
    }

    /** As above for {@code units} bytes or float32 elements. */
    static long[] laneShares(boolean ring, long units, int lanes) {
        QpShares q = new QpShares((int) units, lanes);
        long[] at = new long[lanes + 1];
        for (int t = 0; t <= lanes; t++) {
            at[t] = q.first(t) * (ring ? 4L : 1L); // first(T) is the end
        }
        return at;
    }

    /** The QPs, region and roles of this rank for the pattern. */
    static final class Plan {
        int[] peers = new int[0];
        String[] names = new String[0];
        long[] offsets = new long[0];
        boolean[] sends = new boolean[0];
        boolean[] receives = new boolean[0];
        long regionBytes;
        RingLayout layout;
        String role = "member";
        long sendsPerIteration;
        long receivesPerIteration;
        /** A rotating incast: a link to every other rank, whose roles {@link #forTarget} sets case by case. */
        boolean rotating;

        /**
         * The plan of the case whose incast receiver is {@code target}: this plan itself unless rotating; else the
         * same links, this rank receiving on every one when it is the target, else sending on the target's alone.
         */
        Plan forTarget(int rank, int target) {
            if (!rotating) {
                return this;
            }
            Plan c = new Plan();
            c.peers = peers;
            c.names = names;
            c.offsets = offsets;
            c.regionBytes = regionBytes;
            c.sends = new boolean[peers.length];
            c.receives = new boolean[peers.length];
            for (int i = 0; i < peers.length; i++) {
                c.sends[i] = rank != target && peers[i] == target;
                c.receives[i] = rank == target;
                c.sendsPerIteration += c.sends[i] ? 1 : 0;
                c.receivesPerIteration += c.receives[i] ? 1 : 0;
            }
            c.role = rank == target ? "receiver" : "sender";
            return c;
        }

        int link(int peer, String name) {
            for (int i = 0; i < peers.length; i++) {
                if (peers[i] == peer && names[i].equals(name)) {
                    return i;
                }
            }
            return -1;
        }

        /** Lane {@code t} of link {@code i}'s QP name: the link's own with one lane, else "name/t" (both ends). */
        String laneName(int i, int t, int lanes) {
            return lanes == 1 ? names[i] : names[i] + "/" + t;
        }

        /** t × links + i for the QP named {@code name} by {@code peer}, or -1. */
        int lane(int peer, String name, int lanes) {
            for (int t = 0; t < lanes; t++) {
                for (int i = 0; i < peers.length; i++) {
                    if (peers[i] == peer && laneName(i, t, lanes).equals(name)) {
                        return t * peers.length + i;
                    }
                }
            }
            return -1;
        }

        void links(List<Integer> ps, List<String> ns, List<Long> offs, boolean send, boolean receive) {
            int n = ps.size();
            peers = ps.stream().mapToInt(Integer::intValue).toArray();
            names = ns.toArray(String[]::new);
            offsets = offs.stream().mapToLong(Long::longValue).toArray();
            sends = new boolean[n];
            receives = new boolean[n];
            java.util.Arrays.fill(sends, send);
            java.util.Arrays.fill(receives, receive);
            sendsPerIteration = send ? n : 0;
            receivesPerIteration = receive ? n : 0;
        }
    }

    Plan plan() {
        return plan(o);
    }

    /** The plan of rank {@code o.rank()}: pure, so the host tests can check every rank's. */
    static Plan plan(FabricOptions o) {
        Plan p = new Plan();
        int n = o.ranks();
        int r = o.rank();
        long m = o.bytes();
        switch (o.pattern()) {
            case ALLREDUCE, ALLGATHER, REDUCESCATTER -> {
                p.layout = RingLayout.of(o.pattern(), n, m);
                p.regionBytes = p.layout.total();
                if (n > 1) {
                    p.peers = new int[] {(r + 1) % n, (r + n - 1) % n};
                    p.names = new String[] {"ring-" + r, "ring-" + ((r + n - 1) % n)};
                    p.offsets = new long[] {0, 0};
                    p.sends = new boolean[] {true, false};
                    p.receives = new boolean[] {false, true};
                }
            }
            case INCAST -> {
                int recv = o.receiver();
                if (o.rotate()) {
                    // Every rank the target once: a link to every other, slot i for the i-th of them.
                    List<Integer> ps = new ArrayList<>();
                    List<String> ns = new ArrayList<>();
                    List<Long> offs = new ArrayList<>();
                    for (int q = 0; q < n; q++) {
                        if (q != r) {
                            offs.add(ps.size() * m);
                            ps.add(q);
                            ns.add("pair-" + Math.min(q, r) + "-" + Math.max(q, r));
                        }
                    }
                    p.links(ps, ns, offs, false, false);
                    p.rotating = true;
                    p.role = "member";
                    p.regionBytes = (n - 1) * m;
                } else if (r == recv) {
                    List<Integer> ps = new ArrayList<>();
                    List<String> ns = new ArrayList<>();
                    List<Long> offs = new ArrayList<>();
                    for (int s = 0; s < n; s++) {
                        if (s != recv) {
                            offs.add(ps.size() * m);
                            ps.add(s);
                            ns.add("incast-" + s);
                        }
                    }
                    p.links(ps, ns, offs, false, true);
                    p.role = "receiver";
                    p.regionBytes = (n - 1) * m;
                } else {
                    p.links(List.of(recv), List.of("incast-" + r), List.of(0L), true, false);
                    p.role = "sender";
                    p.regionBytes = m;
                }
            }
            case ALLTOALL -> {
                List<Integer> ps = new ArrayList<>();
                List<String> ns = new ArrayList<>();
                List<Long> offs = new ArrayList<>();
                for (int q = 0; q < n; q++) {
                    if (q != r) {
                        offs.add(m + ps.size() * m);
                        ps.add(q);
                        ns.add("pair-" + Math.min(q, r) + "-" + Math.max(q, r));
                    }
                }
                p.links(ps, ns, offs, true, true);
                p.regionBytes = m * n;
            }
            case BISECTION -> {
                int half = n / 2;
                if (r >= 2 * half) {
                    p.role = "idle";
                    p.regionBytes = m;
                } else {
                    int q = r < half ? r + half : r - half;
                    p.links(List.of(q), List.of("pair-" + Math.min(q, r) + "-" + Math.max(q, r)), List.of(m), true,
                            true);
                    p.regionBytes = 2 * m;
                }
            }
            default -> throw new IllegalStateException("no plan for " + o.pattern());
        }
        return p;
    }

    private static String firstDevice() {
        List<RdmaDevice> all = RdmaDevice.list();
        if (all.isEmpty()) {
            throw new FabricFailure("no RDMA device found");
        }
        return all.get(0).name();
    }

    /** The netdev behind the GID in use (sysfs gid_attrs/ndevs), or null. */
    private static String netdev(OpenDevice dev) {
        if (dev.gidIndex() < 0) {
            return null;
        }
        Sysfs fs = new Sysfs(Path.of("/"));
        Reading<String> t = fs.text(fs.path("sys/class/infiniband/" + dev.name() + "/ports/" + dev.ibPort()
                + "/gid_attrs/ndevs/" + dev.gidIndex()));
        return t.known() && !t.value().isBlank() ? t.value().strip() : null;
    }

    private static PortCounters counters(OpenDevice dev, String netdev) {
        return PortCounters.take(new Sysfs(Path.of("/")), dev.name(), dev.ibPort(), netdev,
                EthtoolStats.forLiveHost());
    }

    /** The kernel's host name (no DNS lookup: a host without a resolvable name still has one). */
    static String hostName() {
        try {
            String h = Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
            if (!h.isEmpty() && !h.equals("(none)")) { // "(none)": a kernel never given a name (the test VM)
                return h;
            }
        } catch (IOException e) {
            // not Linux: ask the resolver
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            String h = System.getenv("HOSTNAME");
            return h == null ? "unknown-host" : h;
        }
    }
}
