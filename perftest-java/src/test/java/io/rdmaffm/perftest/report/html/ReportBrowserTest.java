package io.rdmaffm.perftest.report.html;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rdmaffm.perftest.json.JsonReader;
import io.rdmaffm.perftest.report.compare.ComparePage;
import io.rdmaffm.perftest.report.compare.Comparison;
import io.rdmaffm.perftest.report.model.ReportFixtures;
import io.rdmaffm.perftest.report.model.Row;
import io.rdmaffm.perftest.report.model.RunDocument;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The report and the compare page in a real browser: headless Chromium loads them with no console message (the
 * page's policy forbids every fetch, so an attempted one would be logged) and a probe script counts, in the
 * rendered DOM, every plot's series and points and measures them; the counts must be those of the input runs.
 * Also writes screenshots (desktop and phone width) to {@code target/report-browser/}. Skipped, with the reason,
 * where no Chromium is installed ({@code scripts/report-browser-test.sh} installs Debian's).
 */
@Tag("browser")
class ReportBrowserTest {
    static final Path OUT = Path.of("target", "report-browser");
    private static HeadlessChromium chromium;

    /** Collects errors and policy violations from the start, and after load writes what was drawn as JSON. */
    private static final String PROBE = """
            <script>
            window.__errors = [];
            addEventListener('error', e => __errors.push('error: ' + e.message));
            addEventListener('securitypolicyviolation', e => __errors.push('blocked: ' + e.violatedDirective + ' ' + e.blockedURI));
            addEventListener('load', () => {
              const plots = [];
              for (const f of document.querySelectorAll('figure.plot')) {
                const box = f.querySelector('svg').getBoundingClientRect();
                const series = [];
                for (const g of f.querySelectorAll('g.series')) {
                  const line = g.querySelector('path').getBBox();
                  const legend = [...f.querySelectorAll('li[data-legend]')].some(li => li.dataset.legend === g.dataset.series);
                  series.push({label: g.dataset.series, points: Number(g.dataset.points),
                    circles: g.querySelectorAll('circle').length, lineWidth: line.width, legend: legend});
                }
                plots.push({id: f.dataset.plot, width: box.width, height: box.height, series: series,
                  collapsed: f.closest('details:not([open])') !== null, visible: f.checkVisibility()});
              }
              const pre = document.createElement('pre');
              pre.id = 'probe';
              pre.textContent = JSON.stringify({errors: __errors, plots: plots,
                pageWidth: document.documentElement.scrollWidth, viewport: innerWidth});
              document.body.appendChild(pre);
            });
            </script>
            """;

    @BeforeAll
    static void findChromium() throws IOException {
        chromium = HeadlessChromium.find(Files.createDirectories(OUT));
    }

    /** Per test, not per class: surefire lists each test as skipped, with the reason. */
    @BeforeEach
    void needsChromium() {
        assumeTrue(chromium != null, "no Chromium (chromium, chromium-browser, google-chrome) on PATH or in "
                + "-Dreport.chromium: install Debian's chromium (scripts/report-browser-test.sh does)");
    }

    private static List<RunDocument> reportRuns() {
        return ReportFixtures.readAll("bw_sweep_ib.json", "bw_sweep_roce.json", "send_lat_ib.json",
                "send_lat_roce.json", "read_lat_duration.json", "v0/send_lat.json");
    }

    /** What each plot must hold: plot id → series label → points, from the runs themselves. */
    private static Map<String, Map<String, Integer>> expected(List<RunDocument> runs) {
        Map<String, Map<String, Integer>> e = new LinkedHashMap<>();
        for (RunDocument r : runs.subList(0, 2)) {
            int withBw = (int) r.rows().stream().filter(x -> ((Row.Bandwidth) x).bwAverage() != null).count();
            e.computeIfAbsent("bandwidth", k -> new LinkedHashMap<>()).put(r.label(), withBw);
            e.computeIfAbsent("msgrate", k -> new LinkedHashMap<>()).put(r.label(), r.rows().size());
        }
        for (RunDocument r : runs.subList(2, 4)) {
            Row.Latency row = (Row.Latency) r.rows().get(0);
            e.computeIfAbsent("percentiles-2", k -> new LinkedHashMap<>()).put(r.label(),
                    LatencyCurve.points(row.histogram().decode()).size());
        }
        Map<String, Integer> size = e.computeIfAbsent("latency-size", k -> new LinkedHashMap<>());
        for (RunDocument r : runs.subList(2, 4)) {
            size.put(r.label() + " · typical", 1);
            size.put(r.label() + " · 99.9%", 1);
        }
        size.put("read_lat_duration · average", 1);
        size.put("send_lat · typical", runs.get(5).rows().size());
        size.put("send_lat · 99.9%", runs.get(5).rows().size());
        Row ts64k = runs.get(0).rows().stream().filter(x -> x.size() == 65536).findFirst().orElseThrow();
        e.put("timeseries-1-65536", Map.of("bw_sweep_ib, 64K B", ts64k.timeSeries().presentCount()));
        for (int i = 2; i < 4; i++) {
            RunDocument r = runs.get(i);
            e.put("timeseries-" + (i + 1) + "-2", Map.of(r.label() + ", 2 B",
                    r.rows().get(0).timeSeries().presentCount()));
        }
        return e;
    }

    @Test
    void theReportLoadsCleanlyAndDrawsEverySeriesOfTheRuns() throws Exception {
        List<RunDocument> runs = reportRuns();
        Map<?, ?> probe = probe(ReportPage.render(null, runs), "report", 1280);
        Map<String, Map<String, Integer>> want = expected(runs);
        assertEquals(want, drawn(probe));
        // Headless Chromium lays a --dump-dom page out at least 500 px wide, whatever the window size asks for.
        Map<?, ?> narrow = probe(ReportPage.render(null, runs), "report-narrow", 390);
        assertEquals(want, drawn(narrow));
        assertTrue(((Double) narrow.get("pageWidth")) <= ((Double) narrow.get("viewport")),
                "the page does not scroll sideways on a narrow screen: " + narrow.get("pageWidth") + " px in "
                        + narrow.get("viewport"));
    }

    @Test
    void aSweepShowsThreeCurvesAndKeepsTheRestClosedAndTheRxeSweepNoFlatTimeSeries() throws Exception {
        RunDocument sweep = io.rdmaffm.perftest.report.model.RunReader.parse(
                ReportFixtures.latencySweep("Send_Latency_Test", 23, 100), "sweep.json");
        Map<String, Map<String, Integer>> got = drawn(probe(ReportPage.render(null, List.of(sweep,
                ReportFixtures.read("rxe_write_bw_sweep.json"))), "sweeps", 1280));
        assertEquals(Map.of("2 B", 21, "4K B", 21, "8M B", 21), got.get("percentiles-run1"),
                "the smallest, a middle and the largest size, 21 points each (100 samples)");
        assertEquals(Map.of("series", 20), got.get("percentiles-run1-more (collapsed)"));
        assertTrue(got.containsKey("bandwidth-scaled"));
        assertTrue(got.keySet().stream().noneMatch(k -> k.startsWith("timeseries-2-")),
                "no time series of the rxe sweep: " + got.keySet());
    }

    @Test
    void theComparePageLoadsCleanlyWithBothSidesOnOnePlot() throws Exception {
        List<RunDocument> a = ReportFixtures.readAll("bw_sweep_ib.json", "bw_sweep_ib_2.json");
        List<RunDocument> b = ReportFixtures.readAll("bw_sweep_roce.json", "bw_sweep_roce_2.json");
        String html = ComparePage.render(Comparison.compare(a, b, Set.of()), a, b);
        Map<String, Map<String, Integer>> got = drawn(probe(html, "compare", 1280));
        Map<String, Integer> sides = new LinkedHashMap<>();
        for (String s : List.of("A: bw_sweep_ib", "A: bw_sweep_ib_2", "B: bw_sweep_roce", "B: bw_sweep_roce_2")) {
            sides.put(s, ReportFixtures.SWEEP_ROWS);
        }
        assertEquals(sides, got.get("bandwidth"));
        assertEquals(sides, got.get("msgrate"));
    }

    @Test
    void screenshotsOfAReportFromTheFixtures() throws Exception {
        Path page = Files.writeString(OUT.resolve("report.html"), ReportPage.render(null, ReportFixtures.readAll(
                "bw_sweep_ib.json", "bw_sweep_roce.json", "send_lat_ib.json", "send_lat_roce.json")));
        for (int[] size : new int[][] {{1280, 2400}, {390, 2400}}) {
            Path png = OUT.resolve(size[0] > 1000 ? "report.png" : "report-phone.png");
            Files.deleteIfExists(png);
            HeadlessChromium.Output o = chromium.screenshot(page, png, size[0], size[1]);
            assertEquals(List.of(), o.consoleLines());
            ByteBuffer head = ByteBuffer.wrap(Files.readAllBytes(png), 0, 24);
            assertEquals(0x89504e470d0a1a0aL, head.getLong(0), "a PNG");
            assertEquals(size[0], head.getInt(16));
            assertEquals(size[1], head.getInt(20));
        }
    }

    /** Loads the page with the probe in Chromium; returns the probe's JSON, after checking the console. */
    private static Map<?, ?> probe(String html, String name, int width) throws Exception {
        String policy = "content=\"" + HtmlPage.CSP + "\">";
        assertTrue(html.contains(policy));
        // The probe needs scripts; everything else stays forbidden, so a fetch by the page is still blocked and logged.
        String probed = html.replace(policy, "content=\"" + HtmlPage.CSP + "; script-src 'unsafe-inline'\">\n"
                + PROBE.strip());
        Path page = Files.writeString(OUT.resolve(name + ".probe.html"), probed);
        HeadlessChromium.Output o = chromium.dumpDom(page, name, width, 900);
        Files.writeString(OUT.resolve(name + ".dom.html"), o.stdout());
        assertEquals(List.of(), o.consoleLines(), "console messages of " + name);
        int start = o.stdout().indexOf("<pre id=\"probe\">");
        assertTrue(start >= 0, "the probe ran after load: " + OUT.resolve(name + ".dom.html"));
        String json = o.stdout().substring(start + 16, o.stdout().indexOf("</pre>", start));
        Map<?, ?> probe = (Map<?, ?>) JsonReader.parse(PlotsInHtml.unescape(json));
        assertEquals(List.of(), probe.get("errors"));
        return probe;
    }

    /** Plot id → series → points, checking on the way that each series drew its points, its line and a legend. */
    private static Map<String, Map<String, Integer>> drawn(Map<?, ?> probe) {
        Map<String, Map<String, Integer>> got = new LinkedHashMap<>();
        double width = (Double) probe.get("viewport");
        for (Object o : (List<?>) probe.get("plots")) {
            Map<?, ?> plot = (Map<?, ?>) o;
            String id = (String) plot.get("id");
            if (Boolean.TRUE.equals(plot.get("collapsed"))) {
                // inside a closed <details>: not laid out until opened
                assertEquals(Boolean.FALSE, plot.get("visible"), id + " is hidden until asked for");
                got.put(id + " (collapsed)", Map.of("series", ((List<?>) plot.get("series")).size()));
                continue;
            }
            double w = (Double) plot.get("width");
            assertEquals(Boolean.TRUE, plot.get("visible"), id + " is shown");
            assertTrue(w > 200 && w <= width, id + " is " + w + " px wide in a " + width + " px viewport");
            assertTrue((Double) plot.get("height") > 100, id + " height");
            Map<String, Integer> series = new LinkedHashMap<>();
            for (Object so : (List<?>) plot.get("series")) {
                Map<?, ?> s = (Map<?, ?>) so;
                int points = ((Double) s.get("points")).intValue();
                assertEquals(points, ((Double) s.get("circles")).intValue(), id + " " + s.get("label"));
                assertTrue(points < 2 || (Double) s.get("lineWidth") > 0, id + " " + s.get("label") + " line drawn");
                assertEquals(Boolean.TRUE, s.get("legend"), id + " " + s.get("label") + " in the legend");
                series.put((String) s.get("label"), points);
            }
            got.put(id, series);
        }
        return got;
    }
}
