/**
 * {@code rdma-perftest matrix}: every pair of hosts (per NIC rail) measured with the same perftest tool on
 * both ends, launched by ssh or srun, never by a daemon of ours.
 *
 * <p>The pieces, each testable without a device or a network:
 * <ul>
 * <li>host input ({@link io.rdmaffm.perftest.cluster.HostInput}, {@link io.rdmaffm.perftest.cluster.SlurmHostlist},
 *     {@link io.rdmaffm.perftest.cluster.Names}) and the pure schedule
 *     ({@link io.rdmaffm.perftest.cluster.Schedule}) planned by {@link io.rdmaffm.perftest.cluster.MatrixPlanner};</li>
 * <li>launchers that only build command lines ({@link io.rdmaffm.perftest.cluster.SshLauncher},
 *     {@link io.rdmaffm.perftest.cluster.SrunLauncher}, the remote script in
 *     {@link io.rdmaffm.perftest.cluster.RemoteScript}) and a {@link io.rdmaffm.perftest.cluster.ProcessRunner}
 *     that tests replace with a scripted fake;</li>
 * <li>the run loop ({@link io.rdmaffm.perftest.cluster.MatrixRun}, one pair in
 *     {@code PairRunner}), results ({@link io.rdmaffm.perftest.cluster.ToolOutput}),
 *     the pure outlier rules ({@link io.rdmaffm.perftest.cluster.OutlierRules}) and roll-up
 *     ({@link io.rdmaffm.perftest.cluster.HostRollup});</li>
 * <li>renderers: text and CSV ({@link io.rdmaffm.perftest.cluster.MatrixReport}) and the JSON document
 *     ({@link io.rdmaffm.perftest.cluster.MatrixJson}, the only class that knows a JSON library).</li>
 * </ul>
 *
 * <p>Entry: {@code MatrixPlan plan = MatrixPlanner.plan(options, runner)}, print {@code plan.summary()}, then
 * {@code MatrixOutcome out = new MatrixRun(plan, launcher, runner, sink, progress).run()} and exit with
 * {@code out.exitCode()}.
 */
package io.rdmaffm.perftest.cluster;
