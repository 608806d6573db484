package io.rdmaffm.perftest.exchange;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.perftest.vocab.BwReport;
import io.rdmaffm.perftest.vocab.Role;
import io.rdmaffm.perftest.vocab.Tool;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * Replays each captured C run against our script for the same tool and role: every message we write must be
 * byte-identical to what C wrote, in the same order, and the whole transcript must be consumed.
 */
class HandshakeScriptCaptureTest {

    static Stream<Arguments> runs() {
        List<Arguments> out = new ArrayList<>();
        Object[][] runs = {
            {"write_bw", Tool.WRITE_BW, 1}, {"write_bw_json", Tool.WRITE_BW, 1}, {"write_bw_q2", Tool.WRITE_BW, 2},
            {"read_bw", Tool.READ_BW, 1}, {"atomic_bw", Tool.ATOMIC_BW, 1}, {"send_bw", Tool.SEND_BW, 1},
            {"send_lat", Tool.SEND_LAT, 1}, {"send_lat_ud", Tool.SEND_LAT, 1}, {"write_lat", Tool.WRITE_LAT, 1},
            {"read_lat", Tool.READ_LAT, 1}, {"atomic_lat", Tool.ATOMIC_LAT, 1},
        };
        for (Object[] r : runs) {
            for (Role role : Role.values()) {
                out.add(Arguments.of(r[0], r[1], r[2], role));
            }
        }
        return out.stream();
    }

    /**
     * The per-size part runs as many times as the participant says after the prologue (the MTU exchange), not the
     * count planned before it: planned 3, agreed 1, and the replay of C's one-size run matches message for message.
     */
    @Test
    void sizeCountIsAskedAfterTheMtuExchange() throws Exception {
        Capture cap = Capture.load("send_bw");
        List<Capture.Io> view = cap.view(Role.CLIENT);
        ReplayChannel ch = new ReplayChannel(Role.CLIENT, view, p -> false);
        byte[][] reportFields = Capture.sentReportFields(view);
        Recorder rec = new Recorder(Capture.sentKeys(view, 1), reportFields.length == 5
                ? BwReportMessage.decode(reportFields) : new BwReport(0, 0, 0, 0, 0));
        rec.agreedSizes = 1;
        ScriptRunner.run(HandshakeScript.of(Tool.SEND_BW, Role.CLIENT, false, false),
                new PerftestExchange(ch, ExchangeTimeouts.defaults(), true), 3, rec);
        ch.assertFinished();
        assertEquals(1, rec.performed.stream().filter(s -> s == Step.RUN).count(), "one size ran");
    }

    @ParameterizedTest(name = "{0} {3}")
    @MethodSource("runs")
    void ourScriptWritesWhatCWrote(String name, Tool tool, int qps, Role role) throws Exception {
        Capture cap = Capture.load(name);
        List<Capture.Io> view = cap.view(role);
        PingPongDest[] mine = Capture.sentKeys(view, qps);
        PingPongDest[] theirs = Capture.receivedKeys(view, qps);
        byte[][] reportFields = Capture.sentReportFields(view);
        boolean uniDirServer = role == Role.SERVER && tool.bandwidth() && tool != Tool.SEND_BW;
        // The server's report answers are C garbage: compare only their length.
        ReplayChannel ch = new ReplayChannel(role, view,
                p -> uniDirServer && view.get(p).bytes().length == 8);
        Recorder rec = new Recorder(mine, reportFields.length == 5 && !uniDirServer
                ? BwReportMessage.decode(reportFields) : new BwReport(0, 0, 0, 0, 0));
        rec.wirePosition = ch::position;
        HandshakeScript script = HandshakeScript.of(tool, role, false, false);
        ScriptRunner.run(script, new PerftestExchange(ch, ExchangeTimeouts.defaults(), true), 1, rec);
        ch.assertFinished();
        // The benchmark's start gate holds just before the last barrier before the loop: one write and one read
        // (the key handshake used as a barrier) lie between it and the measured loop, as C does them. A side that
        // runs no loop (the uni-directional BW server) has no gate.
        boolean loops = rec.performed.contains(Step.RUN);
        assertEquals(loops ? 1 : 0, rec.gates, "start-gate hooks");
        if (loops) {
            assertEquals(rec.gatePosition + 2, rec.runPosition, "wire I/O between the start gate and the loop");
        }

        assertEquals(new SysData(4096, 64), rec.sysData);
        assertEquals(3, rec.mtu);
        assertArrayEquals(theirs, rec.remote.get(0));
        if (uniDirServer) {
            assertEquals(1, rec.peerReports.size());
            // What the client sent is what the server prints: check against the client's text.
            BwReport client = rec.peerReports.get(0);
            String out = Capture.resource(name + ".server.out");
            assertTrue(out.contains(" " + client.size() + " "), out);
        }
        // Local steps are delegated in the order perftest does them.
        List<Step> local = script.expand(1).stream().filter(s -> !s.wire()).toList();
        assertEquals(local, rec.performed);
    }

