package io.rdmaffm.perftest.run;

import io.rdmaffm.perftest.params.Flag;
import io.rdmaffm.perftest.params.RunParameters;
import io.rdmaffm.perftest.vocab.BwReport;
import io.rdmaffm.perftest.vocab.Verb;

/** {@code --run_infinitely}: which runs loop on both sides, and perftest's row figures for them. */
final class EndlessEnds {
    private EndlessEnds() {
    }

    /**
     * Whether both sides loop until stopped: ib_send_bw (the receiver re-posts and prints its rows) and {@code -b}.
     * The uni-directional write, read and atomic tools keep a passive side that waits in the exchange.
     */
    static boolean bothLoop(RunParameters p) {
        return p.on(Flag.RUN_INFINITELY) && (p.verb() == Verb.SEND || p.workload().bidirectional());
    }

    /**
     * A row's figures as perftest prints them: with {@code -b} its bandwidth and message rate count this side's
     * messages {@code factor} (2) times (print_report_bw's run_inf_bi_factor); size and count as measured.
     */
    static BwReport row(BwReport r, double factor) {
        return factor == 1 ? r : new BwReport(r.size(), r.iters(), r.bwPeak(), r.bwAvg() * factor,
                r.msgRate() * factor);
    }
}
