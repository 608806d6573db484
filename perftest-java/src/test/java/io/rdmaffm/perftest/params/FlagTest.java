package io.rdmaffm.perftest.params;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.perftest.vocab.Tool;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The flag table is consistent in itself, and the JSON parameters block is derived from it. */
class FlagTest {

    @Test
    void everyNameIsPerftestShapedAndBelongsToOneFlag() {
        Set<String> seen = new HashSet<>();
        for (Flag f : Flag.values()) {
            assertTrue(!f.names().isEmpty(), f + " has no name");
            for (String n : f.names()) {
                assertTrue(n.matches("-[A-Za-z]|--[A-Za-z][A-Za-z0-9_-]+"), f + ": " + n);
                assertTrue(seen.add(n), n + " is declared twice");
            }
            assertEquals(f, Flag.named(f.names().getLast()));
        }
    }

    @Test
    void everyFlagHasHelpRawEthernetOnesAreHiddenOnEveryTool() {
        for (Flag f : Flag.values()) {
            assertNotNull(f.help(), f.toString());
            assertEquals(f.kind() != Flag.Kind.BOOLEAN, f.label() != null, f + "'s argument label");
            if (f.rawEthernet()) {
                assertNull(f.jsonKey(), f.toString());
                assertTrue(f.hidden(), f.toString());
                for (Tool t : Tool.values()) {
                    assertTrue(f.takenBy(t), f + " must be refused by name on " + t);
                }
            }
        }
    }

    @Test
    void everyDefaultIsOfTheFlagsType() {
        for (Flag f : Flag.values()) {
            for (Tool t : Tool.values()) {
                Object d = f.defaultFor(t);
                if (d != null && f.takenBy(t)) {
                    assertTrue(f.kind().type().isInstance(d), f + "'s default " + d + " on " + t);
                }
            }
        }
        assertEquals(5000L, Flag.ITERATIONS.defaultFor(Tool.WRITE_BW), "perftest's one per-tool exception");
        assertEquals(1000L, Flag.ITERATIONS.defaultFor(Tool.READ_BW));
        assertEquals(128, Flag.TX_DEPTH.defaultFor(Tool.SEND_BW));
        assertEquals(1, Flag.TX_DEPTH.defaultFor(Tool.SEND_LAT));
    }

    @Test
    void aFlagsOwnRuleUsesItsDeclaredMessage() {
        InvalidParameterException e = assertThrows(InvalidParameterException.class,
                () -> ParameterRules.check(Tool.WRITE_BW, new ToolOptions().with(Flag.IB_PORT, 0)));
        assertEquals("invalid -i/--ib-port 0 (ports start at 1)", e.getMessage());
        assertDoesNotThrow(() -> ParameterRules.check(Tool.WRITE_BW, new ToolOptions().with(Flag.IB_PORT, 255)));
        assertTrue(Flag.TX_DEPTH.hasRange());
    }

    @Test
    void aValueOfTheWrongTypeIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new ToolOptions().with(Flag.TX_DEPTH, "64"));
        assertEquals(64L, new ToolOptions().with(Flag.ITERATIONS, 64).longFor(Flag.ITERATIONS, Tool.WRITE_BW),
                "an int widens to a long flag");
        assertTrue(!new ToolOptions().with(Flag.EVENTS, false).given(Flag.EVENTS), "false is not given");
    }

    @Test
    void theParametersCarryEveryFlagGivenOrDefaulted() {
        RunParameters p = ParameterRules.check(Tool.WRITE_BW, new ToolOptions().with(Flag.NO_PEAK)
                .with(Flag.ACCEPT_TIMEOUT, 9));
        assertTrue(p.on(Flag.NO_PEAK));
        assertEquals(9, p.value(Flag.ACCEPT_TIMEOUT));
        assertEquals(5000L, p.value(Flag.ITERATIONS), "defaulted for the tool");
        assertEquals(false, p.value(Flag.EVENTS));
        assertNull(p.value(Flag.HGRM), "no default, not given");
        assertEquals(false, p.value(Flag.MCG), "-g defaults to off");
    }

    @ParameterizedTest
    @EnumSource(Tool.class)
    void describeHasExactlyTheDeclaredJsonKeys(Tool tool) {
        RunParameters p = ParameterRules.check(tool, new ToolOptions().server("h").with(Flag.DEVICE, "d"));
        Set<String> expected = new HashSet<>(Set.of("tool", "role", "server", "clock"));
        for (Flag f : Flag.values()) {
            if (f.jsonKey() != null) {
                assertTrue(expected.add(f.jsonKey()), f.jsonKey() + " is declared twice");
                assertNotNull(p.jsonValue(f), f + " has a JSON key but no value");
            }
        }
        assertEquals(expected, p.describe("clock").keySet());
    }
}
