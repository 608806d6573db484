package io.rdmaffm.perftest.params;

import io.rdmaffm.perftest.vocab.BwReport;

import java.util.List;

/**
 * perftest's result verifier, {@code -w/--limit_bw} and {@code -y/--limit_msgrate}: a run whose printed rows all
 * stay below a limit fails (exit 1) with perftest's line. As in perftest, one row that reaches the limit is enough
 * (with {@code -a}, any size), and the figures judged are those the side printed (the bandwidth in the report
 * unit, the message rate in Mpps). perftest 4.5 reports the message-rate failure only when {@code -w} is also
 * given; here {@code -y} alone judges too, since a flag never goes without effect.
 */
public final class ResultLimits {
    /** perftest's lines, on stderr. */
    static final String BW_BELOW = "Error: BW result is below bw limit";
    static final String MSGRATE_BELOW = "Error: Msg rate  is below msg_rate limit";

    private ResultLimits() {
    }

    /**
     * The line a run with these rows fails with, or null when it passes.
     *
     * @param rows the rows this side printed
     */
    public static String verdict(RunParameters p, List<BwReport> rows) {
        Double bw = parse((String) p.value(Flag.LIMIT_BW), "");
        Double rate = parse((String) p.value(Flag.LIMIT_MSGRATE), "");
        // 0, the default, is no limit (perftest's check never fails it); a side that printed no row fails a limit.
        if (bw != null && bw > 0 && rows.stream().noneMatch(r -> r.bwAvg() >= bw)) {
            return BW_BELOW;
        }
        if (rate != null && rate > 0 && rows.stream().noneMatch(r -> r.msgRate() >= rate)) {
            return MSGRATE_BELOW;
        }
        return null;
    }

    /**
     * A limit as given (null: none).
     *
     * @throws InvalidParameterException with perftest's line for a negative one, or for one that is no number
     */
    static Double parse(String given, String negative) {
        if (given == null) {
            return null;
        }
        double v;
        try {
            v = Double.parseDouble(given.strip());
        } catch (NumberFormatException e) {
            throw new InvalidParameterException(negative + ": '" + given + "' is not a number");
        }
        if (v < 0 || Double.isNaN(v) || Double.isInfinite(v)) {
            throw new InvalidParameterException(negative);
        }
        return v;
    }
}
