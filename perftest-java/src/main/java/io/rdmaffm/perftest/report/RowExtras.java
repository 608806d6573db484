package io.rdmaffm.perftest.report;

import org.HdrHistogram.Histogram;

/**
 * What a row measured on this side beyond perftest's figures, for the run document: which measured window
 * (message size number) it came from, its figure over time, and (latency) every sample.
 *
 * @param window    the size index of the measured window, to find what the JVM did in it
 * @param series    the figure per interval, or null
 * @param histogram every latency sample in ns (a copy), or null
 */
public record RowExtras(int window, TimeSeries series, Histogram histogram) {
}
