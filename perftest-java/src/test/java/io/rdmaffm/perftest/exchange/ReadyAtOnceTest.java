package io.rdmaffm.perftest.exchange;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A server listens before it prepares and accepts after; a client connects before its warm-up and sends its
 * first message after. The first message's limit allows for that warm-up, every later one does not.
 */
@Timeout(30)
class ReadyAtOnceTest {
    private static final String HOST = "127.0.0.1";
    private final ExecutorService pool = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    @Test
    void aClientThatConnectsBeforeTheAcceptWaitsInTheBacklog() throws Exception {
        try (ExchangeListener listener = ExchangeListener.listen(HOST, 0, false)) {
            ExchangeTimeouts t = new ExchangeTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(5),
                    Duration.ofMillis(200), Duration.ofSeconds(5)).withFirstMessageAllowance(Duration.ofSeconds(5));
            // The client connects and sends its version while the server is still "warming up".
            Future<String> client = pool.submit(() -> {
                try (PerftestExchange ex = new PerftestExchange(
                        TcpExchangeChannel.connect(HOST, listener.port(), Duration.ofSeconds(5), false), t, false)) {
                    return ex.exchangeVersions();
                }
            });
            Thread.sleep(1000);
            try (PerftestExchange ex = new PerftestExchange(listener.accept(Duration.ofSeconds(5)), t, false)) {
                assertEquals("6.06", ex.exchangeVersions());
            }
            assertEquals("6.06", client.get(5, TimeUnit.SECONDS), "the first message waited for the late server");
        }
    }

    @Test
    void theFirstMessageAllowsForThePeersWarmupAndNoLonger() throws Exception {
        ExchangeTimeouts t = new ExchangeTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(5),
                Duration.ofMillis(200), Duration.ofSeconds(5)).withFirstMessageAllowance(Duration.ofMillis(400));
        assertEquals(Duration.ofMillis(600), t.firstMessage());
        assertEquals(Duration.ofMillis(200), t.io(), "later messages keep their limit");
        // A server that never gets past its warm-up: the connection completes in its backlog, nobody answers.
        try (ExchangeListener warming = ExchangeListener.listen(HOST, 0, false);
                PerftestExchange ex = new PerftestExchange(
                        TcpExchangeChannel.connect(HOST, warming.port(), Duration.ofSeconds(5), false), t, true)) {
            long t0 = System.nanoTime();
            ExchangeException e = assertThrows(ExchangeTimeoutException.class, ex::exchangeVersions);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertEquals("peer did not answer the version exchange within 600 ms", e.getMessage());
            assertTrue(ms >= 550 && ms < 3000, "took " + ms + " ms");
        }
    }
}
