package io.rdmaffm.perftest.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.perftest.doctor.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A whole matrix against the fake runner: six hosts, one unreachable (f), one without the tool (e), one slow
 * with everyone (d), one pair that stalls once (a-b) and one that is slow once (b-c).
 */
class MatrixRunTest {
    private static final Pattern CLIENT_OF = Pattern.compile("--out_json_file \"\\$f\" (\\S+) 2>&1");
    private static final String LISTEN = "@rdma-matrix pid 100\n************************************\n"
            + "* Waiting for client to connect... *\n************************************\n";

    @TempDir
    Path dir;

    /** Scripted cluster: what each end prints, by host, role, tool and how often the pair ran. */
    static final class Cluster {
        final Map<String, Integer> runs = new ConcurrentHashMap<>();
        final List<String> slowHosts = new ArrayList<>();

        FakeRunner.Reply reply(List<String> cmd) {
            String host = cmd.get(cmd.indexOf("--") + 1);
            String script = cmd.getLast();
            if (script.startsWith("sh -c 'kill -TERM")) {
                return FakeRunner.Reply.ok("");
            }
            if (host.equals("f")) {
                return new FakeRunner.Reply("", "ssh: connect to host f port 22: Connection refused\n", 255, false);
            }
            if (host.equals("e")) {
                return new FakeRunner.Reply("", RemoteScript.MISSING_MARK + " rdma-perftest on e\n", 127, false);
            }
            Matcher m = CLIENT_OF.matcher(script);
            if (!m.find()) {
                return FakeRunner.Reply.ok(LISTEN);
            }
            String server = m.group(1);
            boolean bw = script.contains("ib_write_bw");
            String pair = server.compareTo(host) < 0 ? server + "-" + host : host + "-" + server;
            int n = runs.merge(pair + (bw ? " bw" : " lat"), 1, Integer::sum);
            if (pair.equals("a-b") && bw && n == 1) {
                return FakeRunner.Reply.hang("@rdma-matrix pid 4242\n");
            }
            boolean slow = slowHosts.contains(server) || slowHosts.contains(host) || pair.equals("b-c") && n == 1;
            String json = bw
                    ? String.format(Locale.ROOT, "{\"results\": {\"BW_average\": %.2f, \"BW_unit\": \"Gb/sec\"}}",
                            slow ? 50.0 : 97.0 + (pair.hashCode() & 7) / 10.0)
                    : "{\"results\": {\"t_typical\": 1.90, \"t_avg\": 1.95}}";
            return FakeRunner.Reply.ok("@rdma-matrix pid 4343\n #bytes table\n" + RemoteScript.JSON_MARK + "\n"
                    + json + "\n");
        }
    }

    static MatrixRequest.Builder options(String hosts) {
        MatrixRequest.Builder o = MatrixRequest.builder();
        o.hosts = hosts;
        o.listenTimeout = Duration.ofMillis(300);
        o.testTimeout = Duration.ofMillis(500);
        o.maxConnections = 4;
        // The fake runner plays per-test ends; workers are MatrixWorkerRunTest's.
        o.launch = MatrixRequest.Launch.PER_TEST;
        return o;
    }

