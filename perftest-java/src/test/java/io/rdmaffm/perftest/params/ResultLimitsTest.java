package io.rdmaffm.perftest.params;

import static io.rdmaffm.perftest.params.Flag.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rdmaffm.perftest.vocab.BwReport;
import io.rdmaffm.perftest.vocab.Tool;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code -w/--limit_bw} and {@code -y/--limit_msgrate}: perftest's verifier of the printed rows. */
class ResultLimitsTest {
    private static final List<BwReport> ROWS = List.of(new BwReport(2, 1000, 0, 1.5, 0.8),
            new BwReport(65536, 1000, 0, 900.0, 0.014));

    @Test
    void aLimitNoRowReachesFailsWithPerftestsLine() {
        assertEquals("Error: BW result is below bw limit", verdict(new ToolOptions().with(LIMIT_BW, "900.5")));
        assertEquals("Error: Msg rate  is below msg_rate limit",
                verdict(new ToolOptions().with(LIMIT_MSGRATE, "0.81")));
        assertEquals("Error: BW result is below bw limit",
                verdict(new ToolOptions().with(LIMIT_BW, "1000").with(LIMIT_MSGRATE, "5")));
    }

    @Test
    void oneRowThatReachesItIsEnoughAsInPerftest() {
        assertNull(verdict(new ToolOptions().with(LIMIT_BW, "900")));
        assertNull(verdict(new ToolOptions().with(LIMIT_MSGRATE, "0.8")));
        assertNull(verdict(new ToolOptions().with(LIMIT_BW, "0").with(LIMIT_MSGRATE, "0.5")));
        assertNull(verdict(new ToolOptions()));
        assertNull(ResultLimits.verdict(ParameterRules.check(Tool.WRITE_BW, new ToolOptions()), List.of()));
        assertEquals("Error: BW result is below bw limit", ResultLimits.verdict(ParameterRules.check(Tool.WRITE_BW,
                new ToolOptions().with(LIMIT_BW, "1")), List.of())); // nothing measured is never a pass
    }

    @Test
    void badLimitsAreRefusedBeforeTheRun() {
        assertEquals("Invalid Minimum BW Limit", assertThrows(InvalidParameterException.class,
                () -> ParameterRules.check(Tool.WRITE_BW, new ToolOptions().with(LIMIT_BW, "-1"))).getMessage());
        assertEquals("Invalid Minimum msgRate Limit", assertThrows(InvalidParameterException.class,
                () -> ParameterRules.check(Tool.SEND_BW, new ToolOptions().with(LIMIT_MSGRATE, "-0.5"))).getMessage());
        assertEquals("Invalid Minimum BW Limit: 'fast' is not a number", assertThrows(InvalidParameterException.class,
                () -> ParameterRules.check(Tool.READ_BW, new ToolOptions().with(LIMIT_BW, "fast"))).getMessage());
        assertEquals(12.5, ParameterRules.check(Tool.ATOMIC_BW, new ToolOptions().with(LIMIT_BW, "12.5"))
                .describe("c").get("limit_bw"));
    }

    private static String verdict(ToolOptions o) {
        return ResultLimits.verdict(ParameterRules.check(Tool.WRITE_BW, o), ROWS);
    }
}
