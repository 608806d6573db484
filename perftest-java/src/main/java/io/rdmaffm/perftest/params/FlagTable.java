package io.rdmaffm.perftest.params;

import io.rdmaffm.perftest.vocab.Tool;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * README's flag list, rendered from {@link Flag}: one row per perftest flag (names, the tools that take it, its
 * help, and what Soft-RoCE does with it). The table is derived; only the rxe column, which no declaration can
 * know, is written here. FlagTableTest fails when README's copy differs ({@code -Dflag.table.update=true}
 * rewrites it).
 */
public final class FlagTable {
    /** Where the flag's fate on Soft-RoCE (rxe, Linux 6.1) is not simply "works". */
    private static final Map<Flag, String> RXE = new EnumMap<>(Flag.class);

    static {
        RXE.put(Flag.ODP, "refused: no on-demand paging (odp_caps)");
        RXE.put(Flag.DUALPORT, "refused: one port (phys_port_cnt)");
        RXE.put(Flag.REPORT_PER_PORT, "refused with -O");
        RXE.put(Flag.VECTOR, "works below num_comp_vectors (one per CPU)");
        RXE.put(Flag.DLID, "refused: Ethernet link layer");
        RXE.put(Flag.FORCE_LINK, "Ethernet works; IB refused (link layer)");
        RXE.put(Flag.RATE_LIMIT, "works (as SW: implied HW falls back, as C)");
        RXE.put(Flag.RATE_LIMIT_TYPE, "SW works; HW refused (Ethernet: no static rate); PP refused (no packet pacing)");
        RXE.put(Flag.TYPICAL_PKT_SIZE, "PP only: refused");
        RXE.put(Flag.RUN_INFINITELY, "works (all bw tools, -b on write and read; a Java sender to C's ib_send_bw "
                + "receiver, C with -F under TCG)");
        RXE.put(Flag.HUGEPAGES, "works with huge pages reserved (vm.nr_hugepages)");
        RXE.put(Flag.IPV6, "works where the port has an IPv6 GID; not with -R (rdma_cm is IPv4 here, as C)");
        RXE.put(Flag.OLD_POST_SEND, "works (ibv_post_send is the only post path, as C on rxe)");
        RXE.put(Flag.INLINE_RECV, "accepted, no effect (as C 4.5)");
        RXE.put(Flag.USE_CUDA, "needs a CUDA GPU");
        RXE.put(Flag.USE_CUDA_BUS_ID, "needs a CUDA GPU");
        RXE.put(Flag.USE_CUDA_DMABUF, "needs a CUDA GPU");
        RXE.put(Flag.ROCM, "refused: no ROCm buffers");
        // rxe (Linux 6.1) attaches QPs (max_mcast_grp 8192) but joins the group at the link layer only: the IPv6
        // stack drops the datagrams unless the receiving host holds an IP-level join (docs/multicast.md).
        RXE.put(Flag.MCG, "works on one device and between two VMs when each receiving host joins the group at the IPv6 "
                + "level (docs/multicast.md)");
        // perftest 4.5's check_mtu, after the MTU exchange (RunPlan.agreed).
        RXE.put(Flag.SIZE, "works; on UD at most the MTU both sides agree on: without -s (or with -a) it shrinks to it "
                + "with C's two stderr lines, a given -s over it stops the run after the exchange (exit 2; C: exit 1)");
        RXE.put(Flag.MGID, "as -g");
        // Device-read refusals (DeviceRules); on the devices that have them, perftest-java refuses them too.
        for (Flag f : new Flag[] {Flag.AES_XTS, Flag.ENCRYPT_ON_TX, Flag.SIG_BEFORE, Flag.AES_BLOCK_SIZE,
            Flag.KEK_PATH, Flag.CREDENTIALS_PATH, Flag.DATA_ENC_KEYS_NUMBER, Flag.DATA_ENC_KEY_APP_PATH}) {
            RXE.put(f, "refused: not an mlx5 device (its driver); on mlx5 refused too: no mlx5dv crypto here");
        }
        RXE.put(Flag.LOG_DCI_STREAMS, "refused: needs -c DC, which rxe has not (not an mlx5 device)");
        RXE.put(Flag.LOG_ACTIVE_DCI_STREAMS, "refused: needs -c DC, which rxe has not (not an mlx5 device)");
        RXE.put(Flag.USE_OOO, "refused: MLNX_OFED's libibverbs only (rdma-core has no ooo_caps)");
        RXE.put(Flag.CONNECTION, "RC, UC, UD work; XRC refused (no IBV_DEVICE_XRC), DC (not mlx5) and SRD (not EFA) "
                + "refused; on devices that have them refused too: no XRC, DC or SRD QPs here");
        RXE.put(Flag.PERFORM_WARM_UP, "accepted, no effect");
    }

    private FlagTable() {
    }

    /** The table in Markdown, a header and one line per flag, in declaration order (hidden ones included). */
    public static String markdown() {
        StringBuilder b = new StringBuilder("| flag | tools | meaning | rxe |\n|---|---|---|---|\n");
        for (Flag f : Flag.values()) {
            String meaning = f.rawEthernet() ? "perftest's raw Ethernet tools': " + f.help() : f.help();
            b.append("| `").append(String.join("`, `", f.names())).append("` | ").append(tools(f)).append(" | ")
                    .append(meaning.replace("|", "\\|")).append(" | ")
                    .append(f.rawEthernet() ? "refused on every tool: a raw Ethernet flag" : RXE.getOrDefault(f, "works"))
                    .append(" |\n");
        }
        return b.toString();
    }

    /** "all", "bw", "lat", or the tools' names. */
    private static String tools(Flag f) {
        List<String> names = new ArrayList<>();
        boolean allBw = true;
        boolean allLat = true;
        boolean anyBw = false;
        boolean anyLat = false;
        for (Tool t : Tool.values()) {
            boolean takes = f.takenBy(t);
            if (takes) {
                names.add(t.perftestName());
            }
            if (t.bandwidth()) {
                allBw &= takes;
                anyBw |= takes;
            } else {
                allLat &= takes;
                anyLat |= takes;
            }
        }
        if (allBw && allLat) {
            return "all";
        }
        if (allBw && !anyLat) {
            return "bw";
        }
        if (allLat && !anyBw) {
            return "lat";
        }
        return String.join(", ", names);
    }
}
