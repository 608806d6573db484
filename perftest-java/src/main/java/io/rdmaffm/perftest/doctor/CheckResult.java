package io.rdmaffm.perftest.doctor;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The verdict of one check on one device, port, or the host.
 *
 * @param check   which check
 * @param device  the RDMA device name, or {@code null} for host-level checks
 * @param port    the port number, or {@code null} for device- and host-level checks
 * @param verdict the verdict
 * @param reason  one line: why, with the numbers that matter
 * @param numbers the figures behind the verdict (values are {@link Number}, {@link String} or {@link Boolean}),
 *                in a stable order
 */
public record CheckResult(CheckId check, String device, Integer port, Verdict verdict, String reason,
                          Map<String, Object> numbers) {

    /**
     * @param check   check
     * @param device  device or null
     * @param port    port or null
     * @param verdict verdict
     * @param reason  reason
     * @param numbers numbers
     */
    public CheckResult {
        numbers = Collections.unmodifiableMap(new LinkedHashMap<>(numbers));
    }

    /** @return whether the check gives advice rather than a finding ({@code fabric-advice}) */
    public boolean advisory() {
        return check == CheckId.FABRIC_ADVICE;
    }
}