    @Test
    void startGateSitsBeforeTheLastBarrierBeforeTheFirstLoop() {
        for (Tool tool : Tool.values()) {
            for (Role role : Role.values()) {
                for (boolean all : new boolean[] {false, true}) {
                    for (boolean bidi : tool.bandwidth() ? new boolean[] {false, true} : new boolean[] {false}) {
                        for (boolean cm : new boolean[] {false, true}) {
                            HandshakeScript script = HandshakeScript.of(tool, role, all, bidi, cm);
                            List<Step> steps = new ArrayList<>(script.prologue());
                            steps.addAll(script.perSize());
                            int gate = ScriptRunner.firstRunBarrier(script);
                            int run = steps.indexOf(Step.RUN);
                            String what = tool + " " + role + " -a " + all + " -b " + bidi + " -R " + cm;
                            if (run < 0) {
                                assertEquals(-1, gate, what + ": no loop, no gate");
                                continue;
                            }
                            assertTrue(gate >= 0 && gate < run, what + ": gate " + gate + ", run " + run);
                            assertEquals(Step.SYNC, steps.get(gate), what);
                            assertFalse(steps.subList(gate + 1, run).stream().anyMatch(Step::wire), what);
                        }
                    }
                }
            }
        }
    }

    @Test
    void wireSequencesDifferWhereCaptureSaysSo() {
        // write_lat has no closing handshake and no "done"; read_lat's server goes straight to the close.
        assertFalse(HandshakeScript.of(Tool.WRITE_LAT, Role.CLIENT, false, false).wireSteps(1).contains(Step.CLOSE));
        assertEquals(List.of(Step.VERSION, Step.SYS_DATA, Step.MTU, Step.SYNC, Step.KEYS, Step.KEYS, Step.SYNC,
                Step.CLOSE_AFTER_PEER_RUN), HandshakeScript.of(Tool.READ_LAT, Role.SERVER, false, false).wireSteps(1));
        // -a: write_bw has no per-size barrier; send_lat has one per size.
        long writeSyncs = HandshakeScript.of(Tool.WRITE_BW, Role.CLIENT, true, false).wireSteps(23).stream()
                .filter(s -> s == Step.SYNC).count();
        long sendSyncs = HandshakeScript.of(Tool.SEND_LAT, Role.CLIENT, true, false).wireSteps(23).stream()
                .filter(s -> s == Step.SYNC).count();
        assertEquals(2, writeSyncs);
        assertEquals(1 + 23, sendSyncs);
    }

    @Test
    void runsWhereBothSidesLoopEndWithoutMessagesAfterTheLoop() {
        // send_bw.c's RUN_INFINITELY branch: post, hand-shake, loop; write/read -b: loop at once; then only the
        // closing result line (perftest's loops never return: the connection's close is the end).
        List<Step> send = List.of(Step.VERSION, Step.SYS_DATA, Step.MTU, Step.KEYS, Step.SYNC, Step.KEYS, Step.SYNC);
        List<Step> bidi = List.of(Step.VERSION, Step.SYS_DATA, Step.MTU, Step.KEYS, Step.KEYS, Step.SYNC);
        for (Role r : Role.values()) {
            HandshakeScript sendBw = HandshakeScript.of(Tool.SEND_BW, r, false, false, false, true);
            assertEquals(send, sendBw.wireSteps(1), r.name());
            assertEquals(List.of(Step.PREPARE, Step.SYNC, Step.RUN, Step.PRINT_ROW), sendBw.perSize());
            assertEquals(List.of(Step.FOOTER), sendBw.epilogue());
            for (Tool t : new Tool[] {Tool.WRITE_BW, Tool.READ_BW}) {
                HandshakeScript b = HandshakeScript.of(t, r, false, true, false, true);
                assertEquals(bidi, b.wireSteps(1), t + " " + r);
                assertEquals(List.of(Step.RUN, Step.PRINT_ROW), b.perSize());
                assertEquals(List.of(Step.FOOTER), b.epilogue());
            }
        }
    }

    @Test
    void bothRolesOfEveryScriptMirrorEachOther() {
        for (Tool tool : Tool.values()) {
            for (boolean all : new boolean[] {false, true}) {
                for (boolean bidi : tool.bandwidth() ? new boolean[] {false, true} : new boolean[] {false}) {
                    List<Step> c = HandshakeScript.of(tool, Role.CLIENT, all, bidi).wireSteps(3);
                    List<Step> s = HandshakeScript.of(tool, Role.SERVER, all, bidi).wireSteps(3);
                    assertEquals(normalise(c), normalise(s), tool + " all=" + all + " bidi=" + bidi);
                }
            }
        }
    }

