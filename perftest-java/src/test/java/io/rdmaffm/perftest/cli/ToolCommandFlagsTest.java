package io.rdmaffm.perftest.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.perftest.params.Flag;
import io.rdmaffm.perftest.params.ToolOptions;
import io.rdmaffm.perftest.vocab.Tool;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/** Each tool's parser is the flag table: the flags the tool takes, no other, and each value reaches the rules. */
class ToolCommandFlagsTest {

    @ParameterizedTest
    @EnumSource(Tool.class)
    void theToolsOptionsAreTheFlagsItTakes(Tool tool) {
        CommandSpec spec = ToolCommand.spec(tool);
        Set<String> expected = new HashSet<>(List.of("-h", "--help", "-V", "--version"));
        for (Flag f : Flag.values()) {
            if (f.takenBy(tool)) {
                expected.addAll(f.names());
                OptionSpec o = spec.findOption(f.names().getFirst());
                assertEquals(f.hidden(), o.hidden(), f.toString());
                assertEquals(f.kind() == Flag.Kind.BOOLEAN ? 0 : 1, o.arity().max(), f + "'s arity");
            }
        }
        Set<String> actual = new HashSet<>();
        for (OptionSpec o : spec.options()) {
            actual.addAll(List.of(o.names()));
        }
        assertEquals(expected, actual);
    }

    @ParameterizedTest
    @EnumSource(Tool.class)
    void everyFlagGivenReachesTheOptionsTyped(Tool tool) {
        CommandLine cl = new CommandLine(ToolCommand.spec(tool));
        List<String> args = new ArrayList<>();
        for (Flag f : Flag.values()) {
            if (f.takenBy(tool)) {
                args.add(f.names().getLast());
                switch (f.kind()) {
                    case BOOLEAN -> { }
                    case INT, LONG -> args.add("7");
                    default -> args.add("v");
                }
            }
        }
        args.add("host");
        CommandLine.ParseResult parsed = cl.parseArgs(args.toArray(String[]::new));
        ToolOptions o = ((ToolCommand) cl.getCommandSpec().userObject()).options(parsed);
        assertEquals("host", o.server());
        for (Flag f : Flag.values()) {
            assertEquals(f.takenBy(tool), o.given(f), f.toString());
            if (f.takenBy(tool)) {
                Object v = o.value(f);
                assertTrue(f.kind().type().isInstance(v), f + " arrived as " + v);
                assertEquals(switch (f.kind()) {
                    case BOOLEAN -> true;
                    case INT -> 7;
                    case LONG -> 7L;
                    case STRING -> "v";
                    case PATH -> Path.of("v");
                }, v, f.toString());
            }
        }
    }
}
