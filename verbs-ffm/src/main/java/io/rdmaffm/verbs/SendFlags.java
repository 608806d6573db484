package io.rdmaffm.verbs;

/**
 * enum ibv_send_flags bits, for {@link SendWorkRequests.Request#flags(int)}, combined with {@code |}. Int bits like
 * every flag set of this API (the reason is in {@link Access}): they are set once per work request, on the data path.
 */
public final class SendFlags {
    private SendFlags() {
    }

    public static final int FENCE = 1;
    public static final int SIGNALED = 1 << 1;
    public static final int SOLICITED = 1 << 2;
    public static final int INLINE = 1 << 3;
    public static final int IP_CSUM = 1 << 4;
}