    @Test
    void wholeMatrixWithEveryKindOfFault() throws Exception {
        Cluster cluster = new Cluster();
        cluster.slowHosts.add("d");
        FakeRunner runner = new FakeRunner(cluster::reply);
        MatrixRequest.Builder o = options("a,b,c,d,e,f");
        MatrixPlan plan = MatrixPlanner.plan(o.build(), runner);
        List<String> progress = new ArrayList<>();
        FileSink sink = new FileSink(dir.resolve("m.json"), dir.resolve("m.csv"));
        MatrixRun run = new MatrixRun(plan, new SshLauncher(3), runner, sink, progress::add).withoutShutdownHook();
        MatrixOutcome out = run.run();

        assertEquals(15, out.results().size());
        assertEquals(1, out.count(PairResult.Status.OK), MatrixReport.text(out));
        assertEquals(2, out.count(PairResult.Status.OK_ON_RETEST));
        assertEquals(3, out.count(PairResult.Status.FLAGGED));
        assertEquals(9, out.count(PairResult.Status.FAILED));
        assertEquals(2, out.exitCode());
        assertEquals(0, run.live().size(), "every end stopped or ended");

        PairResult ab = result(out, "a", "b");
        assertEquals(PairResult.Status.OK_ON_RETEST, ab.status());
        assertEquals(Failure.Kind.STALLED, ab.first().failure().kind());
        assertTrue(ab.first().failure().message().startsWith("no result within 0.5 s (client on "), ab.toString());
        String stalledClient = ab.test().client();
        assertTrue(runner.commands().stream().anyMatch(c -> c.get(c.indexOf("--") + 1).equals(stalledClient)
                && c.getLast().equals("sh -c 'kill -TERM 4242 2>/dev/null; exit 0'")), "stalled client killed by pid");
        assertTrue(runner.started().stream().noneMatch(FakeRunner.FakeProcess::alive), "no local process left");

        PairResult bc = result(out, "b", "c");
        assertEquals(PairResult.Status.OK_ON_RETEST, bc.status());
        assertEquals(50.0, bc.first().bwGbps(), 1e-9);
        assertTrue(bc.last().bwGbps() >= 97, bc.toString());
        PairResult ad = result(out, "a", "d");
        assertEquals(PairResult.Status.FLAGGED, ad.status());
        assertNotNull(ad.retest(), "flagged pairs are retested once");
        assertEquals(OutlierRules.Rule.BW_BELOW_BEST, ad.flags().getFirst().rule());
        assertEquals(1.90, ad.last().latUsec(), 1e-9);
        PairResult ae = result(out, "a", "e");
        assertEquals(Failure.Kind.TOOL_MISSING, ae.last().failure().kind());
        assertEquals("e", ae.last().failure().host());
        assertEquals("rdma-perftest not found on e (not on PATH)", ae.last().failure().message());
        assertEquals(null, ae.retest(), "a missing tool is not retested");
        PairResult bf = result(out, "b", "f");
        assertEquals(Failure.Kind.UNREACHABLE, bf.last().failure().kind());
        assertEquals("ssh to f failed (exit 255): ssh: connect to host f port 22: Connection refused",
                bf.last().failure().message());
        assertEquals(PairResult.Status.OK, result(out, "a", "c").status());

        assertEquals(HostRollup.Verdict.NODE, verdict(out, "d"));
        assertEquals(HostRollup.Verdict.HOST_FAILED, verdict(out, "f"));
        assertEquals(HostRollup.Verdict.SOME_PAIRS, verdict(out, "a"));
        assertEquals("node d", out.rollup().causes().get(ad.test()));
        assertEquals("host e (tool missing)", out.rollup().causes().get(ae.test()));

        assertEquals(5 + 3, progress.size(), progress.toString());
        assertTrue(progress.getFirst().startsWith("matrix: round 1/5 done; 3 tests, "), progress.getFirst());
        checkText(out);
        checkCsv(Files.readString(dir.resolve("m.csv")));
        checkJson(Files.readString(dir.resolve("m.json")));
        assertFalse(Files.exists(sink.spool()), "spool removed once the document is complete");
    }

    private static void checkText(MatrixOutcome out) {
        String text = MatrixReport.text(out);
        assertTrue(text.contains("\n  d: NODE - bad with 3 of 3 peers: node problem"), text);
        assertTrue(text.contains("\n  f: HOST_FAILED - unreachable: ssh to f failed (exit 255)"), text);
        assertTrue(text.contains("!UNREACHABLE"), text);
        assertTrue(text.contains("!TOOL-MISSING"), text);
        assertTrue(text.contains("50.0/1.90*"), text);
        assertTrue(text.endsWith("15 rail tests: 1 ok, 2 ok on retest, 3 flagged, 9 failed; best "
                + String.format(Locale.ROOT, "%.2f", out.best().bwGbps()) + " Gb/s, 1.90 us; exit 2\n"), text);
        String row = text.lines().filter(l -> l.startsWith("d ")).findFirst().orElseThrow();
        assertEquals(List.of("d", "50.0/1.90*", "50.0/1.90*", "50.0/1.90*", "-", "!TOOL-MISSING", "!UNREACHABLE"),
                List.of(row.trim().split("\\s+")), row);
    }

    private static void checkCsv(String csv) {
        List<String> lines = csv.lines().toList();
        assertEquals(16, lines.size());
        assertTrue(lines.getFirst().startsWith("server,server_device,client,client_device,rail,status,bw_gbps,"));
        assertEquals(3, lines.stream().filter(l -> l.contains(",FLAGGED,") && l.contains(",node d,")).count(), csv);
        assertTrue(lines.stream().anyMatch(l -> l.contains(",OK_ON_RETEST,") && l.contains(",2,50.000,")
                && l.endsWith(",\"ok on retest (first: 50.00 Gb/s, 1.90 us)\"")), csv);
        assertTrue(lines.stream().anyMatch(l -> l.contains(",OK_ON_RETEST,") && l.endsWith(",ok on retest (first:"
                + " stalled)")), csv);
        // f serves the e-f pair (round 4), so that one is f's.
        assertEquals(5, lines.stream().filter(l -> l.contains(",UNREACHABLE,f,")).count(), csv);
        assertEquals(4, lines.stream().filter(l -> l.contains(",TOOL_MISSING,e,")).count(), csv);
        assertTrue(lines.contains("b,,e,,0,FAILED,,,,1,,,TOOL_MISSING,e,,host e (tool missing),rdma-perftest not found on"
                + " e (not on PATH)"), csv);
    }

