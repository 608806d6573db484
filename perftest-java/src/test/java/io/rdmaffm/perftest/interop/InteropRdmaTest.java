package io.rdmaffm.perftest.interop;

import io.rdmaffm.perftest.report.CFormat;
import io.rdmaffm.perftest.report.PerftestOutputParser;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The proof of wire compatibility: every tool, Java client against Debian's C server and C client against a
 * Java server, on the real device. Both sides must exit 0, print sane figures, and — where perftest sends
 * the client's results to the server — print the same row.
 */
@Tag("rdma")
class InteropRdmaTest {

    static Stream<Arguments> cases() {
        List<Arguments> all = new ArrayList<>();
        String[][] runs = {
            {"ib_write_bw", "-n", "300", "-s", "2"},
            {"ib_write_bw", "-n", "300", "-s", "65536"},
            {"ib_write_bw", "-n", "100", "-q", "2"},
            {"ib_write_bw", "-n", "100", "-c", "UC", "-s", "4096"},
            {"ib_write_lat", "-n", "300"},
            {"ib_write_lat", "-n", "200", "-s", "65536"},
            {"ib_write_lat", "-n", "200", "-c", "UC"},
            {"ib_read_bw", "-n", "300", "-s", "2"},
            {"ib_read_bw", "-n", "200", "-s", "65536", "-q", "2"},
            {"ib_read_lat", "-n", "300"},
            {"ib_read_lat", "-n", "200", "-s", "65536"},
            {"ib_send_bw", "-n", "300", "-s", "2"},
            {"ib_send_bw", "-n", "200", "-s", "65536"},
            {"ib_send_bw", "-n", "200", "-c", "UD", "-s", "1024"},
            {"ib_send_bw", "-n", "200", "-c", "UC", "-s", "4096"},
            {"ib_send_lat", "-n", "300"},
            {"ib_send_lat", "-n", "200", "-s", "65536"},
            {"ib_send_lat", "-n", "300", "-c", "UD"},
            {"ib_send_lat", "-n", "50", "-U"},
            // Both perftests spin the gap before each post: each round trip holds at least this side's gap (8 s in
            // the VM when not the first case of the run).
            {"ib_send_lat", "-n", "20", "--latency_gap", "20000", "--pkey_index", "0"},
            {"ib_atomic_bw", "-n", "300"},
            {"ib_atomic_bw", "-n", "200", "-A", "CMP_AND_SWAP", "-q", "2"},
            {"ib_atomic_lat", "-n", "300"},
            {"ib_atomic_lat", "-n", "200", "-A", "CMP_AND_SWAP"},
            {"ib_write_bw", "-n", "200", "-s", "65536", "-R"},
            {"ib_read_bw", "-n", "100", "-q", "2", "-R"},
            {"ib_send_lat", "-n", "200", "-R"},
            {"ib_send_lat", "-n", "200", "-z", "-c", "UD"},
            {"ib_write_lat", "-D", "4", "-f", "1"},
            {"ib_send_lat", "-D", "4", "-f", "1"},
            {"ib_read_lat", "-D", "4", "-f", "1"},
            {"ib_write_bw", "-n", "200", "-b", "-s", "4096"},
            {"ib_read_bw", "-n", "200", "-b"},
            {"ib_atomic_bw", "-n", "200", "-b"},
            {"ib_send_bw", "-n", "300", "-b"},
            {"ib_send_bw", "-n", "200", "-b", "-s", "65536", "-q", "2"},
            {"ib_send_bw", "-n", "200", "-b", "-c", "UD", "-s", "1024"},
            // Appended, so the cases above keep their direction in the short form, where these run as: C client and
            // Java server (whose SRQ receives), Java client, C client (two more --use-srq cases: full form only).
            // --use-srq: the receiving sides post to one shared receive queue (each QP's share with -q 2).
            {"ib_send_bw", "-n", "300", "-q", "2", "--use-srq"},
            // --retry_count: the test QPs' retry and RNR retry count (both perftests set both from it) and -z's QP's.
            {"ib_write_bw", "-n", "100", "-R", "--retry_count", "3"},
            // CQs on completion vector 1 (Soft-RoCE has one per CPU; the VM has two) and registration without
            // Relaxed Ordering: no wire change, both sides' own set-up (short form: C client, Java server).
            {"ib_send_bw", "-n", "200", "-e", "-X", "1", "--disable_pcie_relaxed"},
            // Posts through ibv_post_send, C's old post path (short form: Java client, C server), and receives
            // re-posted 4 at a time by the receiving server (short form: C client, Java server).
            {"ib_write_bw", "-n", "200", "--use_old_post_send"},
            {"ib_send_bw", "-n", "200", "-r", "64", "--recv_post_list", "4"},
            // --reversed on both sides: the side without a host writes, the one given a host is written to (short
            // form: Java client, C server, so Java is the passive side).
            {"ib_write_bw", "-n", "200", "-s", "65536", "--reversed"},
            // SW rate limit: the sender posts bursts of tx depth one gap apart (short form: C client, Java server; the
            // full form has Java send, and checks its average is within the limit).
            {"ib_write_bw", "-n", "200", "-s", "65536", "--rate_limit", "0.05", "--rate_limit_type", "SW",
                "--burst_size", "8"},
        };
        // The full form (-Dinterop.full=true, scripts/interop-full.sh) runs every case both ways. CI's short form
        // runs the first case of each tool both ways and the others one way, Java the client and the server in
        // turn: each flag's wire format is still met from one side, at two thirds of the time in the VM.
        boolean full = Boolean.getBoolean("interop.full");
        if (full) {
            // Full form only (CI's budget): --use-srq on the latency loop and bidirectional, beside the case above;
            // --mr_per_qp: each QP's own keys on the wire (RDMA write and send, two QPs); --reversed where the
            // receiver posts receives (send), and the SW limit with -q 2 on read.
            String[][] extra = {
                {"ib_send_lat", "-n", "200", "--use-srq"},
                {"ib_send_bw", "-n", "200", "-b", "--use-srq"},
                {"ib_write_bw", "-n", "200", "-q", "2", "--mr_per_qp"},
                {"ib_read_bw", "-n", "200", "-q", "2", "--mr_per_qp"},
                {"ib_send_bw", "-n", "200", "--reversed"},
                {"ib_read_bw", "-n", "200", "-q", "2", "--rate_limit", "0.05", "--rate_limit_type", "SW",
                    "--burst_size", "16"},
            };
            int base = runs.length;
            runs = java.util.Arrays.copyOf(runs, base + extra.length);
            System.arraycopy(extra, 0, runs, base, extra.length);
        }
        java.util.Set<String> tools = new java.util.HashSet<>();
        for (int i = 0; i < runs.length; i++) {
            String[] r = runs[i];
            boolean both = full || tools.add(r[0]);
            if (both || i % 2 == 0) {
                all.add(Arguments.of("Java client, C server", String.join(" ", r), r));
            }
            if (both || i % 2 == 1) {
                all.add(Arguments.of("C client, Java server", String.join(" ", r), r));
            }
        }
        for (String[] r : durationRuns(full)) {
            all.add(Arguments.of("Java client, C server", String.join(" ", r), r));
            all.add(Arguments.of("C client, Java server", String.join(" ", r), r));
        }
        String[] writeAll = {"ib_write_bw", "-n", "20", "-a"};
        String[] sendLatAll = {"ib_send_lat", "-n", "20", "-a"};
        all.add(Arguments.of("Java client, C server", String.join(" ", writeAll), writeAll));
        all.add(Arguments.of("C client, Java server", String.join(" ", sendLatAll), sendLatAll));
        // -Dinterop.only=REGEX runs the cases whose command matches REGEX (for working on one tool or flag).
        String only = System.getProperty("interop.only", "");
        java.util.regex.Pattern pick = java.util.regex.Pattern.compile(only);
        return all.stream().filter(a -> pick.matcher((String) a.get()[1]).find());
    }

