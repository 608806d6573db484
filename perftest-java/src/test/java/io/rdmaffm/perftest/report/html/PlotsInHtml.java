package io.rdmaffm.perftest.report.html;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads back what a report drew from its data attributes, and counts the elements themselves: per plot
 * ({@code data-plot}) its scales, its series ({@code data-series}, {@code data-points}, and the
 * {@code <circle>}s in the group) and its reference lines.
 */
public final class PlotsInHtml {
    /** One series as drawn. */
    public record SeriesInfo(String label, int dataPoints, int circles) {
    }

    /** One plot as drawn. */
    public record PlotInfo(String id, String xScale, String yScale, int seriesCount, List<SeriesInfo> series,
                           Map<String, List<String>> references, String svg) {

        /** The series with this label. */
        public SeriesInfo series(String label) {
            return series.stream().filter(s -> s.label().equals(label)).findFirst()
                    .orElseThrow(() -> new AssertionError("no series " + label + " in plot " + id + ": " + series));
        }
    }

    private static final Pattern FIGURE = Pattern.compile("<figure class=\"plot\" data-plot=\"([^\"]+)\">(.*?)</figure>",
            Pattern.DOTALL);
    private static final Pattern SVG = Pattern.compile("data-x-scale=\"([^\"]+)\" data-y-scale=\"([^\"]+)\" "
            + "data-series-count=\"(\\d+)\"");
    private static final Pattern SERIES = Pattern.compile("<g class=\"series\" data-series=\"([^\"]*)\" "
            + "data-points=\"(\\d+)\"[^>]*>(.*?)</g>", Pattern.DOTALL);
    private static final Pattern REFERENCE = Pattern.compile("<g class=\"reference\" data-reference=\"([^\"]+)\" "
            + "data-value=\"([^\"]+)\">");

    private PlotsInHtml() {
    }

    /** @return the plots by id, in page order */
    public static Map<String, PlotInfo> read(String html) {
        Map<String, PlotInfo> out = new LinkedHashMap<>();
        Matcher f = FIGURE.matcher(html);
        while (f.find()) {
            String body = f.group(2);
            Matcher s = SVG.matcher(body);
            if (!s.find()) {
                throw new AssertionError("plot " + f.group(1) + " has no scales");
            }
            List<SeriesInfo> series = new ArrayList<>();
            Matcher g = SERIES.matcher(body);
            while (g.find()) {
                series.add(new SeriesInfo(unescape(g.group(1)), Integer.parseInt(g.group(2)),
                        count(g.group(3), "<circle ")));
            }
            Map<String, List<String>> refs = new LinkedHashMap<>();
            Matcher r = REFERENCE.matcher(body);
            while (r.find()) {
                refs.computeIfAbsent(r.group(1), k -> new ArrayList<>()).add(r.group(2));
            }
            out.put(f.group(1), new PlotInfo(f.group(1), s.group(1), s.group(2), Integer.parseInt(s.group(3)), series,
                    refs, body));
        }
        return out;
    }

    /** How often {@code what} occurs in {@code text}. */
    public static int count(String text, String what) {
        int n = 0;
        for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }

    static String unescape(String s) {
        return s.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'")
                .replace("&amp;", "&");
    }
}
