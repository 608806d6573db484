/**
 * What a run prints and writes, from the values the engine hands back: perftest 4.5's text output byte for byte
 * ({@link io.rdmaffm.perftest.report.PerftestFormat}, with glibc's rounding in
 * {@link io.rdmaffm.perftest.report.CFormat}), driven for one side of a run by
 * {@link io.rdmaffm.perftest.report.RunReporter}; the run document of {@code --out_json}
 * ({@link io.rdmaffm.perftest.report.JsonReport}, schema {@code rdma-ffm.run/1}, docs/run-json.md) with the host,
 * device and JVM provenance; the latency distribution of {@code --hgrm}
 * ({@link io.rdmaffm.perftest.report.HgrmWriter}); and a parser of perftest's own output
 * ({@link io.rdmaffm.perftest.report.PerftestOutputParser}, C's or ours; the matrix reads its cells with it).
 * Below it, {@code report.model}
 * reads run documents back, {@code report.html} draws the HTML report's plots as SVG, and {@code report.compare}
 * sets two sets of runs side by side ({@code rdma-perftest report} and {@code compare}).
 *
 * <p>May import: {@code vocab}, {@code json}, {@code jvm} (the measured window's activity), the peer's
 * {@code PingPongDest} from {@code exchange} (its address lines), {@code doctor} and verbs-ffm's
 * {@code io.rdmaffm.verbs.topology} for the device's provenance. Never {@code engine} or {@code run}: the report
 * gets values, not loops; nor verbs-ffm's device API: nothing here opens a device.
 *
 * <p>Start from {@link io.rdmaffm.perftest.report.PerftestFormat} and its host test {@code CaptureOutputTest},
 * which re-creates every captured C output from its values and compares it character for character; a new line of
 * output needs that, and a change to the run document {@code JsonReportTest} and
 * {@code RunDocumentRoundTripTest} (what is written reads back). A new plot: see docs/contributing.md.
 */
package io.rdmaffm.perftest.report;
