package io.rdmaffm.perftest.report.html;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Which message sizes of a sweep a plot shows at first: all of a few, else the smallest, a middle one, the
 * largest and those the user named ({@code report --sizes}); the others are drawn on demand.
 */
public final class SizeChoice {
    /** Up to this many sizes, all are shown. */
    public static final int SHOW_ALL_UP_TO = 4;

    private SizeChoice() {
    }

    /**
     * @param sizes the sizes present
     * @param named sizes the user asked for (those not present are ignored)
     * @return the sizes to show first, ascending
     */
    public static SortedSet<Long> shown(SortedSet<Long> sizes, Set<Long> named) {
        if (sizes.size() <= SHOW_ALL_UP_TO) {
            return new TreeSet<>(sizes);
        }
        List<Long> all = new ArrayList<>(sizes);
        SortedSet<Long> out = new TreeSet<>();
        out.add(all.get(0));
        out.add(all.get(all.size() / 2));
        out.add(all.get(all.size() - 1));
        for (Long n : named) {
            if (sizes.contains(n)) {
                out.add(n);
            }
        }
        return out;
    }
}
