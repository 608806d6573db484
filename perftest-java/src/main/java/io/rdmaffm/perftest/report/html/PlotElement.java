package io.rdmaffm.perftest.report.html;

/** Something placed in a page's grid of plots: a plot, a group of plots shown on demand, or a note about them. */
public sealed interface PlotElement permits SvgPlot, OnDemand, PlotNote {
    /** @return the element's HTML */
    String render();
}
