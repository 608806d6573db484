package io.rdmaffm.perftest.validate;

import io.rdmaffm.perftest.report.model.RunDocument;

/**
 * What one loopback run measured.
 *
 * @param gbps the bandwidth, average over the measured window, Gb/s (10^9 bit/s; both directions summed for -b)
 * @param run  the client's run document (rdma-ffm.run/1), for the report; null where none was written
 */
public record Measured(double gbps, RunDocument run) {
}
