package io.rdmaffm.perftest.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.verbs.topology.PciFunction;
import io.rdmaffm.verbs.topology.PciPath;
import io.rdmaffm.verbs.topology.Reading;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** GPU↔NIC distance classes from PCI paths. */
class PathClassTest {

    private static PciPath path(String hostBridge, int numa, String... bdfs) {
        List<PciFunction> chain = new ArrayList<>();
        for (String b : bdfs) {
            chain.add(new PciFunction(b, Path.of("/x"), Reading.unknown("-"), Reading.unknown("-"),
                    Reading.unknown("-"), Reading.unknown("-"), Reading.unknown("-"), Reading.unknown("-"),
                    Reading.unknown("-"), numa < 0 ? Reading.unknown("-1") : Reading.of(numa), Reading.unknown("-"),
                    Reading.unknown("-"), Reading.unknown("-"), Reading.unknown("-")));
        }
        return new PciPath(hostBridge, chain);
    }

    private static final Reading<Integer> TWO_NODES = Reading.of(2);

    @Test
    void sameSwitchIsPix() {
        PciPath nic = path("pci0000:15", 0, "0000:15:01.0", "0000:16:00.0", "0000:17:00.0", "0000:18:00.0");
        PciPath gpu = path("pci0000:15", 0, "0000:15:01.0", "0000:16:00.0", "0000:17:01.0", "0000:19:00.0");
        assertEquals(PathClass.PIX, PathClass.classify(nic, gpu, TWO_NODES));
        assertTrue(PathClass.PIX.gdrByDefault());
    }

    @Test
    void nestedSwitchesArePxb() {
        PciPath nic = path("pci0000:15", 0, "0000:15:01.0", "0000:16:00.0", "0000:17:00.0", "0000:18:00.0",
                "0000:19:00.0", "0000:1a:00.0");
        PciPath gpu = path("pci0000:15", 0, "0000:15:01.0", "0000:16:00.0", "0000:17:01.0", "0000:1b:00.0");
        assertEquals(PathClass.PXB, PathClass.classify(nic, gpu, TWO_NODES));
        assertTrue(PathClass.PXB.gdrByDefault());
    }

    @Test
    void differentRootPortsOfOneHostBridgeArePhb() {
        PciPath nic = path("pci0000:00", 0, "0000:00:01.0", "0000:01:00.0");
        PciPath gpu = path("pci0000:00", 0, "0000:00:03.1", "0000:21:00.0");
        assertEquals(PathClass.PHB, PathClass.classify(nic, gpu, TWO_NODES));
        assertFalse(PathClass.PHB.gdrByDefault());
    }

    @Test
    void hostBridgesOfOneNodeAreNodeAndOfTwoNodesSys() {
        PciPath nic = path("pci0000:00", 0, "0000:00:01.0", "0000:01:00.0");
        PciPath sameNode = path("pci0000:40", 0, "0000:40:01.0", "0000:41:00.0");
        PciPath otherNode = path("pci0000:80", 1, "0000:80:01.0", "0000:81:00.0");
        assertEquals(PathClass.NODE, PathClass.classify(nic, sameNode, TWO_NODES));
        assertEquals(PathClass.SYS, PathClass.classify(nic, otherNode, TWO_NODES));
        PciPath unknown = path("pci0000:80", -1, "0000:80:01.0", "0000:81:00.0");
        assertEquals(PathClass.SYS, PathClass.classify(nic, unknown, TWO_NODES));
        assertEquals(PathClass.NODE, PathClass.classify(nic, unknown, Reading.of(1)));
    }
}
