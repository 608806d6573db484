package io.rdmaffm.perftest.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code generate-completion}: picocli's bash completion script for {@code rdma-perftest}, plus the same
 * completion for the {@code ib_*} wrappers in {@code bin/}, which run {@code rdma-perftest <tool> ...}: their
 * command line is completed as that one.
 */
@Command(name = "generate-completion",
        mixinStandardHelpOptions = true,
        description = {"Print a bash completion script for rdma-perftest and the ib_* tools in bin/, e.g.",
                "  bin/rdma-perftest generate-completion > /etc/bash_completion.d/rdma-perftest"})
final class CompletionCommand implements Callable<Integer> {
    /** The name picocli's script completes, and its function's name. */
    static final String ROOT = "rdma-perftest";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        CommandLine root = spec.root().commandLine();
        PrintWriter out = spec.commandLine().getOut();
        out.print(AutoComplete.bash(ROOT, root));
        out.print(wrappers(toolNames(root)));
        out.flush();
        return 0;
    }

    /** The subcommands that have a wrapper of their own name in bin/: perftest's tools. */
    static List<String> toolNames(CommandLine root) {
        List<String> out = new ArrayList<>();
        for (String name : root.getSubcommands().keySet()) {
            if (name.startsWith("ib_")) {
                out.add(name);
            }
        }
        return out;
    }

    /** The function and compspec that complete {@code ib_write_bw ARGS} as {@code rdma-perftest ib_write_bw ARGS}. */
    static String wrappers(List<String> tools) {
        if (tools.isEmpty()) {
            return "";
        }
        return "\n# The ib_* tools in bin/ run `" + ROOT + " <tool> ...`: complete their command line as that one.\n"
                + "function _complete_" + ROOT + "_tool() {\n"
                + "  local tool=${COMP_WORDS[0]##*/}\n"
                + "  COMP_WORDS=(" + ROOT + " \"$tool\" \"${COMP_WORDS[@]:1}\")\n"
                + "  COMP_CWORD=$((COMP_CWORD + 1))\n"
                + "  _complete_" + ROOT + " \"$@\"\n"
                + "}\n"
                + "complete -F _complete_" + ROOT + "_tool -o default " + String.join(" ", tools) + "\n";
    }
}
