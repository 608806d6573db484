package io.rdmaffm.verbs;

/** enum ibv_access_flags: what a memory region, window or queue pair allows. Combine with {@link #mask}. */
public enum Access {
    LOCAL_WRITE(1),
    REMOTE_WRITE(1 << 1),
    REMOTE_READ(1 << 2),
    REMOTE_ATOMIC(1 << 3),
    MW_BIND(1 << 4),
    ZERO_BASED(1 << 5),
    ON_DEMAND(1 << 6),
    HUGETLB(1 << 7),
    RELAXED_ORDERING(1 << 20);

    private final int bit;

    Access(int bit) {
        this.bit = bit;
    }

    /** The IBV_ACCESS_* bit. */
    public int bit() {
        return bit;
    }

    /** OR of the bits. */
    public static int mask(Access... flags) {
        int m = 0;
        for (Access a : flags) {
            m |= a.bit;
        }
        return m;
    }
}
