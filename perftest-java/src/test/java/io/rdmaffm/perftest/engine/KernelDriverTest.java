package io.rdmaffm.perftest.engine;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The driver is the name sysfs links the device's parent to; a virtual device (no parent) has none. */
class KernelDriverTest {

    @Test
    void theDriverIsTheLinkedDirectorysName(@TempDir Path sys) throws Exception {
        Path driver = Files.createDirectories(sys.resolve("bus/pci/drivers/mlx5_core"));
        Path pci = Files.createDirectories(sys.resolve("devices/pci0000:00/0000:3b:00.0"));
        Files.createSymbolicLink(pci.resolve("driver"), driver);
        Path mlx5 = Files.createDirectories(sys.resolve("class/infiniband/mlx5_0"));
        Files.createSymbolicLink(mlx5.resolve("device"), pci);
        assertEquals("mlx5_core", KernelDriver.ofPath(mlx5));
        // rxe0 as Linux 6.1 shows it: a virtual device, with a parent file and no device link.
        Path rxe = Files.createDirectories(sys.resolve("devices/virtual/infiniband/rxe0"));
        Files.writeString(rxe.resolve("parent"), "veth0\n");
        assertEquals("", KernelDriver.ofPath(rxe));
    }
}
