package io.rdmaffm.perftest.doctor;

import io.rdmaffm.verbs.topology.SysfsRdmaDevice;

import java.util.Objects;

/**
 * The verdict of one check on one device, port, or the host.
 *
 * @param check   which check
 * @param device  the RDMA device name, or {@code null} for host-level checks
 * @param port    the port number, or {@code null} for device- and host-level checks
 * @param verdict the verdict
 * @param reason  one line: why, with the numbers that matter
 * @param numbers the figures behind the verdict, in a stable order
 */
public record CheckResult(CheckId check, String device, Integer port, Verdict verdict, String reason,
                          Numbers numbers) {

    /**
     * @param check   check
     * @param device  device or null
     * @param port    port or null
     * @param verdict verdict
     * @param reason  reason
     * @param numbers numbers
     */
    public CheckResult {
        Objects.requireNonNull(check, "check");
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(numbers, "numbers");
    }

    /** @return whether the check gives advice rather than a finding ({@code fabric-advice}) */
    public boolean advisory() {
        return check == CheckId.FABRIC_ADVICE;
    }

    static CheckResult of(CheckId check, SysfsRdmaDevice d, Verdict v, String reason, Numbers.Builder numbers) {
        return new CheckResult(check, d.name(), null, v, reason, numbers.build());
    }

    static CheckResult na(CheckId check, SysfsRdmaDevice d, String reason) {
        return new CheckResult(check, d.name(), null, Verdict.NA, reason, Numbers.NONE);
    }

    /**
     * For the checks that need a device's PCI path.
     *
     * @param virtualNote what a virtual device lacks for this check
     * @return N/A with the reason when the device is virtual or its PCI path unknown, else {@code null}
     */
    static CheckResult withoutPciPath(CheckId check, SysfsRdmaDevice d, String virtualNote) {
        if (d.virtual()) {
            return na(check, d, "virtual device (" + d.virtualReason() + "): " + virtualNote);
        }
        if (!d.pci().known()) {
            return na(check, d, "PCI path unknown: " + d.pci().problem());
        }
        return null;
    }
}
