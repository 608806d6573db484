package io.rdmaffm.perftest.params;

import io.rdmaffm.perftest.vocab.Tool;
import io.rdmaffm.perftest.vocab.Verb;

import java.util.List;

/**
 * perftest 4.5's rate limiter ({@code --rate_limit}, {@code --rate_units}, {@code --rate_limit_type},
 * {@code --burst_size}, {@code --typical_pkt_size}): the rules between them, checked before the device is opened
 * ({@link #check}), and what a run's sender reads ({@link #of}). The device's part (HW needs an InfiniBand port, PP
 * packet pacing) is {@link DeviceRules}'.
 *
 * @param type       how the rate is kept, {@link Type#OFF} without a limit
 * @param rate       the limit in {@code units} (0: off)
 * @param units      M (MiB/s), g (Gb/s) or p (messages/s), perftest's letters
 * @param burst      messages sent back to back before the sender waits (SW)
 * @param typeGiven  whether {@code --rate_limit_type} was given (else HW falls back to SW where the port cannot)
 */
public record RateLimit(Type type, double rate, String units, int burst, boolean typeGiven) {
    /** perftest's rate limiter types. */
    public enum Type { OFF, SW, HW, PP }

    /**
     * The static rates perftest 4.5-0.17 (Debian's) accepts, as it spells them (its RATE_VALUES, without "MAX",
     * which its parser reads as 0 and refuses), each at its {@code enum ibv_rate} value's index in
     * {@link #IBV_RATES}.
     */
    static final List<String> HW_RATES = List.of("2.5", "5", "10", "14", "20", "25", "30", "40", "56", "60", "80",
            "100", "112", "120", "168", "200", "300");
    /** {@code enum ibv_rate} of each of {@link #HW_RATES}. */
    private static final int[] IBV_RATES = {2, 5, 3, 11, 6, 15, 4, 7, 12, 8, 9, 16, 13, 10, 14, 17, 18};

    /**
     * The rate limit of {@code p}, its rules checked ({@link #check}) and the type resolved: as given, else HW
     * where a rate is given. {@code DeviceRules} turns an implicit HW into SW on a port without a static rate.
     */
    public static RateLimit of(RunParameters p) {
        String rate = (String) p.value(Flag.RATE_LIMIT);
        String type = (String) p.value(Flag.RATE_LIMIT_TYPE);
        if (rate == null) {
            return new RateLimit(Type.OFF, 0, (String) p.value(Flag.RATE_UNITS), 0, false);
        }
        int burst = (Integer) p.value(Flag.BURST_SIZE);
        return new RateLimit(type == null ? Type.HW : Type.valueOf(type), Double.parseDouble(rate),
                (String) p.value(Flag.RATE_UNITS), burst > 0 ? burst : p.workload().txDepth(), type != null);
    }

