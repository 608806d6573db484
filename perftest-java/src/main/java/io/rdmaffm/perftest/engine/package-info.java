/**
 * The measured side of a perftest run: the verbs resources one side creates, the loops it times and the untimed
 * warm-up before them. Perftest's own loops ({@code run_iter_bw}, {@code run_iter_lat_send}, ...) are
 * {@link io.rdmaffm.perftest.engine.BwLoops} and {@link io.rdmaffm.perftest.engine.LatencyLoops}: allocation-free,
 * inputs in a {@link io.rdmaffm.perftest.engine.BwSpec} or {@link io.rdmaffm.perftest.engine.LatencySpec}
 * (derived once by {@link io.rdmaffm.perftest.engine.LoopSpecs}), every post, poll and clock read through a
 * {@link io.rdmaffm.perftest.engine.DataPath}, counts and timestamps into a
 * {@link io.rdmaffm.perftest.engine.Measurement}. {@link io.rdmaffm.perftest.engine.VerbsSide} is the one real
 * {@code DataPath}, so the JIT inlines it; {@link io.rdmaffm.perftest.engine.Warmup} runs the same loops on a QP
 * connected to itself until the JIT has nothing left to compile. {@link io.rdmaffm.perftest.engine.PerftestEngine}
 * does the steps the handshake script leaves to this side and hands back plain values
 * ({@link io.rdmaffm.perftest.engine.RunResult}); it never prints.
 *
 * <p>May import: verbs-ffm's exported API ({@code io.rdmaffm.verbs}, {@code io.rdmaffm.verbs.cm}), and of
 * perftest-java only {@code params} (the run's parameters and plan), {@code vocab}, {@code jvm} (the measured
 * window's recorder and the JIT counters) and the plain values of {@code exchange} (the peer's
 * {@code PingPongDest} and {@code SysData}). Never {@code report}, {@code run} or {@code cli}: what a loop measured
 * leaves as values, and the caller prints them. Loop code is a hot path: no allocation, boxing, streams or
 * capturing lambdas.
 *
 * <p>Start from {@link io.rdmaffm.perftest.engine.LatencyLoops} and its host test {@code LatencyLoopsTest}, which
 * drives the loops through {@code FakeDataPath} (no device) and checks their accounting; {@code BwLoopsTest} does
 * the same for bandwidth. A loop change needs such a test, and the rdma test {@code QuietWindowRdmaTest} keeps the
 * measured window free of compilation.
 */
package io.rdmaffm.perftest.engine;
