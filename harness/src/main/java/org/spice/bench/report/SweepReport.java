package org.spice.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.spice.bench.model.Sweep;

/**
 * What a size sweep shows: per probe, the fixed cost and the cost per KB of page with their intervals (the terminal
 * table and the report's table), and the chart of CPU per request against page size, a line per probe.
 */
public final class SweepReport {

    public static final String CHART = "sweep.png";

    private SweepReport() {
    }

    /** The terminal table. */
    public static String table(Sweep sweep) {
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT,
                "SPICE size sweep: %s, %d clients; server CPU per request = fixed + per KB x page KB (KB = 1,024 bytes)%n",
                sweep.server(), sweep.clients()));
        out.append(String.format(Locale.ROOT, "%-10s", "probe"));
        sweep.sizes().forEach(s -> out.append(String.format(Locale.ROOT, " %14s", s.bytes() + " B")));
        out.append(String.format(Locale.ROOT, " %18s %16s %6s%n", "fixed us", "per KB us", "r2"));
        sweep.probes().forEach((probe, line) -> {
            out.append(String.format(Locale.ROOT, "%-10s", probe));
            for (Sweep.Size size : sweep.sizes()) {
                Sweep.Point p = line.points().stream().filter(q -> q.bytes() == size.bytes()).findFirst().orElse(null);
                out.append(String.format(Locale.ROOT, " %14s", p == null ? "-" : withCi(p.cpuUsPerReq(), p.cpuUsPerReqCi(), 0)));
            }
            out.append(String.format(Locale.ROOT, " %18s %16s %6s%n", withCi(line.fixedUs(), line.fixedUsCi(), 0),
                    withCi(line.perKbUs(), line.perKbUsCi(), 2), Format.num(line.rSquared(), 3)));
        });
        if (sweep.sizes().size() < 3) {
            out.append("Two sizes fix the line but leave nothing to test it against: no intervals on the line, no r2.\n");
        }
        return out.toString();
    }

    /** "72 ± 5", or the figure alone when its interval is unknown. */
    static String withCi(double value, double ci, int decimals) {
        return Double.isNaN(ci) ? Format.num(value, decimals) : Format.num(value, decimals) + " ± " + Format.num(ci, decimals);
    }

    /** Writes the chart into {@code dir}. */
    public static void writeChart(Sweep sweep, Path dir) throws IOException {
        Files.write(dir.resolve(CHART), chart(sweep));
    }

    /** CPU per request against page size: each probe's measured points with their intervals, and its fitted line. */
    static byte[] chart(Sweep sweep) throws IOException {
        XYChart chart = Charts.xy("Server CPU per request against page size — " + sweep.server() + ", " + sweep.clients()
                + " clients", "page size, KB", "server CPU per request, µs, log scale", 7);
        // A log scale: a CGI probe costs thirty times a resident one, and on a linear axis it flattens them all.
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setYAxisLogarithmicDecadeOnly(true);
        java.util.DoubleSummaryStatistics all = sweep.probes().values().stream().flatMap(l -> l.points().stream())
                .mapToDouble(Sweep.Point::cpuUsPerReq).filter(v -> v > 0).summaryStatistics();
        if (all.getCount() > 0) {
            double[] range = Charts.decades(all.getMin() / 2, all.getMax() * 2);
            chart.getStyler().setYAxisMin(range[0]);
            chart.getStyler().setYAxisMax(range[1]);
        }
        chart.getStyler().setErrorBarsColorSeriesColor(true);
        int series = 0;
        for (Map.Entry<String, Sweep.Line> probe : sweep.probes().entrySet()) {
            List<Sweep.Point> points = probe.getValue().points().stream().filter(p -> p.cpuUsPerReq() > 0).toList();
            if (points.isEmpty()) {
                continue;
            }
            double[] kb = points.stream().mapToDouble(p -> p.bytes() / Sweep.KB).toArray();
            double[] cpu = points.stream().mapToDouble(Sweep.Point::cpuUsPerReq).toArray();
            // An interval reaching below zero is drawn to a tenth of the figure: a log axis has no zero (the table has it whole).
            double[] ci = points.stream().mapToDouble(p -> Double.isNaN(p.cpuUsPerReqCi()) ? 0
                    : Math.min(p.cpuUsPerReqCi(), 0.9 * p.cpuUsPerReq())).toArray();
            // Each probe's points and its line share a colour: set here, as the line's series would take the next one.
            java.awt.Color colour = Charts.COLOURS[series % Charts.COLOURS.length];
            XYSeries measured = chart.addSeries(probe.getKey(), kb, cpu, ci);
            measured.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
            measured.setMarkerColor(colour);
            measured.setLineColor(colour); // a scatter series draws its error bars in its line colour
            measured.setMarker(Charts.MARKERS[series % Charts.MARKERS.length]);
            fitted(chart, probe.getKey(), probe.getValue(), kb[0], kb[kb.length - 1], colour);
            series++;
        }
        if (series == 0) {
            chart.addSeries("no data", new double[] {0}, new double[] {1});
        }
        return Charts.png(chart);
    }

    /** A probe's fitted line from {@code first} to {@code last} KB, in its points' colour (none where it was not fitted). */
    private static void fitted(XYChart chart, String probe, Sweep.Line line, double first, double last,
            java.awt.Color colour) {
        if (Double.isNaN(line.perKbUs())) {
            return;
        }
        // The line, sampled finely enough to be drawn true on the log axis.
        double[] x = java.util.stream.IntStream.rangeClosed(0, 40).mapToDouble(i -> first + (last - first) * i / 40)
                .filter(v -> line.at(v) > 0).toArray();
        if (x.length < 2) {
            return;
        }
        XYSeries fit = chart.addSeries(probe + " fit", x, java.util.Arrays.stream(x).map(line::at).toArray());
        fit.setMarker(SeriesMarkers.NONE);
        fit.setShowInLegend(false);
        fit.setLineColor(colour);
        fit.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
    }

    /** The sweep's chart as one of a report's figures. */
    static Charts.Figure figure(Sweep sweep) throws IOException {
        return new Charts.Figure(CHART, "server CPU per request against page size", chart(sweep));
    }

    /** The report's part: the table of fixed and per-KB costs, then the chart (among {@code figures}). */
    static void html(StringBuilder h, Sweep sweep, List<Charts.Figure> figures) {
        h.append("<p>The page size swept (scripts/spice sweep: a build and a server start per size, ").append(sweep.clients())
                .append(" clients): server CPU per request = fixed + per KB &times; page KB, by least squares over the sizes"
                        + " (KB = 1,024 bytes; &plusmn; 95 % intervals). A fixed cost that dominates is paid per request"
                        + " (a process start, a parse of the request); a per-KB cost is paid per byte (a copy, a parse of"
                        + " the page).</p>\n<div class=\"scroll\"><table id=\"sweep\"><tr><th class=\"l\">probe</th>");
        sweep.sizes().forEach(s -> h.append("<th>").append(String.format(Locale.ROOT, "%,d", s.bytes())).append(" B</th>"));
        h.append("<th>fixed &micro;s</th><th>per KB &micro;s</th><th>r&sup2;</th></tr>\n");
        sweep.probes().forEach((probe, line) -> {
            h.append("<tr><td class=\"l\">").append(HtmlReport.esc(probe)).append("</td>");
            for (Sweep.Size size : sweep.sizes()) {
                Sweep.Point p = line.points().stream().filter(q -> q.bytes() == size.bytes()).findFirst().orElse(null);
                h.append("<td>").append(HtmlReport.esc(p == null ? "-" : withCi(p.cpuUsPerReq(), p.cpuUsPerReqCi(), 0))).append("</td>");
            }
            h.append("<td>").append(HtmlReport.esc(withCi(line.fixedUs(), line.fixedUsCi(), 0))).append("</td><td>")
                    .append(HtmlReport.esc(withCi(line.perKbUs(), line.perKbUsCi(), 2))).append("</td><td>")
                    .append(Format.num(line.rSquared(), 3)).append("</td></tr>\n");
        });
        h.append("</table></div>\n");
        HtmlReport.figure(h, figures, CHART);
    }
}
