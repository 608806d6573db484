package io.rdmaffm.perftest.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rdmaffm.perftest.params.Flag;
import io.rdmaffm.perftest.params.ParameterRules;
import io.rdmaffm.perftest.params.ToolOptions;
import io.rdmaffm.perftest.vocab.Tool;
import io.rdmaffm.verbs.cm.ConnectionParameters;
import org.junit.jupiter.api.Test;

/** {@code --retry_count} reaches what -R's test-QP connections carry: retry and RNR retry count, as perftest sets. */
class RetryCountTest {

    @Test
    void theTestQpsCarryTheGivenCountAsBothRetryCounts() {
        ConnectionParameters c = RdmaCmConnector.parameters(ParameterRules.check(Tool.WRITE_BW,
                new ToolOptions().with(Flag.DEVICE, "rxe0").with(Flag.RDMA_CM).with(Flag.RETRY_COUNT, 3)), 0);
        assertEquals(3, c.retryCount());
        assertEquals(3, c.rnrRetryCount());
    }

    @Test
    void withoutTheFlagBothArePerftestsSeven() {
        ConnectionParameters c = RdmaCmConnector.parameters(ParameterRules.check(Tool.READ_LAT,
                new ToolOptions().with(Flag.DEVICE, "rxe0").with(Flag.RDMA_CM)), 16);
        assertEquals(7, c.retryCount());
        assertEquals(7, c.rnrRetryCount());
    }
}
