package io.rdmaffm.perftest.params;

import static io.rdmaffm.perftest.params.Flag.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.perftest.exchange.HandshakeScript;
import io.rdmaffm.perftest.vocab.Role;
import io.rdmaffm.perftest.vocab.Tool;

import org.junit.jupiter.api.Test;

/**
 * {@code --reversed} flips perftest's machine role (who sends) and keeps the connection's: the side given a host
 * still connects, and runs the server's part of the test.
 */
class ReversedTest {
    @Test
    void theRoleIsTheTrafficsAndTheHostSaysWhoConnects() {
        RunParameters client = ParameterRules.check(Tool.WRITE_BW, new ToolOptions().server("10.0.0.1").with(REVERSED));
        assertEquals(Role.SERVER, client.role());
        assertFalse(client.isClient());
        assertTrue(client.connects());
        RunParameters server = ParameterRules.check(Tool.WRITE_BW, new ToolOptions().with(REVERSED));
        assertEquals(Role.CLIENT, server.role());
        assertFalse(server.connects());
        assertEquals(true, server.describe("clock").get("reversed"));
        assertEquals("client", server.describe("clock").get("role"), "the JSON's role is who sent");
        RunParameters plain = ParameterRules.check(Tool.SEND_BW, new ToolOptions().server("10.0.0.1"));
        assertEquals(Role.CLIENT, plain.role());
        assertTrue(plain.connects());
    }

    @Test
    void theReversedServerRunsTheClientsScript() {
        RunParameters server = ParameterRules.check(Tool.WRITE_BW, new ToolOptions().with(REVERSED));
        HandshakeScript script = HandshakeScript.of(server.tool(), server.role(), false, false);
        assertTrue(script.perSize().contains(io.rdmaffm.perftest.exchange.Step.RUN),
                "the side without a host measures: " + script);
    }
}
