package io.rdmaffm.perftest.cli;

import io.rdmaffm.perftest.params.Flag;
import io.rdmaffm.perftest.params.ToolOptions;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

import java.util.ArrayList;
import java.util.List;

/**
 * The perftest flags perftest-java does not support yet: those {@link Flag} declares {@link Flag#refused()}.
 * Every tool's parser accepts them (hidden), so they are refused by name, never silently ignored, and its help
 * lists them at the end.
 */
final class NotYetSupported {
    private NotYetSupported() {
    }

    /** Lists every refused flag at the end of a tool's help. */
    static void listInFooter(CommandSpec tool) {
        List<String> shown = new ArrayList<>();
        for (Flag f : Flag.values()) {
            if (f.refused()) {
                shown.add(String.join("/", f.names()));
            }
        }
        if (shown.isEmpty()) {
            return;
        }
        tool.usageMessage().footerHeading("%nperftest flags not supported yet (refused if given):%n")
                .footer(String.join(", ", shown));
    }

    /**
     * Refuses the first refused flag (in declaration order) the command line gave: perftest-java never ignores a
     * flag.
     *
     * @throws CommandLine.ParameterException "option --use-srq is not supported yet by perftest-java"
     */
    static void refuse(CommandLine tool, ToolOptions given) {
        Flag f = given.firstRefused();
        if (f != null) {
            throw new CommandLine.ParameterException(tool,
                    "option " + f.longName() + " is not supported yet by perftest-java");
        }
    }
}