    @ParameterizedTest(name = "{index}: {0}: {1}")
    @MethodSource("cases")
    void javaAndCInteroperate(String roles, String command, String[] run) throws Exception {
        boolean javaIsClient = roles.startsWith("Java client");
        String device = PerftestPeers.device();
        PerftestPeers.requireCPerftest();
        int port = PerftestPeers.freshPort();
        String tool = run[0];
        boolean rdmaCm = List.of(run).contains("-R") || List.of(run).contains("-z");
        List<String> common = PerftestPeers.args("-d", device, "-x", PerftestPeers.gidIndex(), "-p", String.valueOf(port));
        for (int i = 1; i < run.length; i++) {
            common.add(run[i]);
        }
        List<String> c = new ArrayList<>();
        c.add("/usr/bin/" + tool);
        c.addAll(common);
        List<String> java = new ArrayList<>();
        java.add(tool);
        java.addAll(common);
        java.add("--warmup");
        java.add("1000");

        PerftestPeers.Outcome cl = null;
        PerftestPeers.Outcome sv = null;
        String both = "";
        // C perftest calibrates its TSC by sampling; under an emulated CPU the fit sometimes fails and C
        // prints "Can't produce a report" (exit 1) or inf latencies. That is C's clock, not the protocol:
        // such a run is repeated (at most twice), anything else fails at once.
        for (int attempt = 0; attempt < 3; attempt++) {
            int p = attempt == 0 ? port : PerftestPeers.freshPort();
            List<String> cArgs = withPort(c, port, p);
            List<String> jArgs = withPort(java, port, p);
            PerftestPeers.Peer server;
            PerftestPeers.Peer client;
            if (javaIsClient) {
                server = PerftestPeers.startC(cArgs);
                awaitServer(rdmaCm, p, 30);
                jArgs.add(PerftestPeers.serverIp());
                client = PerftestPeers.startJava(jArgs);
            } else {
                server = PerftestPeers.startJava(jArgs);
                awaitServer(rdmaCm, p, 60);
                cArgs.add(PerftestPeers.serverIp());
                client = PerftestPeers.startC(cArgs);
            }
            cl = client.await(240);
            sv = server.await(60);
            both = "\n--- client (" + (javaIsClient ? "Java" : "C") + ") ---\n" + cl.output()
                    + "\n--- server (" + (javaIsClient ? "C" : "Java") + ") ---\n" + sv.output();
            String cOut = javaIsClient ? sv.output() : cl.output();
            if (!cClockFailed(cOut)) {
                break;
            }
            System.out.println("retrying: C perftest's clock calibration failed under emulation" + both);
        }
        assertEquals(0, cl.exitCode(), "client exit code" + both);
        assertEquals(0, sv.exitCode(), "server exit code" + both);

        PerftestOutputParser.Parsed pc = PerftestOutputParser.parse(cl.output());
        PerftestOutputParser.Parsed ps = PerftestOutputParser.parse(sv.output());
        assertEquals(pc.title(), ps.title(), "both sides run the same test" + both);
        assertFalse(pc.addresses().isEmpty(), "client printed address lines" + both);
        boolean bw = tool.endsWith("_bw");
        if (bw) {
            assertFalse(pc.bwRows().isEmpty(), "client printed a BW row" + both);
            for (var row : pc.bwRows()) {
                // 2-byte messages on an emulated CPU can round to 0.00 MB/s; the message rate may not.
                assertTrue(row.msgRate() > 0 && row.bwAvg() >= 0 && row.bwPeak() >= 0
                        && row.iters() > 0, "sane BW figures " + row + both);
            }
            int rateAt = List.of(run).indexOf("--rate_limit");
            if (rateAt > 0 && javaIsClient) {
                // Java sent: n x QPs messages in bursts of --burst_size, the first at once and each next one gap
                // (burst / messages per second) later, so the run lasts at least (bursts - 1) gaps: its average
                // cannot be above the bytes over that time (2% for the clocks)
                List<String> r = List.of(run);
                long messages = Long.parseLong(run[r.indexOf("-n") + 1])
                        * (r.contains("-q") ? Long.parseLong(run[r.indexOf("-q") + 1]) : 1);
                long size = r.contains("-s") ? Long.parseLong(run[r.indexOf("-s") + 1]) : 65536;
                long burst = Long.parseLong(run[r.indexOf("--burst_size") + 1]);
                double pps = Double.parseDouble(run[rateAt + 1]) * 1e9 / (size * 8);
                double minSeconds = (Math.ceil((double) messages / burst) - 1) * burst / pps;
                double most = messages * size / minSeconds / (1 << 20);
                for (var row : pc.bwRows()) {
                    assertTrue(row.bwAvg() <= most * 1.02, "SW rate limit: at most " + most + " MB/sec: " + row + both);
                }
            }
            if (List.of(run).contains("--reversed")) {
                // perftest's machine roles flipped: the side given no host sends (its banner has the TX depth); the
                // other is the passive one, and says "Waiting for client to connect..." as C's does
                assertTrue(sv.output().contains(" TX depth ") && !cl.output().contains(" TX depth "),
                        "the TCP server sends" + both);
                assertTrue(cl.output().contains("Waiting for client to connect"), "the TCP client waits" + both);
            }
            if (List.of(run).contains("-b")) {
                // Bidirectional: each side prints its own figures plus the peer's, so both rows are equal.
                assertEquals(pc.bwRows(), ps.bwRows(), "both sides print the same sum" + both);
            } else if (!tool.equals("ib_send_bw")) {
                // The server prints the client's figures, carried by the report exchange.
                assertEquals(pc.bwRows().get(pc.bwRows().size() - 1), ps.bwRows().get(ps.bwRows().size() - 1),
                        "server shows the client's row" + both);
            } else {
                assertFalse(ps.bwRows().isEmpty(), "send_bw server prints its own row" + both);
            }
        } else if (List.of(run).contains("-D")) {
            // Duration mode: each measuring side prints one row of round trips counted in its sample window.
            boolean passiveJavaServer = !javaIsClient && (tool.startsWith("ib_read") || tool.startsWith("ib_atomic"));
            var javaRows = javaIsClient ? pc.latDurationRows() : ps.latDurationRows();
            if (!passiveJavaServer) {
                assertEquals(1, javaRows.size(), "one duration row from the Java side" + both);
                var r = javaRows.get(0);
                assertTrue(r.iters() > 0 && r.avgUsec() > 0 && r.tps() > 0
                        && Math.abs(r.avgUsec() * r.tps() / 1e6 * (tool.startsWith("ib_read") ? 1 : 2) - 1) < 0.05,
                        "sane duration figures (t_avg x tps = 1 s per round trip) " + r + both);
            }
            assertFalse(pc.latDurationRows().isEmpty(), "the client printed a duration row" + both);
        } else {
            // Every side that measures prints rows; the Java side's figures must be sane.
            var javaRows = javaIsClient ? pc.latRows() : ps.latRows();
            boolean passiveJavaServer = !javaIsClient && (tool.startsWith("ib_read") || tool.startsWith("ib_atomic"));
            if (!passiveJavaServer) {
                assertFalse(javaRows.isEmpty(), "latency rows from the Java side" + both);
                for (var r : javaRows) {
                    assertTrue(r.tMin() > 0 && r.tMin() <= r.typical() && r.typical() <= r.tMax()
                            && r.p99() <= r.p999(), "sane latency figures " + r + both);
                }
            }
            assertFalse(pc.latRows().isEmpty(), "the client printed latency rows" + both);
            int gapAt = List.of(run).indexOf("--latency_gap");
            if (gapAt > 0) {
                // half a round trip that holds at least the Java side's gap (C's own may be 0: its clock fails
                // under emulation)
                double gap = Integer.parseInt(run[gapAt + 1]);
                for (var r : javaRows) {
                    assertTrue(r.tMin() >= gap / 2, "--latency_gap " + gap + " in every round trip: " + r + both);
                }
            }
            if (List.of(run).contains("-U")) {
                // send_lat: both sides print every sample; Java's list must have C's shape, line for line.
                String cShape = unsortedShape(javaIsClient ? sv.output() : cl.output());
                assertEquals(cShape, unsortedShape(javaIsClient ? cl.output() : sv.output()),
                        "-U samples as C prints them" + both);
                assertTrue(cShape.startsWith(Integer.parseInt(run[2]) - 1 + " samples"), cShape + both);
            }
        }
    }

