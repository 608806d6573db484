package io.rdmaffm.perftest.exchange;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rdmaffm.verbs.cm.ConnectionParameters;
import org.junit.jupiter.api.Test;

/** -z's exchange QP: {@code --retry_count} is its retry count; its RNR retry count stays 7, as perftest's comm QP. */
class RdmaCmRetryCountTest {

    @Test
    void theExchangeQpTakesTheRetryCountAndKeepsRnrSeven() {
        ConnectionParameters c = RdmaCmControlChannel.parameters(2);
        assertEquals(2, c.retryCount());
        assertEquals(7, c.rnrRetryCount());
        assertEquals(7, RdmaCmControlChannel.parameters(RdmaCmControlChannel.DEFAULT_RETRY_COUNT).retryCount());
    }
}