    /**
     * perftest's rules between the rate limiter's flags (its messages, said more plainly where perftest's were
     * unclear), in its order.
     *
     * @throws InvalidParameterException at the first rule broken
     */
    static void check(Tool tool, ToolOptions o) {
        String rate = o.text(Flag.RATE_LIMIT);
        if (rate != null) {
            double r;
            try {
                r = Double.parseDouble(rate);
            } catch (NumberFormatException e) {
                r = Double.NaN;
            }
            require(r > 0 && Double.isFinite(r), "--rate_limit must be a positive number, not '" + rate + "'");
        }
        String units = o.text(Flag.RATE_UNITS);
        require(units == null || List.of("M", "g", "p").contains(units),
                "Invalid rate limit units (--rate_units " + units + "). Please use M, g or p");
        String given = o.text(Flag.RATE_LIMIT_TYPE);
        require(given == null || List.of("SW", "HW", "PP").contains(given),
                "Invalid rate limit type (--rate_limit_type " + given + "). Please use HW, SW or PP");
        // perftest then runs without a limit (HW, PP) or waits forever between bursts (SW).
        require(given == null || rate != null, "--rate_limit_type " + given + " needs --rate_limit");
        Type type = given != null ? Type.valueOf(given) : rate != null ? Type.HW : Type.OFF;
        require(!o.given(Flag.BURST_SIZE) || o.intFor(Flag.BURST_SIZE, tool) == 0 || type != Type.OFF,
                "Can't enable burst mode when rate limiter is off (--burst_size needs --rate_limit)");
        require(!o.given(Flag.TYPICAL_PKT_SIZE) || o.intFor(Flag.TYPICAL_PKT_SIZE, tool) == 0 || type == Type.PP,
                "Typical packet size only supports PP rate limiter (--typical_pkt_size needs --rate_limit_type PP)");
        if (type == Type.SW) {
            require(swAllowed(tool, o.on(Flag.BIDIRECTIONAL)), swRefusal(tool));
        } else if (type == Type.HW) {
            require(!o.on(Flag.RDMA_CM) && !o.on(Flag.COMM_RDMA_CM),
                    "HW rate limit isn't supported yet with rdma_cm scenarios (-R, -z)");
            String u = units == null ? "g" : units;
            require(!u.equals("p"), "pps rate limit units is not supported when setting HW rate limit "
                    + "(--rate_units p needs --rate_limit_type SW)");
            // perftest looks the value up as typed, whatever the units (its quirk, kept: scripts pass here or not).
            require(HW_RATES.contains(rate), "Unknown HW rate limit value --rate_limit " + rate + " (a static rate "
                    + "in Gb/s: " + String.join(", ", HW_RATES) + "; or --rate_limit_type SW)");
        }
    }

    /** SW pacing is the bandwidth sender's loop: not latency, atomic, or ib_send_bw -b (perftest's rule). */
    static boolean swAllowed(Tool tool, boolean bidirectional) {
        return tool.bandwidth() && tool.verb() != Verb.ATOMIC && !(tool.verb() == Verb.SEND && bidirectional);
    }

    /** Why SW pacing is refused on {@code tool}. */
    static String swRefusal(Tool tool) {
        return "SW rate limiter runs only in the bandwidth tests of send, write and read, and not with ib_send_bw -b "
                + "(" + tool.perftestName() + ")";
    }

    /** The messages per second the sender may send of {@code size} bytes (perftest's rate_limit_pps). */
    public double messagesPerSecond(long size) {
        return switch (units) {
            case "M" -> rate / size * 1_048_576;
            case "p" -> rate;
            default -> rate / (size * 8) * 1_000_000_000;
        };
    }

    /**
     * The time from one burst's start to the next's, in nanoseconds, for messages of {@code size} bytes
     * (perftest's gap_time); 0 without SW pacing.
     */
    public long burstGapNanos(long size) {
        if (type != Type.SW) {
            return 0;
        }
        double bursts = messagesPerSecond(size) / burst;
        return Math.max(1, Math.round(1e9 / bursts));
    }

    /** {@code enum ibv_rate} of the HW rate, for the address vector's static_rate; 0 (no limit) otherwise. */
    public int ibvRate() {
        if (type != Type.HW) {
            return 0;
        }
        int i = HW_RATES.indexOf(rateText());
        return i < 0 ? 0 : IBV_RATES[i];
    }

    /** The rate as perftest's table spells it (2.5, 10, ..). */
    private String rateText() {
        return rate == Math.rint(rate) ? String.valueOf((long) rate) : String.valueOf(rate);
    }

    /** The same limit, kept by another type (HW falling back to SW). */
    public RateLimit as(Type t) {
        return new RateLimit(t, rate, units, burst, typeGiven);
    }

    /** The type's name for the JSON and messages ("SW", or "off"). */
    public String typeName() {
        return type == Type.OFF ? "off" : type.name();
    }

    private static void require(boolean rule, String message) {
        if (!rule) {
            throw new InvalidParameterException(message);
        }
    }
}
