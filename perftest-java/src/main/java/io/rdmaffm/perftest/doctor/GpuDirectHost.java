package io.rdmaffm.perftest.doctor;

import io.rdmaffm.verbs.topology.PciFunction;
import io.rdmaffm.verbs.topology.Reading;
import io.rdmaffm.verbs.topology.Sysfs;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

/**
 * The host facts GPUDirect RDMA depends on, read from procfs, sysfs and /boot only (docs/doctor.md,
 * "GPUDirect RDMA readiness", gives each source): the NVIDIA driver's flavour and version, the peer-memory
 * module, the kernel's dma-buf and P2P configuration, and whether an IOMMU translates DMA.
 *
 * @param driverFlavour {@code open} (NVIDIA's open GPU kernel modules) or {@code proprietary}
 * @param driverVersion e.g. {@code 550.54.14}
 * @param peerMemory    the peer-memory module found (nvidia_peermem, nv_peer_mem, nv_mem), or null
 * @param kernelRelease {@code uname -r}
 * @param kernelConfig  {@code CONFIG_...} to its value ({@code y}, {@code m}); unknown when no config is readable
 * @param configSource  where the config was read from
 * @param iommus        the IOMMUs under /sys/class/iommu (empty: no IOMMU translating DMA)
 */
record GpuDirectHost(Reading<String> driverFlavour, Reading<String> driverVersion, String peerMemory,
                     Reading<String> kernelRelease, Reading<Map<String, String>> kernelConfig, String configSource,
                     List<String> iommus) {

    /** The kernel's dma-buf core (drivers/dma-buf), which ib_umem_dmabuf and NVIDIA's export need. */
    static final String DMA_SHARED_BUFFER = "CONFIG_DMA_SHARED_BUFFER";
    /** Dynamic dma-buf move notification, which importers that do not pin need. */
    static final String DMABUF_MOVE_NOTIFY = "CONFIG_DMABUF_MOVE_NOTIFY";
    /** The kernel's PCI peer-to-peer DMA support. */
    static final String PCI_P2PDMA = "CONFIG_PCI_P2PDMA";

    private static final Pattern NVRM = Pattern.compile("NVRM version: NVIDIA UNIX (Open )?.*?Kernel Module\\s+(?:for \\S+\\s+)?(\\d+\\.\\d+(?:\\.\\d+)?)");

    static GpuDirectHost read(Sysfs sys) {
        Reading<String> flavour;
        Reading<String> version;
        Reading<String> proc = sys.text(sys.path("proc/driver/nvidia/version"));
        Matcher m = proc.known() ? NVRM.matcher(proc.value()) : null;
        if (m != null && m.find()) {
            flavour = Reading.of(m.group(1) != null ? "open" : "proprietary");
            version = Reading.of(m.group(2));
        } else {
            Reading<String> mod = sys.text(sys.path("sys/module/nvidia/version"));
            version = mod.known() ? Reading.of(mod.value().trim())
                    : Reading.unknown("the nvidia module is not loaded (no /proc/driver/nvidia/version)");
            flavour = Reading.unknown(mod.known() ? "/proc/driver/nvidia/version not readable" : version.problem());
        }
        String peer = null;
        for (String[] p : new String[][] {{"sys/module/nvidia_peermem", "nvidia_peermem"},
            {"sys/module/nv_peer_mem", "nv_peer_mem"}, {"sys/kernel/mm/memory_peers/nv_mem", "nv_mem"}}) {
            if (sys.exists(sys.path(p[0]))) {
                peer = p[1];
                break;
            }
        }
        Reading<String> release = sys.text(sys.path("proc/sys/kernel/osrelease")).map(String::trim);
        Reading<Map<String, String>> config = Reading.unknown("neither /boot/config-<release> nor /proc/config.gz"
                + " is readable");
        String source = "";
        if (release.known()) {
            Path boot = sys.path("boot/config-" + release.value());
            Reading<String> text = sys.text(boot);
            if (text.known()) {
                config = Reading.of(parseConfig(text.value()));
                source = "/boot/config-" + release.value();
            }
        }
        if (!config.known()) {
            Reading<byte[]> gz = sys.bytes(sys.path("proc/config.gz"));
            if (gz.known()) {
                try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gz.value()))) {
                    config = Reading.of(parseConfig(new String(in.readAllBytes(), StandardCharsets.UTF_8)));
                    source = "/proc/config.gz";
                } catch (IOException e) {
                    config = Reading.unknown("/proc/config.gz is not gzip: " + e.getMessage());
                }
            }
        }
        List<String> iommus = sys.list(sys.path("sys/class/iommu")).orElse(List.of());
        return new GpuDirectHost(flavour, version, peer, release, config, source, iommus);
    }

    /** {@code CONFIG_X=y} lines; {@code # CONFIG_X is not set} and absent keys are simply missing. */
    static Map<String, String> parseConfig(String text) {
        Map<String, String> out = new HashMap<>();
        for (String line : text.split("\n")) {
            int eq = line.indexOf('=');
            if (line.startsWith("CONFIG_") && eq > 0) {
                out.put(line.substring(0, eq), line.substring(eq + 1).trim());
            }
        }
        return out;
    }

    /** Whether the kernel config enables {@code key} (y or m); unknown without a config. */
    Reading<Boolean> enabled(String key) {
        return kernelConfig.map(c -> "y".equals(c.get(key)) || "m".equals(c.get(key)));
    }

    /** The driver's major version (550 for 550.54.14), or -1. */
    int driverMajor() {
        if (!driverVersion.known()) {
            return -1;
        }
        String v = driverVersion.value();
        int dot = v.indexOf('.');
        try {
            return Integer.parseInt(dot > 0 ? v.substring(0, dot) : v);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** The kernel's major.minor as one number (5.12 is 512), or -1. */
    int kernelVersion() {
        if (!kernelRelease.known()) {
            return -1;
        }
        Matcher m = Pattern.compile("^(\\d+)\\.(\\d+)").matcher(kernelRelease.value());
        return m.find() ? Integer.parseInt(m.group(1)) * 100 + Integer.parseInt(m.group(2)) : -1;
    }

    /** The IOMMU group of {@code f} and its domain type ({@code DMA}, {@code DMA-FQ}, {@code identity}). */
    static Reading<String> iommuType(Sysfs sys, PciFunction f) {
        Reading<Path> group = sys.realPath(f.sysfsPath().resolve("iommu_group"));
        if (!group.known()) {
            return Reading.unknown("no iommu_group");
        }
        return sys.text(group.value().resolve("type")).map(String::trim)
                .map(t -> "group " + group.value().getFileName() + " " + t);
    }
}