    @SuppressWarnings("unchecked")
    private static void checkJson(String text) {
        Map<String, Object> doc = (Map<String, Object>) Json.parse(text);
        assertEquals(MatrixJson.SCHEMA, doc.get("schema"));
        Map<String, Object> summary = (Map<String, Object>) doc.get("summary");
        assertEquals(2.0, summary.get("exitCode"));
        assertEquals(3.0, summary.get("flagged"));
        List<Object> pairs = (List<Object>) doc.get("pairs");
        assertEquals(15, pairs.size());
        List<Object> attempts = (List<Object>) doc.get("attempts");
        assertEquals(15 + 5, attempts.size(), "every first attempt and the 5 retests");
        Map<String, Object> anyOk = (Map<String, Object>) attempts.stream()
                .filter(a -> ((Map<String, Object>) a).get("failure") == null).findFirst().orElseThrow();
        Map<String, Object> bwTool = (Map<String, Object>) ((List<Object>) anyOk.get("tools")).getFirst();
        assertEquals("ib_write_bw", bwTool.get("tool"));
        Map<String, Object> results = (Map<String, Object>) ((Map<String, Object>) bwTool.get("result")).get("results");
        assertEquals(anyOk.get("bwGbps"), results.get("BW_average"), "the tool's own document, embedded");
        Map<String, Object> plan = (Map<String, Object>) doc.get("plan");
        assertEquals(List.of("a", "b", "c", "d", "e", "f"), plan.get("hosts"));
        assertEquals("ssh", plan.get("launcher"));
        List<Object> hosts = (List<Object>) doc.get("hosts");
        assertEquals("NODE", ((Map<String, Object>) hosts.get(3)).get("verdict"));
    }

    @Test
    void exitOneWhenOnlyFlaggedAndZeroWhenAllGood() throws Exception {
        Cluster slow = new Cluster();
        slow.slowHosts.add("c");
        FakeRunner runner = new FakeRunner(slow::reply);
        MatrixOutcome out = new MatrixRun(MatrixPlanner.plan(options("a,c,d").build(), runner), new SshLauncher(3),
                runner, MatrixSink.none(), Progress.none()).withoutShutdownHook().run();
        assertEquals(1, out.exitCode(), MatrixReport.text(out));
        assertEquals(HostRollup.Verdict.NODE, verdict(out, "c"));

        FakeRunner good = new FakeRunner(new Cluster()::reply);
        MatrixRequest.Builder o = options("c,d,g,h");
        MatrixOutcome fine = new MatrixRun(MatrixPlanner.plan(o.build(), good), new SshLauncher(3), good,
                MatrixSink.none(), Progress.none()).withoutShutdownHook().run();
        assertEquals(0, fine.exitCode());
        assertEquals(6, fine.count(PairResult.Status.OK));
        assertEquals(6 * 2 * 2, good.commands().size(), "6 pairs x 2 tools x 2 ends, no retest");
    }

    @Test
    void cPerftestPeersAreParsedFromTheirText() throws Exception {
        String capture = ToolOutputTest.resource("/captures/write_bw.client.out");
        FakeRunner runner = new FakeRunner(cmd -> {
            String script = cmd.getLast();
            boolean client = script.contains(" -p 18515 h0 2>&1 &") || script.contains(" -p 18515 h1 2>&1 &");
            return FakeRunner.Reply.ok(client ? "@rdma-matrix pid 9\n" + capture : LISTEN);
        });
        MatrixRequest.Builder o = options("h0,h1");
        o.peer = MatrixRequest.Peer.C;
        o.tools = List.of("ib_write_bw");
        MatrixOutcome out = new MatrixRun(MatrixPlanner.plan(o.build(), runner), new SrunLauncher(), runner,
                MatrixSink.none(), Progress.none()).withoutShutdownHook().run();
        assertEquals(PairResult.Status.OK, out.results().getFirst().status());
        assertEquals(32.26 * 1048576 * 8 / 1e9, out.results().getFirst().last().bwGbps(), 1e-9);
        assertEquals(List.of("srun", "--nodes=1", "--ntasks=1", "--nodelist=h0"), runner.commands().getFirst()
                .subList(0, 4));
        assertTrue(runner.commands().get(1).getLast().contains("\nib_write_bw -p 18515 h0 2>&1 &\n"));
    }

    private static PairResult result(MatrixOutcome out, String x, String y) {
        return out.results().stream().filter(r -> r.test().server().equals(x) && r.test().client().equals(y)
                || r.test().server().equals(y) && r.test().client().equals(x)).findFirst().orElseThrow();
    }

    private static HostRollup.Verdict verdict(MatrixOutcome out, String host) {
        return out.rollup().ends().stream().filter(e -> e.host().equals(host)).findFirst().orElseThrow().verdict();
    }
}
