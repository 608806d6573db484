package io.rdmaffm.perftest.report.html;

import io.rdmaffm.perftest.report.model.RunDocument;

/**
 * A run as the plots show it.
 *
 * @param label the legend text
 * @param style colour and dash index of its series ({@link SvgPlot.Series#style()})
 * @param run the run
 */
public record PlotRun(String label, int style, RunDocument run) {
}