    /** --pkey_index beyond the port's P_Key table (Soft-RoCE: one entry) is refused with the device's reason. */
    @Test
    void aPkeyIndexBeyondThePortsTableIsRefusedWithTheDevicesReason() throws Exception {
        String device = PerftestPeers.device();
        PerftestPeers.Outcome o = PerftestPeers.startJava(PerftestPeers.args("ib_write_bw", "-d", device, "-x",
                PerftestPeers.gidIndex(), "-p", String.valueOf(PerftestPeers.freshPort()), "--pkey_index", "1",
                "--warmup", "0")).await(120);
        assertEquals(2, o.exitCode(), o.output());
        assertTrue(o.output().contains("--pkey_index 1: port 1 of " + device + " has 1 P_Key table entry (pkey_tbl_len)"),
                o.output());
    }

    /**
     * {@code --dlid} and {@code --force-link IB} on Soft-RoCE are refused with the port's link layer, read from the
     * device (Ethernet).
     */
    @Test
    void linkFlagsOnRoceAreRefusedWithThePortsLinkLayer() throws Exception {
        String device = PerftestPeers.device();
        for (String[] flag : new String[][] {{"--dlid", "5"}, {"--force-link", "IB"}}) {
            PerftestPeers.Outcome o = PerftestPeers.startJava(PerftestPeers.args("ib_send_lat", "-d", device, "-x",
                    PerftestPeers.gidIndex(), "-p", String.valueOf(PerftestPeers.freshPort()), flag[0], flag[1],
                    "--warmup", "0")).await(120);
            assertEquals(2, o.exitCode(), o.output());
            assertTrue(o.output().contains(flag[0] + " " + flag[1] + ": port 1 of " + device
                    + " is Ethernet (its link_layer)"), o.output());
        }
    }

