package io.rdmaffm.perftest.engine;

import java.util.Arrays;

/**
 * {@code --threads T}: the shares' {@link Measurement}s merged into the one a single loop over every QP would have
 * recorded, so the figures are computed as before. The loops all read one clock ({@link VerbsSide#clock}), so
 * their timestamps order across threads: the k-th post of the run is the k-th earliest post of any share, and the
 * completion count reaches c when the shares' completions, merged in time, first add up to c. Runs after the
 * loops, never inside them.
 */
final class ShareMerge {
    /** A timestamp slot no loop wrote ({@link Measurement#clearStamps}). */
    static final long UNSET = Long.MIN_VALUE;

    private ShareMerge() {
    }

    /** Each share's per-QP counters at the QPs' run-wide indices. */
    static void counters(QpShares s, Measurement[] ms, Measurement into) {
        for (int t = 0; t < ms.length; t++) {
            int first = s.first(t);
            System.arraycopy(ms[t].scnt, 0, into.scnt, first, s.size(t));
            System.arraycopy(ms[t].ccnt, 0, into.ccnt, first, s.size(t));
            System.arraycopy(ms[t].rcnt, 0, into.rcnt, first, s.size(t));
        }
    }

    /** Windows (duration mode, the send_bw server): from the earliest start to the latest end, counts summed. */
    static void windows(Measurement[] ms, Measurement into) {
        long start = Long.MAX_VALUE;
        long end = Long.MIN_VALUE;
        long counted = 0;
        for (Measurement m : ms) {
            start = Math.min(start, m.windowStart);
            end = Math.max(end, m.windowEnd);
            counted += m.counted;
        }
        into.windowStart = start;
        into.windowEnd = end;
        into.counted = counted;
    }

    /**
     * Iteration mode: the run's post and completion timestamps from the shares', share t having done
     * {@code counts[t]} work requests in posts of {@code postList}. Without peak only the first post and the last
     * completion were stamped: the earliest and the latest of the shares'.
     */
    static void timestamps(Measurement[] ms, int[] counts, int postList, boolean noPeak, Measurement into) {
        if (noPeak) {
            long first = Long.MAX_VALUE;
            long last = Long.MIN_VALUE;
            for (Measurement m : ms) {
                first = Math.min(first, m.tposted[0]);
                last = Math.max(last, m.tcompleted[0]);
            }
            into.tposted[0] = first;
            into.tcompleted[0] = last;
            return;
        }
        int total = 0;
        for (int c : counts) {
            total += c;
        }
        posts(ms, counts, postList, total, into.tposted);
        completions(ms, counts, total, into.tcompleted);
    }

    /** Every post of every share, in time order, one per {@code postList} work requests. */
    private static void posts(Measurement[] ms, int[] counts, int postList, int total, long[] into) {
        long[] times = new long[total];
        int n = 0;
        for (int t = 0; t < ms.length; t++) {
            long[] tp = ms[t].tposted;
            for (int i = 0; i < counts[t]; i++) {
                if (tp[i] != UNSET) {
                    times[n++] = tp[i];
                }
            }
        }
        Arrays.sort(times, 0, n);
        for (int k = 0; k < n; k++) {
            for (int j = 0; j < postList && k * postList + j < total; j++) {
                into[k * postList + j] = times[k];
            }
        }
    }

    /**
     * The shares' completion events (a stamp at tcompleted[c - 1]: that share's count reached c) merged in time;
     * the run's tcompleted[g - 1] is when the merged count reached g, or the first event past it where a step of
     * more than one skipped g.
     */
    private static void completions(Measurement[] ms, int[] counts, int total, long[] into) {
        int shares = ms.length;
        int[] next = new int[shares];
        int[] done = new int[shares];
        for (int t = 0; t < shares; t++) {
            next[t] = nextEvent(ms[t].tcompleted, counts[t], 0);
        }
        Arrays.fill(into, 0, total, UNSET);
        int g = 0;
        while (true) {
            int best = -1;
            for (int t = 0; t < shares; t++) {
                if (next[t] < counts[t] && (best < 0 || ms[t].tcompleted[next[t]] < ms[best].tcompleted[next[best]])) {
                    best = t;
                }
            }
            if (best < 0) {
                break;
            }
            int c = next[best] + 1;
            g += c - done[best];
            done[best] = c;
            into[g - 1] = ms[best].tcompleted[next[best]];
            next[best] = nextEvent(ms[best].tcompleted, counts[best], c);
        }
        if (g != total) {
            throw new RunFailure("the threads' completions add up to " + g + ", not " + total);
        }
        for (int j = total - 2; j >= 0; j--) {
            if (into[j] == UNSET) {
                into[j] = into[j + 1];
            }
        }
    }

    private static int nextEvent(long[] tc, int count, int from) {
        int i = from;
        while (i < count && tc[i] == UNSET) {
            i++;
        }
        return i;
    }
}
