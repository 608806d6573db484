package io.rdmaffm.perftest.doctor;

import io.rdmaffm.verbs.topology.PciFunction;
import io.rdmaffm.verbs.topology.PcieSpeed;
import io.rdmaffm.verbs.topology.SysfsRdmaDevice;

import java.util.ArrayList;
import java.util.List;

/** {@code pcie-downtrained}: a link on the path trained below what both of its ends support. */
record PcieDowntrainedCheck() implements Check<SysfsRdmaDevice> {
    private static final CheckId ID = CheckId.PCIE_DOWNTRAINED;

    /**
     * @param findings each downtrained link, described
     * @param slotNote what the slot caps a faster NIC at, or empty
     */
    private record Training(List<String> findings, String slotNote) {
    }

    @Override
    public CheckResult examine(SysfsRdmaDevice d) {
        CheckResult na = CheckResult.withoutPciPath(ID, d, "no PCIe link");
        if (na != null) {
            return na;
        }
        List<PciFunction> chain = d.pci().value().chain();
        PciFunction nic = chain.getLast();
        Numbers.Builder n = Numbers.builder();
        if (!nic.currentSpeed().known() || !nic.currentWidth().known()) {
            return CheckResult.of(ID, d, Verdict.NA, "NIC link unknown: " + (nic.currentSpeed().known()
                    ? nic.currentWidth().problem() : nic.currentSpeed().problem()), n);
        }
        if (!nic.maxSpeed().known() || !nic.maxWidth().known()) {
            return CheckResult.of(ID, d, Verdict.NA, "NIC link capability unknown: " + (nic.maxSpeed().known()
                    ? nic.maxWidth().problem() : nic.maxSpeed().problem()), n);
        }
        n.text("currentSpeed", nic.currentSpeed().value().label()).whole("currentWidth", nic.currentWidth().value())
                .text("maxSpeed", nic.maxSpeed().value().label()).whole("maxWidth", nic.maxWidth().value());
        Training t = training(chain);
        n.whole("downtrainedLinks", t.findings().size());
        if (!t.findings().isEmpty()) {
            return CheckResult.of(ID, d, Verdict.WARN, "downtrained: " + String.join("; ", t.findings())
                    + " (bad riser, BIOS bifurcation or a slot wired narrower?)" + t.slotNote(), n);
        }
        return CheckResult.of(ID, d, Verdict.OK, "NIC trained " + nic.currentSpeed().value().label() + " x"
                + nic.currentWidth().value() + ", the most both ends support; no downtrained link up to the root port"
                + t.slotNote(), n);
    }

    private static Training training(List<PciFunction> chain) {
        List<String> findings = new ArrayList<>();
        String slotNote = "";
        for (int i = chain.size() - 1; i >= 0; i--) {
            PciFunction f = chain.get(i);
            if (!f.currentSpeed().known() || !f.currentWidth().known() || !f.maxSpeed().known()
                    || !f.maxWidth().known()) {
                continue;
            }
            // The link above function i joins it to chain[i-1]: it can train to what both ends support.
            double expSpeed = f.maxSpeed().value().gigaTransfers();
            int expWidth = f.maxWidth().value();
            PciFunction up = i > 0 ? chain.get(i - 1) : null;
            if (up != null && up.maxSpeed().known()) {
                expSpeed = Math.min(expSpeed, up.maxSpeed().value().gigaTransfers());
            }
            if (up != null && up.maxWidth().known()) {
                expWidth = Math.min(expWidth, up.maxWidth().value());
            }
            double cs = f.currentSpeed().value().gigaTransfers();
            int cw = f.currentWidth().value();
            if (cs < expSpeed - 1e-9 || cw < expWidth) {
                findings.add(f.address() + (i == chain.size() - 1 ? " (NIC)" : "") + " trained "
                        + f.currentSpeed().value().label() + " x" + cw + ", both ends support "
                        + new PcieSpeed(expSpeed).label() + " x" + expWidth);
            }
            if (i == chain.size() - 1 && (expSpeed < f.maxSpeed().value().gigaTransfers() - 1e-9
                    || expWidth < f.maxWidth().value()) && up != null) {
                slotNote = "; the slot " + up.address() + " caps the NIC at " + new PcieSpeed(expSpeed).label()
                        + " x" + expWidth + " (NIC capable of " + f.maxSpeed().value().label() + " x"
                        + f.maxWidth().value() + ")";
            }
        }
        return new Training(findings, slotNote);
    }
}
