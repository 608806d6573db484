/**
 * perftest 4.5's control protocol, which lets a C peer talk to us and us to it: the messages of its TCP exchange
 * ({@link io.rdmaffm.perftest.exchange.PerftestExchange}: version, MTU, keys as {@code PingPongDest}, the
 * bandwidth report, barriers), the same messages over an rdma_cm QP for {@code -R}
 * ({@link io.rdmaffm.perftest.exchange.RdmaCmControlChannel}), the order in which each tool and role sends them
 * ({@link io.rdmaffm.perftest.exchange.HandshakeScript}, a list of {@link io.rdmaffm.perftest.exchange.Step}s),
 * and {@link io.rdmaffm.perftest.exchange.ScriptRunner}, which carries out the wire steps and hands the local ones
 * to a participant. Every wait is bounded ({@link io.rdmaffm.perftest.exchange.ExchangeTimeouts}); a peer's bytes
 * are untrusted and reach output only through {@link io.rdmaffm.perftest.exchange.Untrusted}.
 *
 * <p>May import: {@code vocab}, and verbs-ffm's exported API for the rdma_cm channel. Never {@code engine},
 * {@code report}, {@code run} or {@code cli}: the protocol knows no loop and prints nothing; the engine and the
 * reporter meet it only in {@code run}.
 *
 * <p>Start from {@link io.rdmaffm.perftest.exchange.HandshakeScript#of} and its host test
 * {@code HandshakeScriptCaptureTest}, which replays the bytes C perftest really sent (captured in
 * {@code src/test/resources/captures/}, through {@code ReplayChannel}) against our script for every tool and role.
 * A protocol change needs that test to pass, and {@code ExchangeFuzzTest} (10,000 hostile sessions: each ends with one
 * clear line, never a hang); interop with C on rxe is the rdma tests' of {@code io.rdmaffm.perftest.interop}.
 */
package io.rdmaffm.perftest.exchange;