    /**
     * The rate limiters Soft-RoCE cannot run are refused with the device's reason, read from it: HW (the port's
     * link layer: a static rate needs InfiniBand) and PP (packet_pacing_caps: none).
     */
    @Test
    void hwAndPacketPacingRateLimitsAreRefusedWithTheDevicesReason() throws Exception {
        String device = PerftestPeers.device();
        String[][] cases = {
            {"--rate_limit_type HW: port 1 of " + device + " is Ethernet (its link_layer)", "--rate_limit", "10",
                "--rate_limit_type", "HW"},
            {"--rate_limit_type PP: " + device + " has no packet pacing (packet_pacing_caps.qp_rate_limit_max is 0)",
                "--rate_limit", "100", "--rate_units", "M", "--rate_limit_type", "PP"},
        };
        for (String[] c : cases) {
            List<String> args = PerftestPeers.args("ib_write_bw", "-d", device, "-x", PerftestPeers.gidIndex(), "-p",
                    String.valueOf(PerftestPeers.freshPort()), "--warmup", "0");
            args.addAll(List.of(c).subList(1, c.length));
            PerftestPeers.Outcome o = PerftestPeers.startJava(args).await(120);
            assertEquals(2, o.exitCode(), o.output());
            assertTrue(o.output().contains(c[0]), o.output());
        }
    }

