package io.rdmaffm.perftest.report;

import io.rdmaffm.perftest.exchange.Capture;
import io.rdmaffm.perftest.exchange.PingPongDest;
import io.rdmaffm.perftest.vocab.Role;
import io.rdmaffm.perftest.vocab.Tool;
import io.rdmaffm.perftest.vocab.Verb;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * C perftest 4.5's -g output on rxe (captures/send_bw_mcg.*: ib_send_bw -c UD -g -n 50 -x 0 between two VMs;
 * send_lat_mcg_M.*: ib_send_lat -c UD -g -n 50 -x 0 -M 255:14:0:0:0:2:201:133:0:0:0:0:0:0:0:0), re-created from
 * its values from the banner's first line to the line after the addresses: the "Multicast" title, the "MultiCast
 * runs on UD!" line and which GID lines perftest labels "MGID". Nothing after: these captures were taken before the
 * receiving hosts held an IPv6-level join of the group, so rxe delivered nothing and C printed no row
 * (docs/multicast.md).
 */
class MulticastCaptureTest {
    private static final Pattern ADDRESS = Pattern.compile(
            " (local|remote) address: LID 0x?([0-9a-f]+) QPN 0x([0-9a-f]+) PSN 0x([0-9a-f]+)\n (M?)GID: ([0-9:]+)\n");

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        "send_bw_mcg, SERVER, SEND_BW, 50, 50",
        "send_bw_mcg, CLIENT, SEND_BW, 50, 50",
        "send_lat_mcg_M, SERVER, SEND_LAT, 1, 50",
        "send_lat_mcg_M, CLIENT, SEND_LAT, 1, 50",
    })
    void bannerAndAddressesMatchTheCapture(String name, Role role, Tool tool, int tx, int rx) throws Exception {
        String c = Capture.resource(name + "." + (role == Role.CLIENT ? "client" : "server") + ".out");
        int from = c.indexOf(PerftestFormat.RESULT_LINE);
        int to = from;
        for (int i = 0; i < 3; i++) {
            to = c.indexOf(PerftestFormat.RESULT_LINE, to) + PerftestFormat.RESULT_LINE.length();
        }
        String captured = c.substring(from, to);
        BannerInfo info = BannerInfo.builder(tool, role).device("rxe0").numQps(1).connectionType("UD")
                .pcieRelaxOrder("ON").wrApi(false).txDepth(tx).rxDepth(rx).cqModeration(50).mtuBytes(1024)
                .linkType("Ethernet").gidIndex(0).maxInline(0).rdmaCmQps(false).rdmaCmExchange(false)
                .multicast(true).build();
        StringBuilder expected = new StringBuilder(PerftestFormat.banner(info));
        boolean server = role == Role.SERVER;
        expected.append(PerftestFormat.addresses("local", dests(captured, "local"), Verb.SEND, true, false, server));
        expected.append(PerftestFormat.addresses("remote", dests(captured, "remote"), Verb.SEND, true, false, !server));
        expected.append(PerftestFormat.RESULT_LINE);
        assertEquals(captured, expected.toString());
    }

    /** The values of one side's address lines (the labels are what the test checks, so they are not read). */
    private static PingPongDest[] dests(String text, String side) {
        List<PingPongDest> out = new ArrayList<>();
        Matcher m = ADDRESS.matcher(text);
        while (m.find()) {
            if (m.group(1).equals(side)) {
                String[] parts = m.group(6).split(":");
                byte[] gid = new byte[16];
                for (int i = 0; i < 16; i++) {
                    gid[i] = (byte) Integer.parseInt(parts[i]);
                }
                out.add(new PingPongDest(Integer.parseInt(m.group(2), 16), 0, Integer.parseInt(m.group(3), 16),
                        Integer.parseInt(m.group(4), 16), 0, 0, gid, 0));
            }
        }
        return out.toArray(new PingPongDest[0]);
    }
}
