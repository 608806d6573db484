package io.rdmaffm.perftest.counters;

import io.rdmaffm.verbs.topology.Reading;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * A port's counters before and after a run, and each counter's increase. A counter missing from either reading
 * has no delta (absent, with the reason), and one that went down (the driver reset it) has none either.
 *
 * @param before the reading before the run
 * @param after  the reading after it
 */
public record CounterChange(PortCounters before, PortCounters after) {

    /**
     * The counters whose absence the fabric rules care about (docs/fabric-design.md §7): reported as absent when
     * the device lacks them, so a reader sees what was not measured.
     */
    public static final List<String> WATCHED = List.of("hw_counters/out_of_sequence", "hw_counters/packet_seq_err",
            "hw_counters/implied_nak_seq_err", "hw_counters/local_ack_timeout_err", "hw_counters/duplicate_request",
            "hw_counters/rnr_nak_retry_err", "hw_counters/out_of_buffer", "hw_counters/np_ecn_marked_roce_packets",
            "hw_counters/np_cnp_sent", "hw_counters/rp_cnp_handled", "hw_counters/rp_cnp_ignored",
            "counters/port_xmit_wait", "counters/port_rcv_errors", "counters/symbol_error", "counters/link_downed");

    /**
     * One counter's increase over the run, or why there is none.
     *
     * @param key   the counter, as in {@link PortCounters}
     * @param delta the increase
     */
    public record Delta(String key, Reading<Long> delta) {
    }

    /**
     * @param key a counter
     * @return its increase, or why there is none
     */
    public Reading<Long> delta(String key) {
        Reading<Long> a = before.value(key);
        Reading<Long> b = after.value(key);
        if (!a.known()) {
            return Reading.unknown(a.problem());
        }
        if (!b.known()) {
            return Reading.unknown(b.problem());
        }
        if (Long.compareUnsigned(b.value(), a.value()) < 0) {
            return Reading.unknown(key + " went down from " + Long.toUnsignedString(a.value()) + " to "
                    + Long.toUnsignedString(b.value()) + " (reset)");
        }
        return Reading.of(b.value() - a.value());
    }

    /**
     * Every counter either reading has, plus the {@link #WATCHED} ones, sorted by key: deltas where both readings
     * have the counter, the reason otherwise.
     *
     * @return the deltas
     */
    public List<Delta> deltas() {
        Set<String> keys = new TreeSet<>(before.values().keySet());
        keys.addAll(after.values().keySet());
        keys.addAll(WATCHED);
        List<Delta> out = new ArrayList<>(keys.size());
        for (String k : keys) {
            out.add(new Delta(k, delta(k)));
        }
        return out;
    }
}
