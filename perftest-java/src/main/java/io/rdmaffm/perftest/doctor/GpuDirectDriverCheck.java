package io.rdmaffm.perftest.doctor;

import io.rdmaffm.verbs.topology.Reading;
import io.rdmaffm.verbs.topology.Topology;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code gpudirect-driver}: which GPUDirect RDMA path this host's software can take. Peer memory needs the
 * NVIDIA driver and its peer-memory module (nvidia_peermem, or the older nv_peer_mem); dma-buf needs NVIDIA's
 * open kernel modules of R515 or later, a kernel of 5.12 or later and the kernel's dma-buf core
 * (CONFIG_DMA_SHARED_BUFFER). Run only on hosts with an NVIDIA GPU. Sources in docs/doctor.md.
 */
record GpuDirectDriverCheck(GpuDirectHost host) implements Check<Topology> {
    private static final CheckId ID = CheckId.GPUDIRECT_DRIVER;
    /** The first driver branch whose open kernel modules export dma-bufs. */
    static final int DMA_BUF_DRIVER_MAJOR = 515;
    /** Kernel 5.12: ib_umem_dmabuf, the RDMA side of dma-buf registration. */
    static final int DMA_BUF_KERNEL = 512;

    @Override
    public CheckResult examine(Topology topo) {
        GpuDirectHost h = host;
        Numbers.Builder n = Numbers.builder()
                .text("driverFlavour", h.driverFlavour().orElse("unknown"))
                .text("driverVersion", h.driverVersion().orElse("unknown"))
                .text("peerMemory", h.peerMemory() == null ? "none" : h.peerMemory())
                .text("kernel", h.kernelRelease().orElse("unknown"))
                .text("kernelConfig", h.kernelConfig().known() ? h.configSource() : "unknown")
                .text(GpuDirectHost.DMA_SHARED_BUFFER, yesNo(h.enabled(GpuDirectHost.DMA_SHARED_BUFFER)))
                .text(GpuDirectHost.DMABUF_MOVE_NOTIFY, yesNo(h.enabled(GpuDirectHost.DMABUF_MOVE_NOTIFY)))
                .text(GpuDirectHost.PCI_P2PDMA, yesNo(h.enabled(GpuDirectHost.PCI_P2PDMA)))
                .whole("iommus", h.iommus().size());
        if (!h.driverVersion().known()) {
            n.text("paths", "none");
            return host(Verdict.FAIL, "NVIDIA GPU present but " + h.driverVersion().problem()
                    + ": install and load the NVIDIA driver", n);
        }
        String driver = h.driverFlavour().orElse("unknown-flavour") + " driver " + h.driverVersion().value();
        List<String> paths = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        if (h.peerMemory() != null) {
            paths.add("peer memory (" + h.peerMemory() + ")");
        } else {
            missing.add("peer memory needs nvidia_peermem loaded (modprobe nvidia_peermem)");
        }
        String dmaBuf = dmaBufBlocker(h);
        boolean dmaBufUnverified = dmaBuf == null && !h.enabled(GpuDirectHost.DMA_SHARED_BUFFER).known();
        if (dmaBuf == null) {
            paths.add(dmaBufUnverified ? "dma-buf (kernel config unreadable, unverified)" : "dma-buf");
        } else {
            missing.add("dma-buf " + dmaBuf);
        }
        n.text("paths", paths.isEmpty() ? "none" : String.join(",", paths.stream()
                .map(p -> p.startsWith("peer") ? "peer-memory" : "dma-buf").toList()));
        if (paths.isEmpty()) {
            return host(Verdict.FAIL, driver + ": no GPUDirect RDMA path: " + String.join("; ", missing), n);
        }
        String reason = driver + ": GPUDirect RDMA through " + String.join(" and ", paths)
                + (missing.isEmpty() ? "" : "; " + String.join("; ", missing));
        boolean onlyUnverified = paths.size() == 1 && dmaBufUnverified;
        return host(onlyUnverified ? Verdict.WARN : Verdict.OK, reason, n);
    }

    /** Why the dma-buf path cannot work, or null when nothing known stops it. */
    private static String dmaBufBlocker(GpuDirectHost h) {
        if (!"open".equals(h.driverFlavour().orElse(null))) {
            return "needs NVIDIA's open GPU kernel modules (this driver is " + h.driverFlavour().orElse("of unknown flavour")
                    + ")";
        }
        if (h.driverMajor() >= 0 && h.driverMajor() < DMA_BUF_DRIVER_MAJOR) {
            return "needs driver R" + DMA_BUF_DRIVER_MAJOR + " or later (this is " + h.driverVersion().value() + ")";
        }
        if (h.kernelVersion() >= 0 && h.kernelVersion() < DMA_BUF_KERNEL) {
            return "needs kernel 5.12 or later (this is " + h.kernelRelease().value() + ")";
        }
        if (Boolean.FALSE.equals(h.enabled(GpuDirectHost.DMA_SHARED_BUFFER).orElse(null))) {
            return "needs " + GpuDirectHost.DMA_SHARED_BUFFER + " in the kernel (" + h.configSource() + " lacks it)";
        }
        return null;
    }

    private static String yesNo(Reading<Boolean> r) {
        return r.known() ? (r.value() ? "y" : "n") : "unknown";
    }

    private static CheckResult host(Verdict v, String reason, Numbers.Builder n) {
        return new CheckResult(ID, null, null, v, reason, n.build());
    }
}
