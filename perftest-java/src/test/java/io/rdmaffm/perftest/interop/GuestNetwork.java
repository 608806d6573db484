package io.rdmaffm.perftest.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the network fault test does to the guests of scripts/rxe-vms.sh and reads from them: netem on the rxe
 * netdev, the link, the rxe device itself; rxe's hw_counters, netem's drops and {@code rdma resource}'s kernel
 * objects. "Here" is this guest, where every fault that cuts the hosts apart is made (its commands need no
 * network); "there" is the peer, reached with ssh. {@link #restore} puts this guest back as
 * scripts/vm/guest-multihost.sh left it (no qdisc, link up, the device present with the same GID table) and
 * takes netem off the peer, so the tests after a fault find the guests as they were.
 */
final class GuestNetwork {
    /** The counters that move when rxe's RC transport retransmits (requester and responder side). */
    static final List<String> RETRANSMISSION = List.of("completer_retry_err", "rcvd_seq_err", "duplicate_request",
            "out_of_seq_request");
    /** Counters that count traffic or are settings, not events. */
    private static final Set<String> VOLUME = Set.of("lifespan", "sent_pkts", "rcvd_pkts", "rdma_sends", "rdma_recvs");
    private static final Pattern NETEM_DROPS =
            Pattern.compile("qdisc netem [^\\n]*\\n\\s*Sent \\d+ bytes \\d+ pkt \\(dropped (\\d+)");

    final String device;
    final String netdev;
    final RemoteHost peer;
    /** This guest's GID table and global addresses ("10.77.0.1/24") as the harness made them. */
    private final Map<Integer, String> gids;
    private final List<String> addresses;
    /** A {@code rdma link delete} that may still wait for the device's last user. */
    private Process deletion;
    /** Whether netem may be on the peer's netdev. */
    private boolean netemThere;
    /** The socket of this test's ssh connection to the peer. */
    private final Path control;

    private static final long T0 = System.nanoTime();

    /** A line on the test's output with the seconds since the test began: where a slow case spends its time. */
    static void log(String what) {
        System.out.printf(java.util.Locale.ROOT, "[network-faults %7.1f s] %s%n", (System.nanoTime() - T0) / 1e9, what);
    }

    private GuestNetwork(String device, String netdev, RemoteHost peer, Map<Integer, String> gids,
            List<String> addresses) {
        this.device = device;
        this.netdev = netdev;
        this.peer = peer;
        this.gids = gids;
        this.addresses = addresses;
        try {
            this.control = Files.createTempDirectory("netfaults-ssh").resolve("peer");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Loads netem on both guests (from the kernel's modules: nothing to install) and notes this guest's state. */
    static GuestNetwork open(String device, String netdev, RemoteHost peer) throws Exception {
        GuestNetwork net = new GuestNetwork(device, netdev, peer, RemoteHost.GidTable.local(device).values(),
                addresses(netdev));
        String load = "modprobe sch_netem && tc qdisc show dev " + netdev;
        here(30, load);
        net.there(30, load);
        return net;
    }

    /** Runs {@code script} here; fails on a non-zero exit. */
    static String here(long seconds, String script) throws Exception {
        return exec(seconds, List.of("sh", "-c", script), "'" + script + "' here");
    }

    /**
     * Runs {@code script} on the peer over this test's own ssh connection, which the many short commands share
     * (a new connection costs seconds of emulated CPU); fails on a non-zero exit.
     */
    String there(long seconds, String script) throws Exception {
        if (!Files.exists(control)) {
            // The connection runs in the background (-f) with no pipe of ours, and ends 120 s after its last use.
            exec(60, List.of("ssh", "-o", "ControlMaster=yes", "-o", "ControlPersist=120", "-o",
                    "ControlPath=" + control, "-f", "-N", peer.name), "the ssh connection to " + peer.name);
        }
        return exec(seconds + 30, List.of("ssh", "-o", "ControlMaster=no", "-o", "ControlPath=" + control, peer.name,
                "exec timeout -k 5 " + seconds + " " + RemoteHost.quote(List.of("sh", "-c", script))),
                "'" + script + "' on " + peer.name);
    }

    /**
     * Ends the shared ssh connection (the next command opens a new one): before a fault that cuts the hosts
     * apart, after which its TCP connection would wait out a long retransmission back-off.
     */
    void dropConnection() throws Exception {
        if (Files.exists(control)) {
            new ProcessBuilder("ssh", "-o", "ControlPath=" + control, "-O", "exit", peer.name)
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start()
                    .waitFor(30, TimeUnit.SECONDS);
        }
    }

    private static String exec(long seconds, List<String> command, String what) throws Exception {
        List<String> bounded = new ArrayList<>(List.of("timeout", "-k", "5", String.valueOf(seconds)));
        bounded.addAll(command);
        Process p = new ProcessBuilder(bounded).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(seconds + 10, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(what + " did not end");
        }
        if (p.exitValue() != 0) {
            throw new AssertionError(what + ": exit " + p.exitValue() + "\n" + out);
        }
        return out;
    }

    /** netem with {@code params} ("loss 1% ...") as the root qdisc of the netdev here, there, or both. */
    void netem(boolean onHere, boolean onThere, String params) throws Exception {
        String tc = "tc qdisc replace dev " + netdev + " root netem " + params;
        if (onHere) {
            here(30, tc);
        }
        if (onThere) {
            netemThere = true;
            there(30, tc);
        }
        log("netem " + params + (onHere ? " here" : "") + (onThere ? " there" : ""));
    }

    /**
     * rxe's hw_counters, {@code rdma resource show}'s counts and netem's drops, here and there (one ssh session:
     * each costs about a second in the emulated guests).
     */
    Snapshot snapshot() throws Exception {
        // A deleted device has no counters any more: none, rather than a failure.
        String script = "(cd /sys/class/infiniband/" + device + "/ports/1/hw_counters 2>/dev/null && grep -H . *); "
                + "echo @@; rdma resource show; echo @@; tc -s qdisc show dev " + netdev;
        String[] h = here(30, script).split("@@\n", -1);
        String[] t = there(30, script).split("@@\n", -1);
        log("snapshot taken");
        return new Snapshot(new Counters(parseCounters(h[0]), parseCounters(t[0])),
                resources(h[1]) + " | " + resources(t[1]), drops(h[2]) + drops(t[2]));
    }

    /**
     * Both guests at one moment.
     *
     * @param resources "HERE | THERE", each as {@link RdmaResources} gives it ("-" where the device is gone)
     * @param drops     the packets netem dropped on both since it was put there
     */
    record Snapshot(Counters counters, String resources, long drops) {
    }

    private String resources(String rdmaResourceShow) {
        return rdmaResourceShow.contains(": " + device + ": ") ? RdmaResources.parse(rdmaResourceShow, device) : "-";
    }

    private static long drops(String tcShow) {
        Matcher m = NETEM_DROPS.matcher(tcShow);
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }

    private static Map<String, Long> parseCounters(String grep) {
        Map<String, Long> m = new TreeMap<>();
        for (String line : grep.split("\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(colon + 1).strip().matches("\\d+")) {
                m.put(line.substring(0, colon), Long.parseLong(line.substring(colon + 1).strip()));
            }
        }
        return m;
    }

    /** Both guests' hw_counters, or what they moved by ({@link #since}). */
    record Counters(Map<String, Long> here, Map<String, Long> there) {
        Counters since(Counters before) {
            return new Counters(minus(here, before.here), minus(there, before.there));
        }

        private static Map<String, Long> minus(Map<String, Long> a, Map<String, Long> b) {
            Map<String, Long> d = new TreeMap<>();
            a.forEach((k, v) -> d.put(k, v - b.getOrDefault(k, 0L)));
            return d;
        }

        /** The same without this guest's counters (its device was deleted: they went with it). */
        Counters thereOnly() {
            return new Counters(Map.of(), there);
        }

        /** The retransmission events of both sides together. */
        long retransmissions() {
            long n = 0;
            for (String c : RETRANSMISSION) {
                n += here.getOrDefault(c, 0L) + there.getOrDefault(c, 0L);
            }
            return n;
        }

        /** "here: completer_retry_err+3 ... (sent_pkts+N); there: ...": the event counters that moved. */
        String describe(String hereName, String thereName) {
            return side(hereName, here) + "; " + side(thereName, there);
        }

        private static String side(String name, Map<String, Long> d) {
            if (d.isEmpty()) {
                return name + ": no counters (device deleted)";
            }
            StringBuilder sb = new StringBuilder(name).append(':');
            d.forEach((k, v) -> {
                if (v != 0 && !VOLUME.contains(k)) {
                    sb.append(' ').append(k).append('+').append(v);
                }
            });
            return sb.append(" (sent_pkts+").append(d.getOrDefault("sent_pkts", 0L)).append(')').toString();
        }
    }

    /**
     * A snapshot once the kernel objects are {@code expected} again (a process's objects go shortly after it has
     * gone), or the last one taken within 15 s.
     */
    Snapshot awaitResources(String expected) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        Snapshot now = snapshot();
        while (!now.resources().equals(expected) && System.nanoTime() < deadline) {
            Thread.sleep(500);
            now = snapshot();
        }
        return now;
    }

    /** Starts {@code rdma link delete} of the device here; on Soft-RoCE it waits until the device's users close. */
    Process deleteDevice() throws Exception {
        deletion = new ProcessBuilder("timeout", "-k", "5", "300", "rdma", "link", "delete", device)
                .redirectErrorStream(true).start();
        return deletion;
    }

    /** Whether the device is registered here (its sysfs directory exists). */
    boolean devicePresent() {
        return Files.exists(Path.of("/sys/class/infiniband", device));
    }

    /**
     * Puts this guest back as the harness made it, then takes netem off the peer: no qdisc, the link up, a
     * pending deletion finished and the device added again, every address back (Linux drops a link's IPv6
     * addresses when it goes down) and the GID table as it was. Where the table came out in another order, the
     * device is made again and the addresses added in the order of their GIDs (rxe gives each new address the
     * first free index). Returns whether the device had to be added again (its counters start from 0).
     */
    boolean restore() throws Exception {
        boolean added = false;
        here(30, "tc qdisc del dev " + netdev + " root 2>/dev/null; ip link set " + netdev + " up");
        if (deletion != null) {
            if (!deletion.waitFor(120, TimeUnit.SECONDS)) {
                deletion.destroyForcibly();
            }
            deletion = null;
        }
        if (!devicePresent()) {
            here(60, "rdma link add " + device + " type rxe netdev " + netdev);
            added = true;
        }
        List<String> now = addresses(netdev);
        for (String a : addresses) {
            if (!now.contains(a)) {
                here(30, addCommand(a));
            }
        }
        if (!awaitGids(15)) {
            rebuild();
        }
        if (netemThere) {
            there(60, "tc qdisc del dev " + netdev + " root 2>/dev/null; true");
            netemThere = false;
        }
        log("guests restored");
        return added;
    }

    private void rebuild() throws Exception {
        here(120, "rdma link delete " + device + "; ip addr flush dev " + netdev + " scope global; rdma link add "
                + device + " type rxe netdev " + netdev);
        for (String gid : gids.values()) {
            for (String a : addresses) {
                if (gidOf(a).equals(gid)) {
                    here(30, addCommand(a));
                    awaitGid(gid);
                }
            }
        }
        assertEquals(gids, awaitGids(15) ? gids : RemoteHost.GidTable.local(device).values(),
                device + "'s GID table after re-creating it");
    }

    private void awaitGid(String gid) throws Exception {
        for (int i = 0; i < 50 && !RemoteHost.GidTable.local(device).values().containsValue(gid); i++) {
            Thread.sleep(100);
        }
    }

    /** Whether the GID table is the harness's again and the port ACTIVE, within {@code seconds}. */
    private boolean awaitGids(int seconds) throws Exception {
        Path state = Path.of("/sys/class/infiniband", device, "ports", "1", "state");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        do {
            if (Files.exists(state) && Files.readString(state).contains("ACTIVE")
                    && RemoteHost.GidTable.local(device).values().equals(gids)) {
                return true;
            }
            Thread.sleep(200);
        } while (System.nanoTime() < deadline);
        return false;
    }

    private String addCommand(String cidr) {
        // No duplicate address detection, as the harness: the address (and its GID) is usable at once.
        return "ip addr add " + cidr + " dev " + netdev + (cidr.contains(":") ? " nodad" : "");
    }

    /** The global addresses of {@code netdev} here, "ADDRESS/PREFIX". */
    private static List<String> addresses(String netdev) throws Exception {
        List<String> out = new ArrayList<>();
        for (String line : here(30, "ip -o addr show dev " + netdev + " scope global").split("\n")) {
            String[] w = line.trim().split("\\s+");
            for (int i = 0; i + 1 < w.length; i++) {
                if (w[i].equals("inet") || w[i].equals("inet6")) {
                    out.add(w[i + 1]);
                }
            }
        }
        return out;
    }

    /** The GID of an address as sysfs prints it (IPv4: IPv4-mapped). */
    static String gidOf(String cidr) throws Exception {
        byte[] a = InetAddress.getByName(cidr.substring(0, cidr.indexOf('/'))).getAddress();
        byte[] g = new byte[16];
        if (a.length == 4) {
            g[10] = (byte) 0xff;
            g[11] = (byte) 0xff;
            System.arraycopy(a, 0, g, 12, 4);
        } else {
            g = a;
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 16; i += 2) {
            sb.append(i == 0 ? "" : ":").append(String.format("%02x%02x", g[i], g[i + 1]));
        }
        return sb.toString();
    }
}
