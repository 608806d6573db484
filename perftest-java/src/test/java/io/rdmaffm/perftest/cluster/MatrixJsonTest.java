package io.rdmaffm.perftest.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.perftest.report.BuildInfo;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The matrix document, byte for byte: a fixed outcome against the document the schema's first writer wrote (which
 * cut its pretty-printed head at the last brace and so put the comma before "pairs" on a line of its own; the only
 * difference).
 */
class MatrixJsonTest {
    private static final String GOLDEN = "/cluster/matrix-golden.json";

    static MatrixOutcome outcome() {
        MatrixRequest.Builder b = MatrixRequest.builder();
        b.hosts = "a,b,c";
        b.devices = List.of("mlx5_0");
        b.minPercentOfLink = 90;
        MatrixRequest o = b.build();
        HostInput.Hosts hosts = MatrixPlanner.hosts(o, new FakeRunner(cmd -> FakeRunner.Reply.ok("")));
        Map<String, HostDiscovery.HostInfo> answers = Map.of("a", new HostDiscovery.HostInfo("a", "doctor",
                List.of(new HostDiscovery.Nic("mlx5_0", "ACTIVE", 100.0, 120.5, "0000:3b:00.0", "20.31.1014")), null));
        MatrixPlan plan = MatrixPlanner.plan(o, new DiscoveredHosts(hosts, Map.of(), Map.of("a/mlx5_0", 100.0),
                answers, List.of()));
        List<Attempt> firsts = new ArrayList<>();
        for (RailTest t : plan.railTests(0, plan.rounds().get(0))) {
            firsts.add(new Attempt(t, 1, null, 97.25, 1.9, List.of()));
        }
        for (RailTest t : plan.railTests(1, plan.rounds().get(1))) {
            firsts.add(new Attempt(t, 1, new Failure(Failure.Kind.STALLED, t.client(), "no result \"in\" time"),
                    Double.NaN, Double.NaN, List.of()));
        }
        for (RailTest t : plan.railTests(2, plan.rounds().get(2))) {
            firsts.add(new Attempt(t, 1, null, 50, 4.5, List.of()));
        }
        Verdicts v = Verdicts.judge(plan.hosts().names(), OutlierRules.of(plan), firsts, Map.of());
        return new MatrixOutcome(plan, v.results(), v.best(), v.rollup());
    }

    static String spool(MatrixOutcome out) {
        StringBuilder b = new StringBuilder();
        Attempt first = out.results().getFirst().first();
        b.append(MatrixJson.attemptLine(new Attempt(first.test(), 1, null, 97.25, 1.9, List.of(
                new Attempt.ToolRun("ib_write_bw", 0, "{\"results\": {\"BW_average\": 12.16}}", "table\n"),
                new Attempt.ToolRun("ib_write_lat", 0, "not json", "lat\ttable")))));
        b.append('\n').append('\n');
        b.append(MatrixJson.attemptLine(out.results().get(1).first())).append('\n');
        return b.toString();
    }

    /** A fixed build, so the golden does not change with every commit. */
    static final BuildInfo BUILD = new BuildInfo("0.1.0-SNAPSHOT", "0123456789abcdef0123456789abcdef01234567", false);

    @Test
    void theDocumentCarriesTheBuildItWasWrittenBy() throws IOException {
        StringWriter w = new StringWriter();
        MatrixJson.write(w, outcome(), null);
        Map<?, ?> doc = (Map<?, ?>) io.rdmaffm.perftest.json.JsonReader.parse(w.toString());
        assertEquals(BuildInfo.CURRENT.commit(), doc.get("tool_commit"));
        assertEquals(BuildInfo.CURRENT.version(), doc.get("tool_version"));
        assertTrue(doc.containsKey("tool_dirty"));
    }

    @Test
    void theDocumentIsByteIdenticalToTheFirstWritersOutput() throws IOException {
        MatrixOutcome out = outcome();
        StringWriter w = new StringWriter();
        MatrixJson.write(w, out, new BufferedReader(new StringReader(spool(out))), BUILD);
        String expected;
        try (InputStream in = getClass().getResourceAsStream(GOLDEN)) {
            expected = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertEquals(expected, w.toString());
    }

    @Test
    void emptyListsCloseOnTheirLine() throws IOException {
        MatrixOutcome out = outcome();
        MatrixOutcome none = new MatrixOutcome(out.plan(), List.of(), out.best(), HostRollup.of(List.of(), List.of()));
        StringWriter w = new StringWriter();
        MatrixJson.write(w, none, null);
        String doc = w.toString();
        assertEquals("  \"pairs\": [],\n  \"attempts\": []\n}\n", doc.substring(doc.indexOf("  \"pairs\"")));
    }
}
