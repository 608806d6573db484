package io.rdmaffm.perftest.cli.reports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.perftest.report.model.ReportFixtures;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code report} and {@code compare} as commands: what they write, and one line with exit 2 for bad input. The
 * exception handler here is {@code cli.Main}'s rule (one line, exit 2), which applies once Main lists them.
 */
class ReportsCommandsTest {

    private record Result(int exit, String out, String err) {
    }

    private static Result run(Object command, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = new CommandLine(command);
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        cl.setExecutionExceptionHandler((ex, c, pr) -> {
            c.getErr().println(c.getCommandName() + ": error: " + ex.getMessage());
            return 2;
        });
        int exit = cl.execute(args);
        return new Result(exit, out.toString(), err.toString());
    }

    private static String fixture(String name) {
        return ReportFixtures.file(name).toString();
    }

    @Test
    void reportWritesOneFile(@TempDir Path dir) throws IOException {
        Path html = dir.resolve("r.html");
        Result r = run(new ReportCommand(), fixture("bw_sweep_ib.json"), fixture("send_lat_ib.json"), "-o",
                html.toString(), "--title", "two runs");
        assertEquals(0, r.exit(), r.err());
        assertEquals("report: wrote " + html + " (2 runs)\n", r.out());
        String text = Files.readString(html);
        assertTrue(text.contains("<h1>two runs</h1>"));
        assertTrue(text.contains("data-plot=\"bandwidth\""));
        assertTrue(text.contains("data-plot=\"percentiles-2\""));
        try (var files = Files.list(dir)) {
            assertEquals(1, files.count(), "no temporary file left behind");
        }
    }

    @Test
    void reportDrawsAMatrixDocumentAsAHeatMap(@TempDir Path dir) throws IOException {
        Path golden = Path.of("src/test/resources/cluster/matrix-golden.json");
        Path html = dir.resolve("m.html");
        Result r = run(new ReportCommand(), golden.toString(), "-o", html.toString());
        assertEquals(0, r.exit(), r.err());
        assertEquals("report: wrote " + html + " (1 matrix)\n", r.out());
        String text = Files.readString(html);
        assertTrue(text.contains("<table class=\"heatmap\" data-n=\"3\">"), text);
        // with runs, the matrix comes first and the runs follow
        Result both = run(new ReportCommand(), golden.toString(), fixture("bw_sweep_ib.json"), "-o", "-");
        assertEquals(0, both.exit(), both.err());
        assertTrue(both.out().indexOf("class=\"heatmap\"") < both.out().indexOf("data-plot=\"bandwidth\""));
    }

    @Test
    void reportRefusesASizeOfZero() {
        Result r = run(new ReportCommand(), fixture("send_lat_ib.json"), "--sizes", "0", "-o", "-");
        assertEquals(2, r.exit());
        assertEquals("report: error: --sizes wants message sizes in bytes, got 0\n", r.err());
    }

