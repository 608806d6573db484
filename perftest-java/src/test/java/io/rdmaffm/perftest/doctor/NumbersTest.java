package io.rdmaffm.perftest.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.verbs.topology.Reading;
import io.rdmaffm.verbs.topology.Topology;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The typed figures of a check: order, lookup, kinds and how the JSON report writes them. */
class NumbersTest {

    @Test
    void keepsTheOrderAndTheKindOfEachFigure() {
        Numbers n = Numbers.builder().real("demandGbps", 400.0).text("activePorts", "mlx5_0/1")
                .whole("linkWidth", 16).whole("speedMbps", 100_000L).flag("assumed", true)
                .real("unknown", null).build();
        assertEquals(List.of("demandGbps", "activePorts", "linkWidth", "speedMbps", "assumed", "unknown"),
                n.figures().stream().map(Numbers.Figure::name).toList());
        assertEquals(400.0, n.get("demandGbps"));
        assertEquals(16, n.get("linkWidth"));
        assertEquals(100_000L, n.get("speedMbps"));
        assertEquals(true, n.get("assumed"));
        assertNull(n.get("unknown"));
        assertTrue(n.containsKey("unknown"));
        assertFalse(n.containsKey("absent"));
        assertEquals(n, Numbers.builder().real("demandGbps", 400.0).text("activePorts", "mlx5_0/1")
                .whole("linkWidth", 16).whole("speedMbps", 100_000L).flag("assumed", true)
                .real("unknown", null).build());
    }

    @Test
    void refusesRepeatedNamesAndNonIntegersAsWhole() {
        assertThrows(IllegalArgumentException.class, () -> Numbers.builder().text("a", "x").real("a", 1.0).build());
        assertThrows(IllegalArgumentException.class, () -> new Numbers.Whole("a", 1.5));
        assertThrows(NullPointerException.class, () -> new Numbers.Flag("a", null));
    }

    @Test
    void theJsonReportWritesEachKindAsItsJsonType() {
        Numbers n = Numbers.builder().text("t", "x").text("tn", null).whole("w", 3).real("r", 12.75)
                .real("whole", 400.0).flag("f", false).build();
        CheckResult c = new CheckResult(CheckId.NUMA, "mlx5_0", null, Verdict.OK, "r", n);
        Topology empty = new Topology(Path.of("/x"), List.of(), null, Map.of(), List.of(), null, Reading.of(1),
                List.of());
        String json = ReportWriter.json(new DoctorReport(empty, List.of(), List.of(), List.of(c), null, List.of()));
        assertTrue(json.contains("""
                      "numbers": {
                        "t": "x",
                        "tn": null,
                        "w": 3,
                        "r": 12.75,
                        "whole": 400,
                        "f": false
                      }
                """), json);
        assertTrue(ReportWriter.json(new DoctorReport(empty, List.of(), List.of(), List.of(new CheckResult(
                CheckId.NUMA, "d", null, Verdict.NA, "r", Numbers.NONE)), null, List.of()))
                .contains("\"numbers\": {}\n"));
    }
}
