package io.rdmaffm.perftest.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.verbs.topology.PcieSpeed;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** PCIe arithmetic against the kernel's PCIE_SPEED2MBS_ENC and the reference table. */
class PcieMathTest {

    @ParameterizedTest(name = "{0} GT/s x{1} = {2} Gb/s raw")
    @CsvSource({
            "2.5, 16, 32.0",    // 8b/10b
            "5, 16, 64.0",      // 8b/10b
            "8, 16, 126.03",    // 128b/130b
            "16, 8, 126.03",
            "16, 16, 252.06",
            "32, 16, 504.12",
            "64, 16, 1024.0",   // FLIT, 1b/1b
            "32, 4, 126.03",
    })
    void rawMatchesTheKernel(double gt, int width, double expected) {
        assertEquals(expected, PcieMath.rawGbps(new PcieSpeed(gt), width), 0.01);
    }

    @Test
    void efficiencyModel() {
        assertEquals(1024.0 / 1144.0, PcieMath.efficiency(new PcieSpeed(16), 256), 1e-9);
        assertEquals(1024.0 / 1136.0, PcieMath.efficiency(new PcieSpeed(5), 256), 1e-9);
        assertEquals(512.0 / 632.0, PcieMath.efficiency(new PcieSpeed(16), 128), 1e-9);
        assertEquals(236.0 / 256.0, PcieMath.efficiency(new PcieSpeed(64), 256), 1e-9);
        assertTrue(PcieMath.efficiency(new PcieSpeed(32), 512) > PcieMath.efficiency(new PcieSpeed(32), 256));
        assertEquals(225.6, PcieMath.modelGbps(new PcieSpeed(16), 16, 256), 0.05);
        assertEquals(451.2, PcieMath.modelGbps(new PcieSpeed(32), 16, 256), 0.05);
    }

    @Test
    void ncclModel() {
        assertEquals(192.0, PcieMath.ncclGbps(new PcieSpeed(16), 16), 1e-9);
        assertEquals(384.0, PcieMath.ncclGbps(new PcieSpeed(32), 16), 1e-9);
        assertEquals(96.0, PcieMath.ncclGbps(new PcieSpeed(8), 16), 1e-9);
        assertTrue(Double.isNaN(PcieMath.ncclGbps(new PcieSpeed(20), 16)));
    }

    @ParameterizedTest(name = "netdev MTU {0} -> RoCE MTU {1}")
    @CsvSource({"1500, 1024", "2143, 1024", "2144, 2048", "4191, 2048", "4192, 4096", "9000, 4096", "300, 0"})
    void roceMtuFollowsIboeGetMtu(int netdev, int roce) {
        assertEquals(roce, Doctor.iboeMtu(netdev));
    }
}