    /** Both sides flagged in turn; CI's short form flags Java's only (C's side: scripts/interop-full.sh). */
    static Stream<String> dontExchangeVersionsSides() {
        return Boolean.getBoolean("interop.full") ? Stream.of("Java client", "C client") : Stream.of("Java client");
    }

    /**
     * {@code --dont_xchg_versions} on one side only, each perftest in turn (the other side as by default): the side
     * with the flag sends no version and refuses the peer as older than 5.70 (perftest 4.5 checks the version it
     * skipped), exit 1, with C's reason in its line; the other side ends at once on the closed connection, exit 1.
     * (Both sides with the flag end the same way, captured: captures/README.md.)
     */
    @ParameterizedTest(name = "{0} with --dont_xchg_versions")
    @MethodSource("dontExchangeVersionsSides")
    void dontExchangeVersionsEndsBothSidesAsCDoes(String flagged) throws Exception {
        PerftestPeers.requireCPerftest();
        String device = PerftestPeers.device();
        int port = PerftestPeers.freshPort();
        boolean javaIsClient = flagged.startsWith("Java");
        List<String> common = PerftestPeers.args("-d", device, "-x", PerftestPeers.gidIndex(), "-p",
                String.valueOf(port), "-n", "100");
        List<String> c = new ArrayList<>(List.of("/usr/bin/ib_write_bw"));
        c.addAll(common);
        List<String> java = new ArrayList<>(List.of("ib_write_bw"));
        java.addAll(common);
        java.addAll(List.of("--warmup", "0", "--timeout", "20"));
        long t0 = System.nanoTime();
        PerftestPeers.Peer server;
        PerftestPeers.Peer client;
        if (javaIsClient) {
            server = PerftestPeers.startC(c);
            awaitServer(false, port, 30);
            java.addAll(List.of("--dont_xchg_versions", PerftestPeers.serverIp()));
            client = PerftestPeers.startJava(java);
        } else {
            server = PerftestPeers.startJava(java);
            awaitServer(false, port, 60);
            c.addAll(List.of("--dont_xchg_versions", PerftestPeers.serverIp()));
            client = PerftestPeers.startC(c);
        }
        PerftestPeers.Outcome cl = client.await(120);
        PerftestPeers.Outcome sv = server.await(60);
        String both = "\n--- client ---\n" + cl.output() + "\n--- server ---\n" + sv.output();
        assertEquals(1, cl.exitCode(), "the flagged client refuses the unversioned peer" + both);
        assertTrue(cl.output().contains(javaIsClient
                ? "--dont_xchg_versions: the peer's version was not exchanged, so it counts as 0"
                : "Current implementation is not compatible with versions older than 5.70"), both);
        assertEquals(1, sv.exitCode(), "the server's run ends on the closed connection" + both);
        assertTrue(System.nanoTime() - t0 < 150_000_000_000L, "both ended without waiting out a timeout" + both);
    }

