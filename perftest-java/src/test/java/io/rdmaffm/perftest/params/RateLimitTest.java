package io.rdmaffm.perftest.params;

import static io.rdmaffm.perftest.params.Flag.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.rdmaffm.perftest.vocab.Tool;

import org.junit.jupiter.api.Test;

/** The rate limiter's defaults and perftest's arithmetic (rate_limit_pps, gap_time); the rules' lines are ToolCommandLineTest's. */
class RateLimitTest {
    private static RateLimit of(Tool tool, ToolOptions o) {
        return RateLimit.of(ParameterRules.check(tool, o));
    }

    @Test
    void offWithoutARateAndHwByDefaultWithOne() {
        RateLimit off = of(Tool.WRITE_BW, new ToolOptions());
        assertEquals(RateLimit.Type.OFF, off.type());
        assertEquals(0, off.burstGapNanos(65536));
        RateLimit hw = of(Tool.WRITE_BW, new ToolOptions().with(RATE_LIMIT, "2.5"));
        assertEquals(RateLimit.Type.HW, hw.type());
        assertFalse(hw.typeGiven());
        assertEquals(2, hw.ibvRate(), "IBV_RATE_2_5_GBPS");
        assertEquals(0, hw.burstGapNanos(65536), "HW: the port paces, the loop does not");
    }

    @Test
    void swPacesBurstsOfTheTxDepthUnlessGiven() {
        // 8 Gb/s of 64 KiB messages: 15258.8 messages/s; bursts of 128 (the tx depth): 119.2 per second
        RateLimit sw = of(Tool.WRITE_BW, new ToolOptions().with(RATE_LIMIT, "8").with(RATE_LIMIT_TYPE, "SW"));
        assertEquals(128, sw.burst());
        assertEquals(8e9 / (65536 * 8), sw.messagesPerSecond(65536), 1e-6);
        assertEquals(Math.round(1e9 * 128 / (8e9 / (65536 * 8))), sw.burstGapNanos(65536));
        RateLimit mib = of(Tool.READ_BW, new ToolOptions().with(RATE_LIMIT, "100").with(RATE_UNITS, "M")
                .with(RATE_LIMIT_TYPE, "SW").with(BURST_SIZE, 4));
        assertEquals(4, mib.burst());
        assertEquals(100.0 * 1_048_576 / 4096, mib.messagesPerSecond(4096), 1e-9);
        assertEquals(Math.round(1e9 * 4 / (100.0 * 1_048_576 / 4096)), mib.burstGapNanos(4096));
        RateLimit pps = of(Tool.SEND_BW, new ToolOptions().with(RATE_LIMIT, "1000").with(RATE_UNITS, "p")
                .with(RATE_LIMIT_TYPE, "SW").with(BURST_SIZE, 10));
        assertEquals(10_000_000L, pps.burstGapNanos(2), "1000 messages/s in bursts of 10: one burst per 10 ms");
    }

    @Test
    void theJsonSaysWhatTheRunIsLimitedBy() {
        RunParameters none = ParameterRules.check(Tool.WRITE_BW, new ToolOptions());
        assertEquals(0.0, none.jsonValue(RATE_LIMIT), "no limit");
        assertEquals("off", none.jsonValue(RATE_LIMIT_TYPE));
        assertEquals(0, none.jsonValue(BURST_SIZE));
        RunParameters sw = ParameterRules.check(Tool.WRITE_BW, new ToolOptions().with(RATE_LIMIT, "0.5")
                .with(RATE_UNITS, "g").with(RATE_LIMIT_TYPE, "SW").with(TX_DEPTH, 64));
        assertEquals(0.5, sw.jsonValue(RATE_LIMIT));
        assertEquals("g", sw.jsonValue(RATE_UNITS));
        assertEquals("SW", sw.jsonValue(RATE_LIMIT_TYPE));
        assertEquals(64, sw.jsonValue(BURST_SIZE));
        RunParameters fellBack = ParameterRules.check(Tool.WRITE_BW, new ToolOptions().with(RATE_LIMIT, "10"))
                .withFlag(RATE_LIMIT_TYPE, "SW");
        assertEquals("SW", fellBack.jsonValue(RATE_LIMIT_TYPE), "what the device resolved, not what was implied");
    }
}
