package io.rdmaffm.verbs;

import io.rdmaffm.verbs.raw.Offsets;
import io.rdmaffm.verbs.raw.Structs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The memory-window binds of one {@link ExtendedSend} batch: the struct ibv_mw_bind_info handed to
 * ibv_wr_bind_mw, and the windows bound in the open batch with their new rkeys, given to the windows once the
 * batch is posted. ibv_wr_bind_mw leaves ibv_mw.rkey at the old value, but Soft-RoCE hands ibv_mw.rkey to the
 * kernel as the window's current rkey in the next bind (wr.mw.mw_rkey) and the kernel refuses a bind whose
 * current rkey does not match (rxe_mw.c rxe_bind_mw), so a window could not be bound twice; SendWorkRequests
 * does the same for BIND_MW requests.
 */
final class ExtendedSendBinds {
    /**
     * Allocated on the first bind and reused: the builder copies it into the work queue entry before it returns
     * (rdma-core's builders write the WQE in place).
     */
    private MemorySegment info;
    private MemoryWindow[] windows = new MemoryWindow[0];
    private int[] rkeys = new int[0];
    private int count;

    /** The bind info for the next bind, with everything but the region filled in. */
    MemorySegment info(long address, long length, int access) {
        if (info == null) {
            info = Arena.ofAuto().allocate(Structs.ibv_mw_bind_info);
        }
        info.set(JAVA_LONG, Offsets.ibv_mw_bind_info.addr, address);
        info.set(JAVA_LONG, Offsets.ibv_mw_bind_info.length, length);
        info.set(JAVA_INT, Offsets.ibv_mw_bind_info.mw_access_flags, access);
        return info;
    }

    /** {@code mw} was bound with {@code newRkey} in the open batch. */
    void add(MemoryWindow mw, int newRkey) {
        if (count == windows.length) {
            windows = Arrays.copyOf(windows, Math.max(4, count * 2));
            rkeys = Arrays.copyOf(rkeys, windows.length);
        }
        windows[count] = mw;
        rkeys[count] = newRkey;
        count++;
    }

    /** The batch was posted: each window bound in it now has its new rkey. */
    void posted() {
        for (int i = 0; i < count; i++) {
            if (!windows[i].isClosedInternal()) {
                windows[i].boundTo(rkeys[i]);
            }
        }
        forget();
    }

    /** The batch was aborted or refused. */
    void forget() {
        Arrays.fill(windows, 0, count, null);
        count = 0;
    }
}
