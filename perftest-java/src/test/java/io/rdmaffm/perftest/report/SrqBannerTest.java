package io.rdmaffm.perftest.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.perftest.exchange.Capture;
import io.rdmaffm.perftest.vocab.Role;
import io.rdmaffm.perftest.vocab.Tool;
import org.junit.jupiter.api.Test;

/**
 * {@code --use-srq}'s banner: "Using SRQ : ON" on both sides, the client's too (it has no SRQ: perftest creates one
 * only where it receives), as C's captured ib_send_bw --use-srq printed it, character for character.
 */
class SrqBannerTest {

    @Test
    void theServersBannerIsCs() {
        String captured = Capture.resource("send_bw_srq.server.out");
        BannerInfo info = BannerInfo.builder(Tool.SEND_BW, Role.SERVER).device("rxe0").numQps(1).useSrq(true)
                .connectionType("RC").pcieRelaxOrder("ON").wrApi(false).cqModeration(1).rxDepth(200).mtuBytes(1024)
                .linkType("Ethernet").gidIndex(1).maxInline(0).outstandingReads(128).build();
        String expected = PerftestFormat.preamble(Tool.SEND_BW, Role.SERVER) + PerftestFormat.banner(info);
        assertEquals(captured.substring(0, captured.indexOf(" local address")), expected);
    }

    @Test
    void theClientSaysOnToo() {
        String captured = Capture.resource("send_bw_srq.client.out");
        assertTrue(captured.contains(" Connection type : RC\t\tUsing SRQ      : ON\n"), captured);
        BannerInfo info = BannerInfo.builder(Tool.SEND_BW, Role.CLIENT).device("rxe0").numQps(1).useSrq(true)
                .connectionType("RC").build();
        assertTrue(PerftestFormat.banner(info).contains(" Connection type : RC\t\tUsing SRQ      : ON\n"));
    }
}
