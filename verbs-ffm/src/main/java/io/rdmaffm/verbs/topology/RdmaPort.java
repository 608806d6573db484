package io.rdmaffm.verbs.topology;

import java.nio.file.Path;
import java.util.List;

/**
 * One port of an RDMA device ({@code /sys/class/infiniband/<dev>/ports/<n>}).
 *
 * @param number    the port number, from 1
 * @param dir       the port's sysfs directory
 * @param state     {@code state}, e.g. {@code 4: ACTIVE}
 * @param physState {@code phys_state}, e.g. {@code 5: LinkUp}
 * @param rate      {@code rate}
 * @param linkLayer {@code link_layer}: {@code InfiniBand}, {@code Ethernet}
 * @param gids      the used GID table entries, or why the table cannot be read
 */
public record RdmaPort(int number, Path dir, Reading<CodedState> state, Reading<CodedState> physState,
                       Reading<PortRate> rate, Reading<String> linkLayer, Reading<List<Gid>> gids) {

    /** @return whether {@code state} reads ACTIVE */
    public boolean isActive() {
        return state.known() && state.value().name().equalsIgnoreCase("ACTIVE");
    }

    /** @return whether the link layer is Ethernet (RoCE, including Soft-RoCE) */
    public boolean isEthernet() {
        return linkLayer.known() && linkLayer.value().equalsIgnoreCase("Ethernet");
    }

    /** @return whether the link layer is InfiniBand */
    public boolean isInfiniBand() {
        return linkLayer.known() && linkLayer.value().equalsIgnoreCase("InfiniBand");
    }
}
