package io.rdmaffm.perftest.params;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * {@code --force-link} and {@code --dlid} are checked against the port's link layer as the device reports it (here a
 * fake one of each kind); the rdma-tagged InteropRdmaTest runs the refusals on Soft-RoCE, whose port is Ethernet.
 */
class LinkFlagsTest {

    @Test
    void aDlidIsRefusedOnAnEthernetPortWithItsLinkLayer() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DeviceRules.linkFlags(null, 5, "Ethernet", "rxe0", 1));
        assertEquals("--dlid 5: port 1 of rxe0 is Ethernet (its link_layer): RoCE addresses the peer by its GID, a LID"
                + " applies only on InfiniBand", e.getMessage());
    }

    @Test
    void aDlidIsTakenOnAnInfiniBandPort() {
        DeviceRules.linkFlags(null, 5, "IB", "mlx5_0", 1);
        DeviceRules.linkFlags("IB", 0x1234, "IB", "mlx5_0", 2);
    }

    @Test
    void aForcedLinkMustBeThePortsOwn() {
        DeviceRules.linkFlags("Ethernet", 0, "Ethernet", "rxe0", 1);
        IllegalArgumentException ib = assertThrows(IllegalArgumentException.class,
                () -> DeviceRules.linkFlags("IB", 0, "Ethernet", "rxe0", 1));
        assertEquals("--force-link IB: port 1 of rxe0 is Ethernet (its link_layer); perftest-java runs a port as the"
                + " link it is", ib.getMessage());
        IllegalArgumentException eth = assertThrows(IllegalArgumentException.class,
                () -> DeviceRules.linkFlags("Ethernet", 0, "IB", "mlx5_0", 2));
        assertEquals("--force-link Ethernet: port 2 of mlx5_0 is IB (its link_layer); for a GRH on InfiniBand give a"
                + " GID index (-x)", eth.getMessage());
    }
}