    @Test
    void reportToStandardOutputAndFromAGlob() {
        String glob = ReportFixtures.file("bw_sweep_ib.json").getParent().resolve("bw_sweep_*_2.json").toString();
        Result r = run(new ReportCommand(), glob, "-o", "-");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().startsWith("<!DOCTYPE html>"));
        assertTrue(r.out().contains("data-series=\"bw_sweep_ib_2\""));
        assertTrue(r.out().contains("data-series=\"bw_sweep_roce_2\""));
    }

    @Test
    void reportRefusesBadInputInOneLine(@TempDir Path dir) throws IOException {
        Result missing = run(new ReportCommand(), dir.resolve("nope.json").toString(), "-o", dir.resolve("x.html").toString());
        assertEquals(2, missing.exit());
        assertEquals("report: error: " + dir.resolve("nope.json") + ": cannot read: no such file\n", missing.err());
        Path notRun = Files.writeString(dir.resolve("doctor.json"), "{\"schema\":\"rdma-ffm.doctor/1\"}");
        Result wrong = run(new ReportCommand(), notRun.toString());
        assertEquals(2, wrong.exit());
        assertEquals("report: error: " + notRun + ": not a run document (schema \"rdma-ffm.doctor/1\", expected "
                + "rdma-ffm.run/1)\n", wrong.err());
        Result noMatch = run(new ReportCommand(), dir.resolve("*.nothing").toString());
        assertEquals("report: error: " + dir.resolve("*.nothing") + ": no file matches\n", noMatch.err());
        assertEquals(2, run(new ReportCommand()).exit(), "no file at all");
        try (var files = Files.list(dir)) {
            assertEquals(1, files.count(), "nothing written on bad input");
        }
    }

    /** A run document without rows: what a run that failed before its first row leaves. */
    private static Path emptyRun(Path dir) throws IOException {
        return Files.writeString(dir.resolve("empty.json"), io.rdmaffm.perftest.report.JsonReport.bandwidth(
                io.rdmaffm.perftest.report.BannerInfo.builder(io.rdmaffm.perftest.vocab.Tool.WRITE_BW,
                        io.rdmaffm.perftest.vocab.Role.CLIENT).device("rxe0").build(), java.util.Map.of(),
                io.rdmaffm.perftest.vocab.BwUnit.MB_PER_SEC, java.util.List.of()));
    }

    @Test
    void nothingFoundIsNoSuccess(@TempDir Path dir) throws IOException {
        Path empty = emptyRun(dir);
        Result report = run(new ReportCommand(), empty.toString(), "-o", dir.resolve("r.html").toString());
        assertEquals(2, report.exit(), report.out());
        assertEquals("report: error: nothing to report: the run has no rows (a run that failed before its first row "
                + "writes none)\n", report.err());
        assertTrue(Files.notExists(dir.resolve("r.html")));
        Result compare = run(new CompareCommand(), empty.toString(), empty.toString());
        assertEquals(2, compare.exit(), compare.out());
        assertEquals("compare: error: nothing to compare: the runs have no rows\n", compare.err());
        Result noMetric = run(new CompareCommand(), fixture("send_lat_ib.json"), fixture("send_lat_roce.json"),
                "--metric", "BW_average");
        assertEquals(2, noMetric.exit(), noMetric.out());
        assertEquals("compare: error: nothing to compare: the runs have no rows with BW_average\n", noMetric.err());
    }

    @Test
    void compareTwoFilesAsText() {
        Result r = run(new CompareCommand(), fixture("bw_sweep_ib.json"), fixture("bw_sweep_roce.json"), "--metric",
                "BW_average,MsgRate");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().startsWith("A: " + fixture("bw_sweep_ib.json") + "\nB: " + fixture("bw_sweep_roce.json")
                + "\nnoise: no repeats: noise unknown"), r.out());
        assertEquals(ReportFixtures.SWEEP_ROWS * 2, r.out().lines().filter(l -> l.contains("Gb/sec") || l.contains("Mpps"))
                .count());
    }

    @Test
    void compareRepeatsWithHtml(@TempDir Path dir) throws IOException {
        String base = ReportFixtures.file("bw_sweep_ib.json").getParent().toString();
        Path html = dir.resolve("c.html");
        Result r = run(new CompareCommand(), "--a", base + "/bw_sweep_ib*.json", "--b", fixture("bw_sweep_roce.json"),
                fixture("bw_sweep_roce_2.json"), "--html", html.toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("* worse"), r.out());
        assertTrue(r.out().endsWith("compare: wrote " + html + "\n"));
        assertTrue(Files.readString(html).contains("data-series=\"B: bw_sweep_roce_2\""));
    }

    @Test
    void compareRefusesBadInputInOneLine() {
        Result one = run(new CompareCommand(), fixture("bw_sweep_ib.json"));
        assertEquals(2, one.exit());
        assertTrue(one.err().startsWith("expected two files A.json B.json, or --a FILES... --b FILES..."), one.err());
        Result half = run(new CompareCommand(), "--a", fixture("bw_sweep_ib.json"));
        assertEquals(2, half.exit());
        assertTrue(half.err().startsWith("give both --a and --b"), half.err());
        Result metric = run(new CompareCommand(), fixture("bw_sweep_ib.json"), fixture("bw_sweep_roce.json"),
                "--metric", "speed");
        assertEquals(2, metric.exit());
        assertTrue(metric.err().startsWith("--metric speed: not a metric"), metric.err());
        Result stdout = run(new CompareCommand(), fixture("bw_sweep_ib.json"), fixture("bw_sweep_roce.json"),
                "--html", "-");
        assertEquals(2, stdout.exit());
        Result effect = run(new CompareCommand(), fixture("bw_sweep_ib.json"), fixture("bw_sweep_roce.json"),
                "--min-effect", "-1");
        assertEquals(2, effect.exit());
        assertTrue(effect.err().startsWith("--min-effect must be a percentage from 0 up to 100, got -1.0"),
                effect.err());
        Result kinds = run(new CompareCommand(), fixture("bw_sweep_ib.json"), fixture("send_lat_ib.json"));
        assertEquals(2, kinds.exit(), kinds.out());
        assertEquals("", kinds.out());
        assertTrue(kinds.err().startsWith("compare: error: cannot compare bandwidth runs (A: "), kinds.err());
    }
}
