package io.rdmaffm.perftest.cli;

import io.rdmaffm.perftest.exchange.Untrusted;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Bad command lines: one line in the same {@code COMMAND: error: ...} form as {@link ErrorHandler}'s, naming what
 * an option wants instead of the Java type picocli failed to convert to ({@code '-n' wants a whole number, got
 * 'abc'} rather than {@code 'abc' is not a long}), and the nearest command or option for a misspelt one.
 */
final class ParameterErrors implements CommandLine.IParameterExceptionHandler {

    @Override
    public int handleParseException(CommandLine.ParameterException ex, String[] args) {
        CommandLine c = ex.getCommandLine();
        c.getErr().println(line(c.getCommandName(), ex));
        c.getErr().flush();
        return ErrorHandler.EXIT_FAILURE;
    }

    /** The one line for {@code ex}: "COMMAND: error: MESSAGE (see COMMAND --help)", printable. */
    static String line(String command, CommandLine.ParameterException ex) {
        return command + ": error: " + Untrusted.line(message(ex)) + " (see " + command + " --help)";
    }

    static String message(CommandLine.ParameterException ex) {
        if (ex instanceof CommandLine.UnmatchedArgumentException u) {
            return unmatched(u);
        }
        ArgSpec arg = ex.getArgSpec();
        // Only picocli's own converters' "'abc' is not a long": a converter of ours says what it wants itself.
        if (arg != null && ex.getValue() != null && ex.getCause() instanceof CommandLine.TypeConversionException t
                && t.getMessage() != null && t.getMessage().matches("(?s)'.*' is not an? [a-zA-Z]+")) {
            return name(arg) + " wants " + wants(arg.type()) + ", got '" + ex.getValue() + "'";
        }
        return ex.getMessage();
    }

    private static String unmatched(CommandLine.UnmatchedArgumentException u) {
        List<String> args = u.getUnmatched();
        String first = args.isEmpty() ? "" : args.get(0);
        boolean option = u.isUnknownOption();
        boolean command = !option && !u.getCommandLine().getSubcommands().isEmpty();
        String what = option ? "unknown option" : command ? "unknown command" : "unexpected argument";
        List<String> near = nearest(first, option ? optionNames(u.getCommandLine())
                : u.getCommandLine().getSubcommands().keySet());
        String hint = near.isEmpty() ? "" : " (did you mean " + String.join(" or ", near) + "?)";
        return what + " '" + first + "'" + hint
                + (args.size() > 1 ? " (and " + (args.size() - 1) + " more unused argument"
                        + (args.size() > 2 ? "s" : "") + ")" : "");
    }

    private static List<String> optionNames(CommandLine c) {
        List<String> out = new java.util.ArrayList<>();
        for (OptionSpec o : c.getCommandSpec().options()) {
            out.addAll(Arrays.asList(o.names()));
        }
        return out;
    }

    /**
     * The names closest to {@code typed} by edit distance, at most a third of its length away (at least 1, so
     * a one-letter slip is always caught) and no more than three of them; none when nothing is that close.
     */
    static List<String> nearest(String typed, java.util.Collection<String> names) {
        int limit = Math.max(1, typed.length() / 3);
        int best = Integer.MAX_VALUE;
        List<String> out = new java.util.ArrayList<>();
        for (String n : names) {
            int d = distance(typed, n);
            if (d > limit || d > best) {
                continue;
            }
            if (d < best) {
                best = d;
                out.clear();
            }
            out.add(n);
        }
        return out.size() > 3 ? out.subList(0, 3) : out;
    }

    /** Levenshtein distance: insertions, deletions and substitutions of one character each count 1. */
    private static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int sub = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                cur[j] = Math.min(sub, Math.min(prev[j], cur[j - 1]) + 1);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }

    private static String name(ArgSpec arg) {
        if (arg instanceof OptionSpec o) {
            return "option '" + o.longestName() + "'";
        }
        return arg.paramLabel();
    }

    /** What a value of {@code type} is, in the user's words. */
    static String wants(Class<?> type) {
        if (type == long.class || type == int.class || type == short.class || type == byte.class
                || type == Long.class || type == Integer.class || type == Short.class || type == Byte.class) {
            return "a whole number";
        }
        if (type == double.class || type == float.class || type == Double.class || type == Float.class) {
            return "a number";
        }
        if (type == boolean.class || type == Boolean.class) {
            return "true or false";
        }
        if (type.isEnum()) {
            return "one of " + String.join(", ", Arrays.stream(type.getEnumConstants())
                    .map(Object::toString).toList());
        }
        if (Path.class.isAssignableFrom(type) || type == java.io.File.class) {
            return "a file name";
        }
        return "a " + type.getSimpleName();
    }
}
