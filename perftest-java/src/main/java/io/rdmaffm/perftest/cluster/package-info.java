/**
 * {@code rdma-perftest matrix}: every pair of hosts (per NIC rail) measured with the same perftest tool on
 * both ends, launched by ssh or srun, never by a daemon of ours.
 *
 * <p><b>What lives here.</b> One pipeline, each stage an immutable value made once from the one before:
 * <ol>
 * <li>{@link io.rdmaffm.perftest.cluster.MatrixRequest}: the options, frozen after parsing (the CLI fills its
 *     {@code Builder});</li>
 * <li>{@link io.rdmaffm.perftest.cluster.HostInput.Hosts}: the hosts, read once by
 *     {@link io.rdmaffm.perftest.cluster.MatrixPlanner#hosts} from {@code --hosts}, a hostfile or Slurm (bracket
 *     ranges by {@link io.rdmaffm.perftest.cluster.SlurmHostlist}, names checked by
 *     {@link io.rdmaffm.perftest.cluster.Names});</li>
 * <li>{@link io.rdmaffm.perftest.cluster.DiscoveredHosts}: what each host said about its devices
 *     ({@link io.rdmaffm.perftest.cluster.HostDiscovery}), or not asked;</li>
 * <li>{@link io.rdmaffm.perftest.cluster.MatrixPlan}: devices per host and the pure
 *     {@link io.rdmaffm.perftest.cluster.Schedule}'s rounds, from
 *     {@link io.rdmaffm.perftest.cluster.MatrixPlanner#plan(MatrixRequest, DiscoveredHosts)};</li>
 * <li>runs: {@link io.rdmaffm.perftest.cluster.MatrixRun} (one rail test in {@code PairRunner}) gives each
 *     {@link io.rdmaffm.perftest.cluster.Attempt}, through launchers that only build command lines
 *     ({@link io.rdmaffm.perftest.cluster.SshLauncher}, {@link io.rdmaffm.perftest.cluster.SrunLauncher},
 *     {@link io.rdmaffm.perftest.cluster.RemoteScript}) and a {@link io.rdmaffm.perftest.cluster.ProcessRunner}
 *     that tests replace with a scripted fake;</li>
 * <li>verdicts: {@link io.rdmaffm.perftest.cluster.Verdicts} (the pure
 *     {@link io.rdmaffm.perftest.cluster.OutlierRules} and {@link io.rdmaffm.perftest.cluster.HostRollup}) make
 *     the {@link io.rdmaffm.perftest.cluster.MatrixOutcome};</li>
 * <li>sinks: {@link io.rdmaffm.perftest.cluster.MatrixSink} takes each attempt as it finishes and the outcome
 *     at the end; {@link io.rdmaffm.perftest.cluster.FileSink} writes the JSON
 *     ({@link io.rdmaffm.perftest.cluster.MatrixJson}, streamed through the project's JSON writer) and the CSV,
 *     {@link io.rdmaffm.perftest.cluster.MatrixReport} the text.</li>
 * </ol>
 * Data flows one way: no stage writes to an earlier one, and nothing is worked out twice (Slurm's host list is
 * expanded once). New ways to measure the hosts (the fabric patterns: incast, all-to-all, all-reduce across all
 * hosts at once) are new plans and verdicts on this pipeline, not a second one.
 *
 * <p><b>What it may import.</b> The JDK; {@code io.rdmaffm.perftest.json} (writing),
 * {@code io.rdmaffm.perftest.doctor.Json} (reading the tools' and doctor's documents, in {@code MatrixJson} and
 * {@code DoctorNics} only) and {@code io.rdmaffm.perftest.report.PerftestOutputParser} (C perftest's text, in
 * {@code ToolOutput} only) and {@code io.rdmaffm.perftest.report.Exposition} (the Prometheus writer shared with
 * {@code health}, in {@code MatrixPrometheus} only). Not picocli (the CLI in {@code io.rdmaffm.perftest.cli.MatrixCommand} turns options
 * into a request), not verbs-ffm: the matrix measures through the tools it launches, never a device of its own.
 *
 * <p><b>Start from</b> {@code cli/MatrixCommand#call}, which walks the stages in order; in a test,
 * {@code MatrixRunTest.wholeMatrixWithEveryKindOfFault}: a request, {@code MatrixPlanner.plan(request, runner)}
 * (hosts not asked), then {@code new MatrixRun(plan, launcher, runner, sink, progress).run()} and
 * {@code outcome.exitCode()}.
 */
package io.rdmaffm.perftest.cluster;
