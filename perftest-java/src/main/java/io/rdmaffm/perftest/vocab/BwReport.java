package io.rdmaffm.perftest.vocab;

/**
 * One bandwidth result row as perftest exchanges it at the end of a BW test (and prints it): message size,
 * iterations (all QPs), peak and average bandwidth in the report unit (MB/s = 2^20 B/s, or Gb/s), and
 * message rate in Mpps.
 *
 * @param size    message size in bytes (unsigned)
 * @param iters   completed iterations counted in the figures (unsigned)
 * @param bwPeak  peak bandwidth (0 when peak is not computed)
 * @param bwAvg   average bandwidth
 * @param msgRate average message rate, millions per second
 */
public record BwReport(long size, long iters, double bwPeak, double bwAvg, double msgRate) {

    /** Field-wise sum: a bidirectional test prints local + remote figures. */
    public BwReport plus(BwReport other) {
        return new BwReport(size, iters, bwPeak + other.bwPeak, bwAvg + other.bwAvg, msgRate + other.msgRate);
    }
}
