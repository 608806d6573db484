package io.rdmaffm.perftest.report;

import io.rdmaffm.perftest.exchange.Capture;
import io.rdmaffm.perftest.vocab.Role;
import io.rdmaffm.perftest.vocab.Tool;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code -T}: the banner's exchange line names the type of service as C perftest 4.5 prints it. */
class BannerTosTest {

    private static BannerInfo.Builder rdmaCm() {
        return BannerInfo.builder(Tool.WRITE_BW, Role.CLIENT).device("rxe0").numQps(1).connectionType("RC")
                .pcieRelaxOrder("ON").wrApi(false).cqModeration(1).txDepth(128).rxDepth(512).mtuBytes(1024).linkType("Ethernet")
                .gidIndex(1).maxInline(0).rdmaCmQps(true).rdmaCmExchange(true);
    }

    @Test
    void theTypeOfServiceFollowsTheExchangeMethodAsInC() {
        String captured = Capture.resource("write_bw_R_T_tos.client.out");
        String line = " Data ex. method : rdma_cm \tTOS    : 96\n";
        assertTrue(captured.contains(line), captured);
        String banner = PerftestFormat.banner(rdmaCm().tos(96).build());
        assertTrue(banner.contains(line), banner);
        // C's whole banner, byte for byte (the capture's first lines are C's clock complaint, then the banner)
        int from = captured.indexOf(PerftestFormat.RESULT_LINE);
        assertEquals(captured.substring(from, captured.indexOf(" local address")), banner);
    }

    @Test
    void withoutTosTheLineIsUnchanged() {
        String banner = PerftestFormat.banner(rdmaCm().build());
        assertTrue(banner.contains(" Data ex. method : rdma_cm\n"), banner);
        assertFalse(banner.contains("TOS"), banner);
    }
}
