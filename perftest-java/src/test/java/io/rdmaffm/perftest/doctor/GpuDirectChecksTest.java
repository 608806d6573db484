package io.rdmaffm.perftest.doctor;

import static io.rdmaffm.perftest.doctor.DoctorHostsTest.assertVerdict;
import static io.rdmaffm.perftest.doctor.DoctorHostsTest.check;
import static io.rdmaffm.perftest.doctor.DoctorHostsTest.examine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The GPUDirect checks on fixture trees: the driver paths and each GPU↔NIC pair's PCIe path. */
class GpuDirectChecksTest {
    /** Rail 2 of the H100 fixture: the GPU's downstream port, the GPU, the NIC. */
    private static final String RAIL2 = "pci0000:48/0000:48:01.0/0000:49:00.0";
    private static final String RAIL2_GPU_PORT = RAIL2 + "/0000:4a:01.0";
    private static final String RAIL0 = "pci0000:15/0000:15:01.0/0000:16:00.0";
    private static final String RAIL0_GPU = RAIL0 + "/0000:17:01.0/0000:19:00.0";
    private static final String RAIL0_NIC = RAIL0 + "/0000:17:00.0/0000:18:00.0";

    @TempDir
    Path dir;

    @Test
    void h100WithProprietaryDriverPeermemAndAcsOffIsReadyOnEveryRail() {
        DoctorReport r = examine(Hosts.h100(dir));
        CheckResult drv = check(r, CheckId.GPUDIRECT_DRIVER, null, null);
        assertVerdict(Verdict.OK, drv);
        assertEquals("proprietary", drv.numbers().get("driverFlavour"));
        assertEquals("535.129.03", drv.numbers().get("driverVersion"));
        assertEquals("peer-memory", drv.numbers().get("paths"));
        assertTrue(drv.reason().contains("dma-buf needs NVIDIA's open GPU kernel modules"), drv.reason());
        for (int i = 0; i < 8; i++) {
            CheckResult p = check(r, CheckId.GPUDIRECT_PATH, "mlx5_" + i, null);
            assertVerdict(Verdict.OK, p);
            assertEquals("PIX", p.numbers().get("path"));
            assertEquals("", p.numbers().get("acsRedirect"));
            assertEquals(false, p.numbers().get("iommu"));
            assertTrue(p.reason().endsWith(" PIX ready"), p.reason());
        }
    }

    @Test
    void acsRedirectOnTheGpusSwitchPortFailsThatRailOnly() {
        SysfsFixture f = Hosts.h100(dir);
        f.acsConfig(RAIL2_GPU_PORT, GpuDirectPathCheck.ACS_RR | GpuDirectPathCheck.ACS_CR);
        DoctorReport r = examine(f);
        CheckResult p = check(r, CheckId.GPUDIRECT_PATH, "mlx5_2", null);
        assertVerdict(Verdict.FAIL, p);
        assertEquals("0000:4a:01.0", p.numbers().get("acsRedirect"));
        assertTrue(p.reason().contains("GPU 0000:4c:00.0 PIX: ACS RequestRedirect CompletionRedirect on 0000:4a:01.0"),
                p.reason());
        assertTrue(p.reason().contains("fix: disable ACS P2P redirect"), p.reason());
        assertVerdict(Verdict.OK, check(r, CheckId.GPUDIRECT_PATH, "mlx5_3", null));
        assertEquals(2, r.exitCode());
    }

    @Test
    void egressControlAloneDoesNotRedirect() {
        SysfsFixture f = Hosts.h100(dir);
        f.acsConfig(RAIL2_GPU_PORT, GpuDirectPathCheck.ACS_EC | 0x3);
        assertVerdict(Verdict.OK, check(examine(f), CheckId.GPUDIRECT_PATH, "mlx5_2", null));
    }

    @Test
    void iommuTranslatingDmaWarnsAndPassthroughDoesNot() {
        SysfsFixture f = Hosts.h100(dir);
        f.iommu("DMA-FQ", RAIL0_GPU, RAIL0_NIC);
        CheckResult p = check(examine(f), CheckId.GPUDIRECT_PATH, "mlx5_0", null);
        assertVerdict(Verdict.WARN, p);
        assertEquals(true, p.numbers().get("iommu"));
        assertEquals("0000:19:00.0,0000:18:00.0", p.numbers().get("iommuTranslated"));
        assertTrue(p.reason().contains("IOMMU translates 0000:19:00.0 (group 20 DMA-FQ)"), p.reason());
        assertTrue(p.reason().contains("iommu=pt"), p.reason());

        SysfsFixture pt = Hosts.h100(dir.resolve("pt"));
        pt.iommu("identity", RAIL0_GPU, RAIL0_NIC);
        CheckResult ok = check(examine(pt), CheckId.GPUDIRECT_PATH, "mlx5_0", null);
        assertVerdict(Verdict.OK, ok);
        assertEquals(true, ok.numbers().get("iommu"));
        assertEquals("", ok.numbers().get("iommuTranslated"));
    }

    @Test
    void bridgesWhoseAcsCannotBeReadAreNeverAPass() {
        DoctorReport r = examine(Hosts.a100(dir));
        CheckResult p = check(r, CheckId.GPUDIRECT_PATH, "mlx5_0", null);
        assertVerdict(Verdict.WARN, p);
        assertEquals("unknown", p.numbers().get("acsRedirect"));
        assertTrue(p.reason().contains("run the doctor as root"), p.reason());
        assertEquals("0000:0a:00.0,0000:0b:00.0", p.numbers().get("gpus"), "both GPUs of the switch use this NIC");
    }

