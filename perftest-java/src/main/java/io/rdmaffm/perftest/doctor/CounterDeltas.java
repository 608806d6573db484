package io.rdmaffm.perftest.doctor;

import io.rdmaffm.verbs.topology.CounterSnapshot;
import io.rdmaffm.verbs.topology.SysfsRdmaDevice;
import io.rdmaffm.verbs.topology.Sysfs;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Two samples of the devices' counters some seconds apart, reduced to the counters whose increase
 * signals trouble: drops for want of receive buffers, sequence errors (loss in the fabric), ECN/CNP
 * activity, retransmissions and link flaps.
 *
 * @param seconds  the sampling interval
 * @param sampled  how many counters were read in both samples
 * @param deltas   the trouble counters that increased, largest first
 * @param problems counter files that could not be read
 */
public record CounterDeltas(double seconds, int sampled, List<Delta> deltas, List<String> problems) {

    /**
     * One counter's increase.
     *
     * @param device  the RDMA device
     * @param counter the key, e.g. {@code 1/hw_counters/out_of_sequence}
     * @param delta   the increase over the interval
     */
    public record Delta(String device, String counter, long delta) {
    }

    /** Waits between the two samples; tests replace it to change counters instead of sleeping. */
    @FunctionalInterface
    public interface Sleeper {
        /**
         * @param d how long
         * @throws InterruptedException when interrupted
         */
        void sleep(Duration d) throws InterruptedException;
    }

    private static final Set<String> TROUBLE = Set.of("out_of_buffer", "out_of_sequence", "packet_seq_err",
            "implied_nak_seq_err", "local_ack_timeout_err", "rnr_nak_retry_err", "duplicate_request",
            "out_of_seq_request", "rcvd_seq_err", "retry_exceeded_err", "retry_rnr_exceeded_err",
            "completer_retry_err", "rx_icrc_encapsulated", "roce_adp_retrans", "roce_adp_retrans_to",
            "roce_slow_restart", "link_downed", "link_error_recovery", "symbol_error", "port_rcv_errors",
            "port_xmit_discards", "excessive_buffer_overrun_errors", "local_link_integrity_errors",
            "np_ecn_marked_roce_packets", "np_cnp_sent", "rp_cnp_handled", "rp_cnp_ignored");

    /**
     * @param name a counter file name
     * @return whether its increase signals trouble
     */
    static boolean isTrouble(String name) {
        return TROUBLE.contains(name) || name.contains("cnp") || name.contains("ecn");
    }

    /**
     * Samples the devices' counters twice.
     *
     * @param fs       where to read
     * @param devices  the devices
     * @param interval time between samples
     * @param sleeper  how to wait
     * @return the deltas
     * @throws InterruptedException when interrupted while waiting
     */
    public static CounterDeltas sample(Sysfs fs, List<SysfsRdmaDevice> devices, Duration interval, Sleeper sleeper)
            throws InterruptedException {
        List<CounterSnapshot> first = devices.stream().map(d -> CounterSnapshot.take(fs, d)).toList();
        sleeper.sleep(interval);
        List<Delta> deltas = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        int sampled = 0;
        for (int i = 0; i < devices.size(); i++) {
            CounterSnapshot a = first.get(i);
            CounterSnapshot b = CounterSnapshot.take(fs, devices.get(i));
            problems.addAll(b.problems());
            for (Map.Entry<String, Long> e : b.values().entrySet()) {
                Long before = a.values().get(e.getKey());
                if (before == null) {
                    continue;
                }
                sampled++;
                String name = e.getKey().substring(e.getKey().lastIndexOf('/') + 1);
                long d = e.getValue() - before;
                if (d != 0 && isTrouble(name)) {
                    deltas.add(new Delta(a.device(), e.getKey(), d));
                }
            }
        }
        deltas.sort((x, y) -> Long.compare(y.delta(), x.delta()));
        return new CounterDeltas(interval.toMillis() / 1000.0, sampled, deltas, problems);
    }
}
