/**
 * One run of a perftest tool, start to end ({@link io.rdmaffm.perftest.run.ToolRun#execute}): listen or connect
 * (the server listens before anything else), open the device, plan, warm up, then the tool's handshake script,
 * with the engine doing the local steps and the reporter printing what they hand back
 * ({@link io.rdmaffm.perftest.run.ToolParticipant}). Also the progress line on a terminal
 * ({@link io.rdmaffm.perftest.run.RunProgress}) and the side-by-side benchmark's start gate
 * ({@link io.rdmaffm.perftest.run.StartGate}).
 *
 * <p>May import: {@code exchange}, {@code engine}, {@code report}, {@code params}, {@code jvm}, {@code vocab} and
 * verbs-ffm's exported API. The only package that knows exchange, engine and report together; it is imported by
 * {@code cli} (the tool commands) and {@code validate} (its loopback pair), and by nothing below it.
 *
 * <p>Start from {@link io.rdmaffm.perftest.run.ToolRun#execute} and {@link io.rdmaffm.perftest.run.ToolParticipant}:
 * the whole order of a run is there. Its host tests are {@code RunProgressTest} and {@code StartGateTest}; a run
 * itself needs a device, so a change here is tested by the rdma tests of {@code io.rdmaffm.perftest.interop}
 * (Java against C both ways, e.g. {@code InteropRdmaTest}, and {@code QuietWindowRdmaTest}).
 */
package io.rdmaffm.perftest.run;
