package io.rdmaffm.perftest.report.html;

/**
 * The page around a report: one self-contained HTML5 file. The content security policy forbids every fetch
 * (no script, no font, no image, no stylesheet from anywhere), so the browser itself guarantees the page
 * opens offline and unchanged; the one stylesheet is inline. Responsive (plots in a grid that collapses to one
 * column, wide tables scroll inside their box) and printable (no navigation, plots not split across pages).
 */
public final class HtmlPage {
    /** The policy: nothing may be loaded; inline styles only. */
    public static final String CSP = "default-src 'none'; style-src 'unsafe-inline'";

    private static final String CSS = """
            :root { color-scheme: light; --fg: #1b1b1b; --muted: #5a5a5a; --line: #d7d7d7; --bg: #fff; }
            * { box-sizing: border-box; }
            body { margin: 0 auto; max-width: 1200px; padding: 1rem; font: 15px/1.45 system-ui, -apple-system,
              "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: var(--fg); background: var(--bg); }
            h1 { font-size: 1.5rem; margin: .2rem 0 .4rem; }
            h2 { font-size: 1.2rem; margin: 1.6rem 0 .6rem; border-bottom: 1px solid var(--line); }
            h3 { font-size: 1.05rem; margin: 1.2rem 0 .4rem; }
            .note, .lead { color: var(--muted); }
            nav ul { padding-left: 1.2rem; margin: .3rem 0; }
            .plots { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 520px), 1fr));
              gap: 1rem; }
            figure.plot { margin: 0; padding: .5rem; border: 1px solid var(--line); border-radius: 4px;
              break-inside: avoid; page-break-inside: avoid; }
            details.more, .plot-note { grid-column: 1 / -1; }
            details.more > summary { cursor: pointer; color: var(--muted); padding: .3rem 0; }
            details.more > .plots { margin-top: .5rem; }
            figcaption { font-weight: 600; margin-bottom: .3rem; }
            figure.plot > svg { display: block; width: 100%; height: auto; }
            svg text { font: 12px system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
              fill: var(--fg); stroke: none; }
            svg .grid { stroke: #ececec; stroke-width: 1; }
            svg .frame { fill: none; stroke: #9a9a9a; stroke-width: 1; }
            svg .axis-label { font-size: 13px; fill: var(--muted); }
            svg .series path { stroke-width: 2; }
            svg .series circle { stroke: none; }
            svg .reference line, .legend .ref line { stroke: #444; stroke-width: 1.5; stroke-dasharray: 8 5; }
            svg [data-reference="pcie-model"] line, .legend [data-ref-kind="pcie-model"] line {
              stroke: #8a2be2; stroke-dasharray: 2 3; }
            svg .reference text { font-size: 11px; fill: #333; }
            ul.legend { list-style: none; display: flex; flex-wrap: wrap; gap: .2rem 1rem; padding: 0;
              margin: .4rem 0 0; font-size: .9rem; }
            ul.legend li { display: flex; align-items: center; gap: .35rem; }
            svg.swatch { width: 28px; height: 10px; flex: none; }
            .runs { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 520px), 1fr));
              gap: 1rem; }
            section.run { border: 1px solid var(--line); border-radius: 4px; padding: .2rem .8rem .8rem;
              break-inside: avoid-page; }
            dl.provenance { display: grid; grid-template-columns: max-content 1fr; gap: .15rem .8rem;
              margin: .4rem 0; font-size: .9rem; }
            dl.provenance dt { font-weight: 600; }
            dl.provenance dd { margin: 0; overflow-wrap: anywhere; }
            dd.missing { color: var(--muted); font-style: italic; }
            .table-wrap { overflow-x: auto; }
            table { border-collapse: collapse; font-size: .88rem; font-variant-numeric: tabular-nums; }
            th, td { padding: .2rem .55rem; border-bottom: 1px solid var(--line); text-align: right;
              white-space: nowrap; }
            th:first-child, td:first-child { text-align: right; }
            th .unit { font-weight: normal; color: var(--muted); }
            td.text, th.text { text-align: left; }
            td.wrap { white-space: normal; overflow-wrap: anywhere; min-width: 12rem; }
            tr.beyond td { background: #fff3cd; }
            table.heatmap td.cell { text-align: center; min-width: 6.5rem; border: 1px solid var(--line); }
            table.heatmap td[data-status="FLAGGED"] { outline: 3px solid #D55E00; outline-offset: -3px; }
            table.heatmap td[data-status="FAILED"] { background: repeating-linear-gradient(45deg, #fbe3d6,
              #fbe3d6 6px, #fff 6px, #fff 12px); }
            table.heatmap td[data-status="self"] { background: #f4f4f4; }
            table.heatmap td[data-status="untested"] { color: var(--muted); }
            ul.matrix-bad { font-size: .9rem; padding-left: 1.2rem; }
            .mark { font-weight: 700; }
            @media (max-width: 600px) {
              body { padding: .5rem; font-size: 14px; }
              dl.provenance { grid-template-columns: 1fr; }
              dl.provenance dt { margin-top: .3rem; }
              /* the plots shrink to the screen: larger text in plot units keeps it readable */
              svg text, svg .axis-label { font-size: 19px; }
              svg .reference text { font-size: 16px; }
            }
            @media print {
              body { max-width: none; padding: 0; font-size: 10pt; }
              nav { display: none; }
              .plots, .runs { display: block; }
              figure.plot, section.run { margin-bottom: .6rem; border-color: #bbb; }
              h2 { break-after: avoid; }
              tr.beyond td { background: none; font-weight: 700; }
            }
            """;

    private HtmlPage() {
    }

    /**
     * @param title the document title and first heading
     * @param lead one paragraph under the heading (HTML)
     * @param body the sections (HTML)
     * @return the whole document
     */
    public static String page(String title, String lead, String body) {
        return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                + "<meta http-equiv=\"Content-Security-Policy\" content=\"" + CSP + "\">\n"
                + "<meta name=\"generator\" content=\"rdma-perftest\">\n"
                + "<title>" + Html.esc(title) + "</title>\n<style>\n" + CSS + "</style>\n</head>\n<body>\n"
                + "<header>\n<h1>" + Html.esc(title) + "</h1>\n<p class=\"lead\">" + lead + "</p>\n</header>\n"
                + body + "</body>\n</html>\n";
    }
}
