package io.rdmaffm.perftest.cluster;

import java.util.ArrayList;
import java.util.List;

/**
 * Slurm's (and pdsh's) compressed host list syntax, expanded in Java: for {@code SLURM_JOB_NODELIST} when
 * {@code scontrol show hostnames} is not at hand, and for {@code --hosts} and hostfiles, where a cluster's
 * admins write the same syntax: {@code node[01-03,07],gpu-a[1-2]} is node01, node02, node03,
 * node07, gpu-a1, gpu-a2. A range keeps the zero padding of its lower bound ({@code [08-10]}: 08, 09, 10);
 * several bracket groups in one name expand left to right, the leftmost varying slowest
 * ({@code r[1-2]n[1-2]}: r1n1, r1n2, r2n1, r2n2), as scontrol prints them. Order and repeats are kept;
 * duplicates are refused later, with the other host-list checks.
 */
public final class SlurmHostlist {
    /** More names than any real allocation; stops a typo like {@code n[1-99999999]} from filling memory. */
    static final int MAX_HOSTS = 1_000_000;
    private static final String SLURM = "Slurm host list";

    /** The list being expanded and where it came from: what a message names. */
    private record Whole(String where, String list) {
    }

    private SlurmHostlist() {
    }

    /**
     * @param list e.g. {@code node[01-03,07],gpu-a[1-2]}
     * @return the host names in Slurm's order
     * @throws MatrixInputException for unbalanced brackets, empty or reversed ranges, a non-numeric bound
     */
    public static List<String> expand(String list) {
        if (list == null || list.isBlank()) {
            throw new MatrixInputException("SLURM_JOB_NODELIST is empty");
        }
        List<String> out = new ArrayList<>();
        for (String item : splitTopLevel(list.strip())) {
            if (item.isEmpty()) {
                throw new MatrixInputException(SLURM + " '" + Names.printable(list) + "': empty entry");
            }
            expandInto(item, new Whole(SLURM, list), out);
        }
        return out;
    }

    /**
     * One entry of a list, e.g. {@code node[01-04]} of {@code --hosts} or of a hostfile's line; an entry without
     * brackets is itself.
     *
     * @param item  the entry, not empty
     * @param where where it came from, for messages, e.g. "--hosts" or "hostfile h.txt line 3"
     * @return the host names, unchecked
     * @throws MatrixInputException "WHERE 'ITEM': what is wrong"
     */
    static List<String> expandEntry(String item, String where) {
        List<String> out = new ArrayList<>();
        expandInto(item, new Whole(where, item), out);
        return out;
    }

    /** Splits at commas outside brackets. */
    static List<String> splitTopLevel(String s) {
        List<String> items = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '[') {
                depth++;
            } else if (c == ']' && depth > 0) {
                // a stray ']' stays in its entry, which then names it
                depth--;
            } else if (c == ',' && depth == 0) {
                items.add(s.substring(start, i));
                start = i + 1;
            }
        }
        items.add(s.substring(start));
        return items;
    }

    private static void expandInto(String item, Whole whole, List<String> out) {
        int open = item.indexOf('[');
        int firstClose = item.indexOf(']');
        if (open < 0) {
            if (firstClose >= 0) {
                throw bad(whole, "']' without '['");
            }
            add(out, item, whole);
            return;
        }
        int close = item.indexOf(']', open);
        if (close < 0 || firstClose < open) {
            throw bad(whole, "unbalanced brackets in '" + Names.printable(item) + "'");
        }
        String prefix = item.substring(0, open);
        String suffix = item.substring(close + 1);
        String body = item.substring(open + 1, close);
        if (body.indexOf('[') >= 0) {
            throw bad(whole, "nested brackets in '" + Names.printable(item) + "'");
        }
        if (body.isEmpty()) {
            throw bad(whole, "empty brackets in '" + Names.printable(item) + "'");
        }
        for (String range : body.split(",", -1)) {
            for (String value : range(range, whole)) {
                expandInto(prefix + value + suffix, whole, out);
            }
        }
    }

    private static List<String> range(String range, Whole whole) {
        int dash = range.indexOf('-');
        String lo = dash < 0 ? range : range.substring(0, dash);
        String hi = dash < 0 ? range : range.substring(dash + 1);
        if (!digits(lo) || !digits(hi)) {
            throw bad(whole, "'" + Names.printable(range) + "' is not a number or a range like 01-04");
        }
        long from = Long.parseLong(lo);
        long to = Long.parseLong(hi);
        if (to < from) {
            throw bad(whole, "range " + range + " runs backwards");
        }
        if (to - from >= MAX_HOSTS) {
            throw bad(whole, "range " + range + " has more than " + MAX_HOSTS + " hosts");
        }
        int width = lo.length();
        List<String> values = new ArrayList<>();
        for (long v = from; v <= to; v++) {
            String s = Long.toString(v);
            values.add(s.length() < width ? "0".repeat(width - s.length()) + s : s);
        }
        return values;
    }

    private static boolean digits(String s) {
        return !s.isEmpty() && s.length() <= 18 && s.chars().allMatch(c -> c >= '0' && c <= '9');
    }

    private static void add(List<String> out, String host, Whole whole) {
        if (out.size() >= MAX_HOSTS) {
            throw bad(whole, "more than " + MAX_HOSTS + " hosts");
        }
        out.add(host);
    }

    private static MatrixInputException bad(Whole whole, String why) {
        return new MatrixInputException(whole.where() + " '" + Names.printable(whole.list()) + "': " + why);
    }
}
