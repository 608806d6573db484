package io.rdmaffm.verbs;

import io.rdmaffm.verbs.raw.Constants;

/**
 * enum ibv_access_flags: what a memory region, window or queue pair allows, as IBV_ACCESS_* bits combined with
 * {@code |}: {@code pd.allocateRegion(4096, Access.LOCAL_WRITE | Access.REMOTE_WRITE)}.
 *
 * <p>Every set of flags in this API is an int (or long) bit mask with C's values: access flags here, send flags
 * ({@link SendFlags}), extended send operations ({@link ExtendedSendOps}), completion flags
 * ({@link Completions#WITH_IMM} ...) and QP attribute masks. One style, because some of them are set on the data
 * path, once per work request: a mask is stored into the native struct as it is, with no conversion and no
 * allocation, which an {@code EnumSet} or varargs of enums could not promise; and it reads like the C it mirrors.
 * {@link #describe(int)} spells a mask out for messages.
 */
public final class Access {
    private Access() {
    }

    public static final int LOCAL_WRITE = Constants.IBV_ACCESS_LOCAL_WRITE;
    public static final int REMOTE_WRITE = Constants.IBV_ACCESS_REMOTE_WRITE;
    public static final int REMOTE_READ = Constants.IBV_ACCESS_REMOTE_READ;
    public static final int REMOTE_ATOMIC = Constants.IBV_ACCESS_REMOTE_ATOMIC;
    public static final int MW_BIND = Constants.IBV_ACCESS_MW_BIND;
    public static final int ZERO_BASED = Constants.IBV_ACCESS_ZERO_BASED;
    public static final int ON_DEMAND = Constants.IBV_ACCESS_ON_DEMAND;
    public static final int HUGETLB = Constants.IBV_ACCESS_HUGETLB;
    public static final int RELAXED_ORDERING = Constants.IBV_ACCESS_RELAXED_ORDERING;

    private static final int[] BITS = {LOCAL_WRITE, REMOTE_WRITE, REMOTE_READ, REMOTE_ATOMIC, MW_BIND, ZERO_BASED,
        ON_DEMAND, HUGETLB, RELAXED_ORDERING};
    private static final String[] NAMES = {"LOCAL_WRITE", "REMOTE_WRITE", "REMOTE_READ", "REMOTE_ATOMIC", "MW_BIND",
        "ZERO_BASED", "ON_DEMAND", "HUGETLB", "RELAXED_ORDERING"};

    /**
     * OR of the bits.
     *
     * @deprecated the flags are int bits now: combine them with {@code |}.
     */
    @Deprecated
    public static int mask(int... flags) {
        int m = 0;
        for (int f : flags) {
            m |= f;
        }
        return m;
    }

    /** The mask as names, e.g. {@code LOCAL_WRITE|REMOTE_READ}; unknown bits in hex; {@code 0} for none. */
    public static String describe(int mask) {
        StringBuilder sb = new StringBuilder();
        int rest = mask;
        for (int i = 0; i < BITS.length; i++) {
            if ((mask & BITS[i]) != 0) {
                sb.append(sb.isEmpty() ? "" : "|").append(NAMES[i]);
                rest &= ~BITS[i];
            }
        }
        if (rest != 0) {
            sb.append(sb.isEmpty() ? "" : "|").append("0x").append(Integer.toHexString(rest));
        }
        return sb.isEmpty() ? "0" : sb.toString();
    }
}
