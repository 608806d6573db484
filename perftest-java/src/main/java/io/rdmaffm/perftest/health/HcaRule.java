package io.rdmaffm.perftest.health;

/**
 * What a node type asks of one HCA (or of every HCA, {@code hca.*}); a null field is not asked.
 *
 * @param minGbps  lowest loopback {@code ib_write_bw} bandwidth that passes, Gb/s
 * @param rateGbps the port rate sysfs must report, Gb/s (a port that trained lower fails)
 * @param pcie     the narrowest PCIe link the HCA may have on its way to the root port
 */
public record HcaRule(Double minGbps, Double rateGbps, PcieLink pcie) {
    /** Nothing asked. */
    public static final HcaRule NONE = new HcaRule(null, null, null);

    /** @return this rule with every field it leaves open taken from {@code general} */
    public HcaRule over(HcaRule general) {
        return new HcaRule(minGbps != null ? minGbps : general.minGbps,
                rateGbps != null ? rateGbps : general.rateGbps, pcie != null ? pcie : general.pcie);
    }
}