    /**
     * What {@code -U} printed: the sample count, each sample numbered from 1 in {@code %g} form (checked here
     * by re-formatting its value), and the two lines after the list.
     */
    static String unsortedShape(String output) {
        String[] lines = output.split("\n", -1);
        int at = List.of(lines).indexOf("#, usec");
        if (at < 0) {
            return "no #, usec line";
        }
        int n = 0;
        while (at + 1 + n < lines.length && lines[at + 1 + n].matches("\\d+, \\S+")) {
            String[] f = lines[at + 1 + n].split(", ");
            if (Integer.parseInt(f[0]) != n + 1 || !f[1].equals(CFormat.general(Double.parseDouble(f[1])))) {
                return "sample line " + (n + 1) + " reads \"" + lines[at + 1 + n] + "\"";
            }
            n++;
        }
        int after = at + 1 + n;
        return n + " samples, then \"" + (after < lines.length ? lines[after] : "") + "\" and \""
                + (after + 1 < lines.length ? lines[after + 1] : "") + "\"";
    }

    /**
     * Duration mode ({@code -D}) of the bandwidth tools. With 2 B messages the default cq_mod (100) leaves
     * unsignaled work requests at the end of the run, which once made the Java client wait for completions
     * that never come. The full matrix ({@code -Dinterop.full=true}): every BW tool at 2 B, 4 KiB and 64 KiB,
     * with the default cq_mod and {@code -Q 1}, and with {@code -q 2}; CI runs the short form, which keeps one
     * case of each kind (default cq_mod at 2 B for every tool, {@code -Q 1} at 64 KiB, {@code -q 2}).
     */
    static List<String[]> durationRuns(boolean full) {
        List<String[]> runs = new ArrayList<>();
        String[] duration = {"-D", "2"};
        for (String tool : List.of("ib_write_bw", "ib_read_bw", "ib_send_bw", "ib_atomic_bw")) {
            boolean atomic = tool.equals("ib_atomic_bw");
            List<String> sizes = atomic ? List.of("") : full ? List.of("2", "4096", "65536") : List.of("2");
            for (String size : sizes) {
                for (String cqMod : full ? List.of("", "1") : List.of("")) {
                    runs.add(durationRun(tool, duration, size, cqMod, 1));
                }
            }
            if (full || tool.equals("ib_write_bw")) {
                runs.add(durationRun(tool, duration, atomic ? "" : "65536", "1", 1));
            }
            if (full || !atomic && !tool.equals("ib_read_bw")) {
                runs.add(durationRun(tool, duration, atomic ? "" : "4096", "", 2));
            }
        }
        return runs.stream().map(r -> String.join(" ", r)).distinct().map(r -> r.split(" ")).toList();
    }

    private static String[] durationRun(String tool, String[] duration, String size, String cqMod, int qps) {
        List<String> r = new ArrayList<>(List.of(tool));
        r.addAll(List.of(duration));
        if (!size.isEmpty()) {
            r.addAll(List.of("-s", size));
        }
        if (!cqMod.isEmpty()) {
            r.addAll(List.of("-Q", cqMod));
        }
        if (qps > 1) {
            r.addAll(List.of("-q", String.valueOf(qps)));
        }
        return r.toArray(String[]::new);
    }

    private static void awaitServer(boolean rdmaCm, int port, long seconds) throws Exception {
        if (rdmaCm) {
            PerftestPeers.awaitRdmaCmListening(port, seconds);
        } else {
            PerftestPeers.awaitListening(port, seconds);
        }
    }

    /** C's TSC calibration failed (emulated CPU): no report, or infinite latencies. */
    static boolean cClockFailed(String cOutput) {
        return cOutput.contains("Can't produce a report") || cOutput.contains(" inf ");
    }

    private static List<String> withPort(List<String> args, int from, int to) {
        List<String> out = new ArrayList<>(args);
        for (int i = 0; i < out.size(); i++) {
            if (out.get(i).equals(String.valueOf(from)) && i > 0 && out.get(i - 1).equals("-p")) {
                out.set(i, String.valueOf(to));
            }
        }
        return out;
    }
}
