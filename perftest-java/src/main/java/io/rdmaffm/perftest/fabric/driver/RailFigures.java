package io.rdmaffm.perftest.fabric.driver;

/**
 * One rail's figures for one case of the run (a size; with incast, a target), docs/fabric-design.md §5: t the slowest rank's mean time per iteration, algbw = S/t, busbw =
 * algbw × nccl-tests' factor. Every figure is null when a rank of the rail gave no time (a figure from part of a
 * collective would be a wrong one).
 *
 * @param rail          the rail
 * @param n             ranks in the rail
 * @param bytes         {@code -s}
 * @param algBytes      S as the pattern defines it
 * @param timeUs        t: the maximum over ranks of their mean µs per iteration, or null
 * @param slowest       the rank whose time is t ("host" or "host/device"), or null
 * @param algbwGBps     S / t in GB/s (10^9 B/s, as nccl-tests), or null
 * @param factor        the busbw factor
 * @param busbwGBps     algbw × factor, or null
 * @param wrong         the sum of the ranks' wrong elements; null when a rank did not say (or no check)
 * @param expectedGBps  the busbw one link should carry: the slowest NIC's expected rate (port rate capped by
 *                      PCIe, from each host's doctor) / 8; null when a rank's rate is unknown
 * @param expectedFrom  where the expectation came from, or why there is none
 * @param target        incast: the target host of this row (each host in turn unless {@code --target}); else null
 */
public record RailFigures(int rail, int n, long bytes, double algBytes, Double timeUs, String slowest,
        Double algbwGBps, double factor, Double busbwGBps, Long wrong, Double expectedGBps, String expectedFrom,
        String target) {
}
