package io.rdmaffm.perftest.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rdmaffm.verbs.LinkLayer;
import org.junit.jupiter.api.Test;

/**
 * {@code --force-link} and {@code --dlid} are checked against the port's link layer as the device reports it (here a
 * fake one of each kind); the rdma-tagged InteropRdmaTest runs the refusals on Soft-RoCE, whose port is Ethernet.
 */
class LinkFlagsTest {

    @Test
    void aDlidIsRefusedOnAnEthernetPortWithItsLinkLayer() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> OpenDevice.checkLinkFlags(null, 5, LinkLayer.ETHERNET, "rxe0", 1));
        assertEquals("--dlid 5: port 1 of rxe0 is Ethernet (its link_layer): RoCE addresses the peer by its GID, a LID"
                + " applies only on InfiniBand", e.getMessage());
    }

    @Test
    void aDlidIsTakenOnAnInfiniBandPort() {
        OpenDevice.checkLinkFlags(null, 5, LinkLayer.INFINIBAND, "mlx5_0", 1);
        OpenDevice.checkLinkFlags("IB", 0x1234, LinkLayer.INFINIBAND, "mlx5_0", 2);
    }

    @Test
    void aForcedLinkMustBeThePortsOwn() {
        OpenDevice.checkLinkFlags("Ethernet", 0, LinkLayer.ETHERNET, "rxe0", 1);
        IllegalArgumentException ib = assertThrows(IllegalArgumentException.class,
                () -> OpenDevice.checkLinkFlags("IB", 0, LinkLayer.ETHERNET, "rxe0", 1));
        assertEquals("--force-link IB: port 1 of rxe0 is Ethernet (its link_layer); perftest-java runs a port as the"
                + " link it is", ib.getMessage());
        IllegalArgumentException eth = assertThrows(IllegalArgumentException.class,
                () -> OpenDevice.checkLinkFlags("Ethernet", 0, LinkLayer.INFINIBAND, "mlx5_0", 2));
        assertEquals("--force-link Ethernet: port 2 of mlx5_0 is IB (its link_layer); for a GRH on InfiniBand give a"
                + " GID index (-x)", eth.getMessage());
    }
}
