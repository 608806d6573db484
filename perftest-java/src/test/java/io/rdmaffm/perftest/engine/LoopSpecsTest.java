package io.rdmaffm.perftest.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.perftest.params.DeviceFacts;
import io.rdmaffm.perftest.params.Flag;
import io.rdmaffm.perftest.params.ParameterRules;
import io.rdmaffm.perftest.params.RunParameters;
import io.rdmaffm.perftest.params.RunPlan;
import io.rdmaffm.perftest.params.ToolOptions;
import io.rdmaffm.perftest.vocab.Tool;
import org.junit.jupiter.api.Test;

/** The bandwidth loop's inputs from the parameters: -N reaches the loop from its declaration alone. */
class LoopSpecsTest {
    private static final DeviceFacts RXE = new DeviceFacts(0xffffff, 128, 3, 1L << 31);

    private static BwSpec bandwidth(ToolOptions o) {
        RunParameters p = ParameterRules.check(Tool.WRITE_BW, o.with(Flag.DEVICE, "rxe0"));
        return LoopSpecs.bandwidth(p, RunPlan.derive(p, RXE), 65536, 1000, false);
    }

    @Test
    void theLatencyGapReachesTheMeasuredLoopNotTheWarmUp() {
        RunParameters p = ParameterRules.check(Tool.SEND_LAT,
                new ToolOptions().with(Flag.DEVICE, "rxe0").with(Flag.LATENCY_GAP, 250));
        RunPlan plan = RunPlan.derive(p, RXE);
        assertEquals(250_000L, LoopSpecs.latency(p, plan, 2, 1000, 512, false, true).gapNanos());
        assertEquals(0L, LoopSpecs.latency(p, plan, 2, 1000, 512, false, false).gapNanos());
        RunParameters none = ParameterRules.check(Tool.SEND_LAT, new ToolOptions().with(Flag.DEVICE, "rxe0"));
        assertEquals(0L, LoopSpecs.latency(none, RunPlan.derive(none, RXE), 2, 1000, 512, false, true).gapNanos());
    }

    @Test
    void noPeakIsTheFlagOrPerftestsOwnReasons() {
        assertFalse(bandwidth(new ToolOptions()).noPeak());
        assertTrue(bandwidth(new ToolOptions().with(Flag.NO_PEAK)).noPeak());
        assertTrue(bandwidth(new ToolOptions().with(Flag.DURATION, 4)).noPeak(), "-D never computes the peak");
    }
}
