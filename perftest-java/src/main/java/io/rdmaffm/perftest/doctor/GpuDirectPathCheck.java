package io.rdmaffm.perftest.doctor;

import io.rdmaffm.verbs.topology.PciFunction;
import io.rdmaffm.verbs.topology.PciPath;
import io.rdmaffm.verbs.topology.Reading;
import io.rdmaffm.verbs.topology.Sysfs;
import io.rdmaffm.verbs.topology.SysfsRdmaDevice;
import io.rdmaffm.verbs.topology.Topology;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code gpudirect-path}: for each GPU whose nearest NIC is this one (the doctor's pairing), whether the PCIe
 * path lets the NIC reach the GPU's memory directly: the distance ({@link PathClass}), ACS P2P redirection on
 * every bridge between them that is not shared by both (a redirecting port sends peer traffic up to the root
 * complex), whether an IOMMU translates either device's DMA, and the NIC's Relaxed Ordering (reported). The
 * verdict is the worst pair's. Sources in docs/doctor.md.
 */
record GpuDirectPathCheck(Topology topo, Sysfs sys, GpuDirectHost host, List<Doctor.GpuChoice> pairs)
        implements Check<SysfsRdmaDevice> {
    private static final CheckId ID = CheckId.GPUDIRECT_PATH;
    /** ACS control (PCIe base spec): P2P Request Redirect. */
    static final int ACS_RR = 1 << 2;
    /** ACS control: P2P Completion Redirect. */
    static final int ACS_CR = 1 << 3;
    /** ACS control: P2P Egress Control (blocks rather than redirects; reported, never failed on). */
    static final int ACS_EC = 1 << 5;

    @Override
    public CheckResult examine(SysfsRdmaDevice d) {
        CheckResult na = CheckResult.withoutPciPath(ID, d, "no GPUDirect RDMA");
        if (na != null) {
            return na;
        }
        List<PciPath> gpus = new ArrayList<>();
        for (Doctor.GpuChoice c : pairs) {
            if (d.name().equals(c.nic())) {
                topo.gpus().stream().filter(g -> g.endpoint().address().equals(c.pci())).findFirst().ifPresent(gpus::add);
            }
        }
        if (gpus.isEmpty()) {
            return CheckResult.na(ID, d, "no GPU has this NIC as its nearest");
        }
        PciPath nic = d.pci().value();
        Verdict worst = Verdict.OK;
        List<String> parts = new ArrayList<>();
        List<String> redirecting = new ArrayList<>();
        List<String> translated = new ArrayList<>();
        boolean acsUnknown = false;
        PathClass farthest = PathClass.PIX;
        for (PciPath g : gpus) {
            PathClass c = PathClass.classify(g, nic, topo.numaNodes());
            farthest = c.ordinal() > farthest.ordinal() ? c : farthest;
            List<String> why = new ArrayList<>();
            Verdict v = switch (c) {
                case PIX, PXB -> Verdict.OK;
                case PHB -> Verdict.WARN;
                case NODE, SYS -> Verdict.FAIL;
            };
            if (v != Verdict.OK) {
                why.add(c + (v == Verdict.FAIL ? ": not under one root complex" : ": through the CPU's root complex"));
            }
            boolean unread = false;
            for (PciFunction b : unsharedBridges(g, nic)) {
                Reading<Integer> acs = b.acsControl();
                if (!acs.known()) {
                    unread = true;
                    acsUnknown = true;
                } else if ((acs.value() & (ACS_RR | ACS_CR)) != 0) {
                    redirecting.add(b.address());
                    why.add("ACS " + describeAcs(acs.value()) + " on " + b.address());
                    v = Verdict.FAIL;
                }
            }
            if (!host.iommus().isEmpty()) {
                for (PciFunction f : List.of(g.endpoint(), nic.endpoint())) {
                    Reading<String> t = GpuDirectHost.iommuType(sys, f);
                    if (t.known() && (t.value().endsWith(" DMA") || t.value().endsWith(" DMA-FQ"))) {
                        translated.add(f.address());
                        why.add("IOMMU translates " + f.address() + " (" + t.value() + ")");
                        v = v == Verdict.FAIL ? v : Verdict.WARN;
                    }
                }
            }
            worst = v.ordinal() > worst.ordinal() ? v : worst;
            String state = !why.isEmpty() ? ": " + String.join(", ", why) : unread ? ", ACS unread" : " ready";
            parts.add("GPU " + g.endpoint().address() + " " + c + state);
        }
        if (acsUnknown && worst == Verdict.OK) {
            worst = Verdict.WARN;
            parts.add("ACS not readable on the bridges between them (run the doctor as root)");
        }
        Reading<Boolean> ro = nic.endpoint().relaxedOrdering();
        Numbers.Builder n = Numbers.builder()
                .text("gpus", String.join(",", gpus.stream().map(g -> g.endpoint().address()).toList()))
                .text("path", farthest.name())
                .text("acsRedirect", acsUnknown && redirecting.isEmpty() ? "unknown" : String.join(",", redirecting))
                .flag("iommu", !host.iommus().isEmpty())
                .text("iommuTranslated", String.join(",", translated))
                .text("relaxedOrdering", ro.known() ? String.valueOf(ro.value()) : "unknown");
        String fix = worst == Verdict.OK ? "" : fixes(redirecting, translated, farthest);
        return CheckResult.of(ID, d, worst, String.join("; ", parts) + fix, n);
    }

    /** {@code RR CR EC} as set in an ACS control value, for messages. */
    static String describeAcs(int control) {
        StringBuilder b = new StringBuilder();
        if ((control & ACS_RR) != 0) {
            b.append("RequestRedirect ");
        }
        if ((control & ACS_CR) != 0) {
            b.append("CompletionRedirect ");
        }
        if ((control & ACS_EC) != 0) {
            b.append("EgressControl ");
        }
        return b.toString().trim();
    }

    private static String fixes(List<String> redirecting, List<String> translated, PathClass farthest) {
        List<String> f = new ArrayList<>();
        if (!redirecting.isEmpty()) {
            f.add("disable ACS P2P redirect on those ports (BIOS, or setpci ECAP_ACS+6.w=0)");
        }
        if (!translated.isEmpty()) {
            f.add("boot with iommu=pt (or the IOMMU off) so peer DMA is not translated");
        }
        if (!farthest.gdrByDefault()) {
            f.add("use a NIC under the GPU's PCIe switch");
        }
        return f.isEmpty() ? "" : " (fix: " + String.join("; ", f) + ")";
    }

    /** The bridges on either path below the deepest port both share: where P2P requests could be redirected. */
    static List<PciFunction> unsharedBridges(PciPath a, PciPath b) {
        int common = 0;
        if (a.hostBridge().equals(b.hostBridge())) {
            int n = Math.min(a.chain().size(), b.chain().size());
            while (common < n && a.chain().get(common).address().equals(b.chain().get(common).address())) {
                common++;
            }
        }
        List<PciFunction> out = new ArrayList<>();
        for (PciPath p : List.of(a, b)) {
            for (int i = common; i < p.chain().size() - 1; i++) {
                if (p.chain().get(i).isBridge()) {
                    out.add(p.chain().get(i));
                }
            }
        }
        return out;
    }
}