    @Test
    void rdmaCmConnectsTheTestQpsBetweenTwoBarriersBeforeSetup() {
        // create_rdma_cm_connection: handshake, rdma_cm connect, handshake; then set_up_connection.
        for (Tool tool : Tool.values()) {
            for (Role role : Role.values()) {
                List<Step> tcp = HandshakeScript.of(tool, role, false, false).expand(1);
                List<Step> cm = HandshakeScript.of(tool, role, false, false, true).expand(1);
                List<Step> expected = new ArrayList<>(tcp);
                expected.addAll(tcp.indexOf(Step.SETUP),
                        List.of(Step.CM_LISTEN, Step.CM_BARRIER, Step.CM_CONNECT, Step.CM_BARRIER));
                assertEquals(expected, cm, tool + " " + role);
                assertEquals(normalise(HandshakeScript.of(tool, Role.CLIENT, false, false, true).wireSteps(1)),
                        normalise(HandshakeScript.of(tool, Role.SERVER, false, false, true).wireSteps(1)), tool.name());
            }
        }
    }

    @Test
    void rdmaCmChannelSendsBinaryKeysAndNoDone() throws Exception {
        // Over rdma_cm a handshake is one 56-byte struct each way, and the close sends nothing after it.
        List<byte[]> sent = new ArrayList<>();
        PingPongDest peer = new PingPongDest(0, 1, 0x2c, 0x36b07e, 0x1234, 0x7fc11c3b6000L, new byte[16], 0);
        ExchangeChannel ch = new ExchangeChannel() {
            @Override public Role role() { return Role.CLIENT; }
            @Override public boolean binaryKeys() { return true; }
            @Override public byte[] exchange(byte[] mine, int peerLength, String phase, java.time.Duration t) {
                sent.add(mine);
                assertEquals(BinaryKeyMessage.SIZE, peerLength, phase);
                return BinaryKeyMessage.encode(peer, 1);
            }
            @Override public void sendAndForget(byte[] bytes) { sent.add(bytes); }
            @Override public void close() { }
        };
        PerftestExchange ex = new PerftestExchange(ch, ExchangeTimeouts.defaults(), true);
        ex.binaryKeyGidIndex(3);
        PingPongDest mine = new PingPongDest(0, 1, 0x2b, 0x28be32, 0x9f5, 0x56536ba6f000L, new byte[16], 0);
        ex.rdmaCmBarrier("barrier");
        assertEquals(peer, ex.exchangeKeys(new PingPongDest[] {mine})[0]);
        ex.closeHandshake(mine, false);
        assertEquals(3, sent.size(), "barrier, key, close handshake; no \"done\"");
        assertArrayEquals(new byte[BinaryKeyMessage.SIZE], sent.get(0), "barrier carries an all-zero struct");
        assertEquals(3, java.nio.ByteBuffer.wrap(sent.get(1)).getInt(52), "gid_index at offset 52");
        assertEquals(mine, BinaryKeyMessage.decode(sent.get(1)));
    }

    @Test
    void bidirectionalOnlyForBandwidth() {
        assertThrows(IllegalArgumentException.class, () -> HandshakeScript.of(Tool.SEND_LAT, Role.CLIENT, false, true));
    }

    private static List<Step> normalise(List<Step> steps) {
        return steps.stream().map(s -> switch (s) {
            case SYNC_AFTER_PEER_RUN -> Step.SYNC;
            case CLOSE_AFTER_PEER_RUN -> Step.CLOSE;
            default -> s;
        }).toList();
    }

    static class Recorder implements ScriptRunner.Participant {
        final PingPongDest[] mine;
        final BwReport report;
        SysData sysData;
        int mtu;
        final List<PingPongDest[]> remote = new ArrayList<>();
        final List<BwReport> peerReports = new ArrayList<>();
        final List<Step> performed = new ArrayList<>();
        java.util.function.IntSupplier wirePosition = () -> 0;
        int gates;
        int gatePosition = -1;
        int runPosition = -1;

        Recorder(PingPongDest[] mine, BwReport report) {
            this.mine = mine;
            this.report = report;
        }

        /** What {@link #sizeCount} answers (-1: the planned count), as the MTU agreement may shorten -a. */
        int agreedSizes = -1;

        @Override public int sizeCount(int planned) { return agreedSizes < 0 ? planned : agreedSizes; }
        @Override public SysData localSysData() { return new SysData(4096, 64); }
        @Override public int localMtu() { return 3; }
        @Override public void negotiatedSysData(SysData s) { sysData = s; }
        @Override public void negotiatedMtu(int m) { mtu = m; }
        @Override public PingPongDest[] localDestinations() { return mine; }
        @Override public void remoteDestinations(PingPongDest[] r) { remote.add(r); }
        @Override public BwReport localReport(int sizeIndex) { return report; }
        @Override public void peerReport(BwReport peer, int sizeIndex) { peerReports.add(peer); }
        @Override public void beforeFirstRunBarrier() {
            gates++;
            gatePosition = wirePosition.getAsInt();
        }

        @Override public void perform(Step step, int sizeIndex) {
            performed.add(step);
            if (step == Step.RUN && runPosition < 0) {
                runPosition = wirePosition.getAsInt();
            }
        }
    }
}