    @Test
    void proprietaryDriverWithoutPeermemHasNoPath() {
        SysfsFixture f = Hosts.h100(dir);
        f.delete("sys/module/nvidia_peermem");
        DoctorReport r = examine(f);
        CheckResult drv = check(r, CheckId.GPUDIRECT_DRIVER, null, null);
        assertVerdict(Verdict.FAIL, drv);
        assertEquals("none", drv.numbers().get("paths"));
        assertEquals("proprietary driver 535.129.03: no GPUDirect RDMA path: peer memory needs nvidia_peermem loaded"
                + " (modprobe nvidia_peermem); dma-buf needs NVIDIA's open GPU kernel modules (this driver is"
                + " proprietary)", drv.reason());
    }

    @Test
    void openDriverWithDmaBufKernelNeedsNoPeermem() {
        SysfsFixture f = Hosts.h100(dir);
        f.delete("sys/module/nvidia_peermem");
        f.nvidiaDriver(true, "550.54.14");
        f.kernel("6.5.0-45-generic", "CONFIG_DMA_SHARED_BUFFER=y", "CONFIG_DMABUF_MOVE_NOTIFY=y", "CONFIG_PCI_P2PDMA=y");
        CheckResult drv = check(examine(f), CheckId.GPUDIRECT_DRIVER, null, null);
        assertVerdict(Verdict.OK, drv);
        assertEquals("open", drv.numbers().get("driverFlavour"));
        assertEquals("dma-buf", drv.numbers().get("paths"));
        assertEquals("/boot/config-6.5.0-45-generic", drv.numbers().get("kernelConfig"));
        assertEquals("y", drv.numbers().get("CONFIG_PCI_P2PDMA"));
        assertTrue(drv.reason().startsWith("open driver 550.54.14: GPUDirect RDMA through dma-buf;"), drv.reason());
    }

    @Test
    void openDriverOnAKernelBefore512HasNoDmaBuf() {
        SysfsFixture f = Hosts.h100(dir);
        f.delete("sys/module/nvidia_peermem");
        f.nvidiaDriver(true, "550.54.14");
        f.kernel("5.10.0-28-amd64", "CONFIG_DMA_SHARED_BUFFER=y");
        CheckResult drv = check(examine(f), CheckId.GPUDIRECT_DRIVER, null, null);
        assertVerdict(Verdict.FAIL, drv);
        assertTrue(drv.reason().contains("dma-buf needs kernel 5.12 or later (this is 5.10.0-28-amd64)"), drv.reason());
    }

    @Test
    void kernelConfigFromProcConfigGzAndAKernelWithoutDmaBuf() throws IOException {
        SysfsFixture f = Hosts.h100(dir);
        f.nvidiaDriver(true, "535.129.03");
        f.write("proc/sys/kernel/osrelease", "6.1.0-57-amd64");
        ByteArrayOutputStream gz = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
            out.write("# CONFIG_DMA_SHARED_BUFFER is not set\nCONFIG_PCI_P2PDMA=y\n".getBytes(StandardCharsets.UTF_8));
        }
        f.writeBytes("proc/config.gz", gz.toByteArray());
        CheckResult drv = check(examine(f), CheckId.GPUDIRECT_DRIVER, null, null);
        assertVerdict(Verdict.OK, drv);
        assertEquals("/proc/config.gz", drv.numbers().get("kernelConfig"));
        assertEquals("n", drv.numbers().get("CONFIG_DMA_SHARED_BUFFER"));
        assertTrue(drv.reason().contains("dma-buf needs CONFIG_DMA_SHARED_BUFFER in the kernel (/proc/config.gz lacks it)"),
                drv.reason());
    }

    @Test
    void gpuWithoutTheDriverLoadedFails() {
        SysfsFixture f = Hosts.h100(dir);
        f.delete("proc/driver/nvidia");
        f.delete("sys/module/nvidia");
        CheckResult drv = check(examine(f), CheckId.GPUDIRECT_DRIVER, null, null);
        assertVerdict(Verdict.FAIL, drv);
        assertTrue(drv.reason().contains("the nvidia module is not loaded"), drv.reason());
    }

    @Test
    void hostsWithoutAGpuGetNoGpuDirectChecks() {
        DoctorReport r = examine(Hosts.cx7InGen4Slot(dir));
        assertTrue(r.results().stream().noneMatch(c -> c.check() == CheckId.GPUDIRECT_DRIVER
                || c.check() == CheckId.GPUDIRECT_PATH), r.results().toString());
    }

    @Test
    void nicWithoutAPairedGpuIsNotApplicable() {
        SysfsFixture f = Hosts.h100(dir);
        // a ninth NIC in its own root port, nearer to no GPU than the rails' NICs
        String rp = "pci0000:e0/0000:e0:01.0";
        f.bridge(rp, SysfsFixture.link(5, 16), 1);
        f.pci(rp + "/0000:e1:00.0", SysfsFixture.MELLANOX, Hosts.CX7, SysfsFixture.CLASS_IB, SysfsFixture.link(5, 16),
                1, "56-111");
        f.rdma("mlx5_8", rp + "/0000:e1:00.0", "28.39.1002");
        CheckResult p = check(examine(f), CheckId.GPUDIRECT_PATH, "mlx5_8", null);
        assertVerdict(Verdict.NA, p);
        assertEquals("no GPU has this NIC as its nearest", p.reason());
    }
}
