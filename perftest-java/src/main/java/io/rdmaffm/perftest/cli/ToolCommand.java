package io.rdmaffm.perftest.cli;

import io.rdmaffm.perftest.params.Flag;
import io.rdmaffm.perftest.params.InvalidParameterException;
import io.rdmaffm.perftest.params.ParameterRules;
import io.rdmaffm.perftest.params.RunParameters;
import io.rdmaffm.perftest.params.ToolOptions;
import io.rdmaffm.perftest.run.ToolRun;
import io.rdmaffm.perftest.vocab.Tool;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * One perftest tool: perftest's flags with perftest's names and meanings. Without a host argument it is the
 * server; with one, the client. Its options are built from the {@link Flag} table (the flags the tool takes, in
 * declaration order), so the parser, the help, the rules and the JSON read one declaration. Defaults and rules
 * are {@link ParameterRules}' business: a flag not given stays absent.
 */
final class ToolCommand implements Callable<Integer> {
    private final Tool tool;
    private final CommandSpec spec;
    private final PositionalParamSpec host;
    /** Each option of the command and the flag it was built from. */
    private final Map<OptionSpec, Flag> flags = new LinkedHashMap<>();

    private ToolCommand(Tool tool) {
        this.tool = tool;
        spec = CommandSpec.wrapWithoutInspection(this);
        spec.name(tool.perftestName());
        spec.versionProvider(new VersionProvider());
        spec.usageMessage().sortOptions(false).autoWidth(true).description(description(tool));
        host = PositionalParamSpec.builder().arity("0..1").paramLabel("HOST").type(String.class)
                .description("Server to connect to; without it this side is the server.").build();
        spec.addPositional(host);
        for (Flag f : Flag.values()) {
            if (f.takenBy(tool)) {
                OptionSpec o = option(f);
                spec.addOption(o);
                flags.put(o, f);
            }
        }
        // After the tool's own options, as the annotated commands listed them.
        spec.mixinStandardHelpOptions(true);
    }

    /** The command of {@code tool}, ready to be added to the launcher. */
    static CommandSpec spec(Tool tool) {
        return new ToolCommand(tool).spec;
    }

    private static OptionSpec option(Flag f) {
        OptionSpec.Builder b = OptionSpec.builder(f.names().toArray(String[]::new)).hidden(f.hidden());
        if (f.kind() == Flag.Kind.BOOLEAN) {
            b.type(boolean.class);
        } else {
            b.type(f.kind().type()).paramLabel(f.label() == null ? "VALUE" : f.label());
        }
        if (f.help() != null) {
            b.description(f.help());
        }
        return b.build();
    }

    private static String description(Tool tool) {
        return switch (tool) {
            case WRITE_BW -> "RDMA write bandwidth (perftest's ib_write_bw).";
            case WRITE_LAT -> "RDMA write latency (perftest's ib_write_lat).";
            case READ_BW -> "RDMA read bandwidth (perftest's ib_read_bw).";
            case READ_LAT -> "RDMA read latency (perftest's ib_read_lat).";
            case SEND_BW -> "Send/receive bandwidth (perftest's ib_send_bw).";
            case SEND_LAT -> "Send/receive latency (perftest's ib_send_lat).";
            case ATOMIC_BW -> "Atomic bandwidth (perftest's ib_atomic_bw).";
            case ATOMIC_LAT -> "Atomic latency (perftest's ib_atomic_lat).";
        };
    }

    /** What the command line said, typed; nothing defaulted. */
    ToolOptions options(CommandLine.ParseResult parsed) {
        ToolOptions o = new ToolOptions().server(host.getValue());
        for (Map.Entry<OptionSpec, Flag> e : flags.entrySet()) {
            if (parsed.hasMatchedOption(e.getKey())) {
                o = o.with(e.getValue(), e.getKey().getValue());
            }
        }
        return o;
    }

    /** Bad input: one clear line, exit 2. */
    private CommandLine.ParameterException bad(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }

    /** perftest's {@code -s}: bytes, or with a K or M suffix. */
    static long parseSize(String s) {
        return ParameterRules.parseSize(s);
    }

    @Override
    public Integer call() throws Exception {
        ToolOptions given = options(spec.commandLine().getParseResult());
        RawEthernetFlags.refuse(spec.commandLine(), tool, given);
        RunParameters p;
        try {
            p = ParameterRules.check(tool, given);
        } catch (IllegalArgumentException e) {
            throw bad(e.getMessage());
        }
        try {
            return ToolRun.execute(p, spec.commandLine().getOut(), spec.commandLine().getErr());
        } catch (InvalidParameterException e) {
            throw bad(e.getMessage());
        }
    }
}
