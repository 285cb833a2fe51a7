package org.spice.bench.report;

import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;
import org.spice.bench.stats.SpiceFigures;

/** The server comparison as terminal tables and as compare.html with two bar charts. */
final class CompareReport {

    static {
        System.setProperty("java.awt.headless", "true");
    }

    private CompareReport() {
    }

    /** One section of the comparison: a title, and the cell of a server for a probe. */
    private record Section(String title, Function<Cell, String> cell) {
    }

    private record Cell(SpiceFigures.Summary summary, double rateTimes, double latencyTimes) {
    }

    private static final List<Section> SECTIONS = List.of(
            new Section("Peak request rate, req/s @ clients (times the slowest server)  [white paper Tables 1, 3]",
                    c -> Format.at(c.summary.peakRateRps(), c.summary.peakClients()) + " (" + times(c.rateTimes) + ")"),
            new Section("Mean latency at the peak, ms (times faster than the slowest server)  [Tables 2, 4]",
                    c -> Format.num(c.summary.latencyAtPeakMs(), 2) + " (" + times(c.latencyTimes) + ")"),
            new Section("Request efficiency against static, at the peak / at the maximum load  [Table 5]",
                    c -> Format.percent(c.summary.requestEfficiencyAtPeak()) + " / "
                            + Format.percent(c.summary.requestEfficiencyAtMaxLoad())),
            new Section("Latency efficiency against static, at the peak / at the maximum load  [Table 6]",
                    c -> Format.percent(c.summary.latencyEfficiencyAtPeak()) + " / "
                            + Format.percent(c.summary.latencyEfficiencyAtMaxLoad())),
            new Section("Server CPU per request at the peak, microseconds",
                    c -> Format.num(c.summary.serverCpuUsPerReqAtPeak(), 0)),
            new Section("Useful peak, req/s @ clients (fair and under the latency bound)",
                    c -> Format.at(c.summary.usefulPeakRps(), c.summary.usefulPeakClients())));

    static String text(Comparison comparison) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "SPICE server comparison, %d-byte body: %s%n", comparison.bodyBytes(),
                String.join(", ", comparison.servers())));
        for (Section section : SECTIONS) {
            out.append('\n').append(section.title).append('\n');
            out.append(String.format(Locale.ROOT, "%-9s", "probe"));
            for (String server : comparison.servers()) {
                out.append(String.format(Locale.ROOT, " %26s", server));
            }
            out.append('\n');
            for (String probe : comparison.probes()) {
                out.append(String.format(Locale.ROOT, "%-9s", probe));
                for (String cell : cells(comparison, probe, section)) {
                    out.append(String.format(Locale.ROOT, " %26s", cell));
                }
                out.append('\n');
            }
        }
        return out.toString();
    }

    static String html(Comparison comparison, byte[] ratePng, byte[] cpuPng) {
        StringBuilder h = new StringBuilder(16_384);
        h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>SPICE server comparison</title>\n")
                .append("<style>body{font-family:sans-serif;margin:2em;max-width:1200px}table{border-collapse:collapse;")
                .append("margin:1em 0}td,th{border:1px solid #bbb;padding:3px 8px;text-align:right}th{background:#eee}")
                .append("td.l,th.l{text-align:left}</style></head><body>\n");
        h.append("<h1>SPICE server comparison</h1>\n<p>").append(comparison.bodyBytes()).append("-byte body; servers: ")
                .append(HtmlReport.esc(String.join(", ", comparison.servers())))
                .append(". Each server's own report is in its folder beside this page.</p>\n");
        for (Section section : SECTIONS) {
            h.append("<h2>").append(HtmlReport.esc(section.title)).append("</h2>\n<table><tr><th class=\"l\">probe</th>");
            for (String server : comparison.servers()) {
                h.append("<th>").append(HtmlReport.esc(server)).append("</th>");
            }
            h.append("</tr>\n");
            for (String probe : comparison.probes()) {
                h.append("<tr><td class=\"l\">").append(HtmlReport.esc(probe)).append("</td>");
                for (String cell : cells(comparison, probe, section)) {
                    h.append("<td>").append(HtmlReport.esc(cell)).append("</td>");
                }
                h.append("</tr>\n");
            }
            h.append("</table>\n");
        }
        h.append("<h2>Figures</h2>\n");
        HtmlReport.image(h, "compare-rate.png", ratePng, "peak request rate per probe and server");
        HtmlReport.image(h, "compare-cpu.png", cpuPng, "server CPU per request at the peak");
        return h.append("</body></html>\n").toString();
    }

    static byte[] rateChart(Comparison comparison) throws IOException {
        return bars(comparison, "Peak request rate", "requests/second", SpiceFigures.Summary::peakRateRps);
    }

    static byte[] cpuChart(Comparison comparison) throws IOException {
        return bars(comparison, "Server CPU per request at the peak", "microseconds", SpiceFigures.Summary::serverCpuUsPerReqAtPeak);
    }

    private static byte[] bars(Comparison comparison, String title, String yTitle,
            java.util.function.ToDoubleFunction<SpiceFigures.Summary> value) throws IOException {
        CategoryChart chart = new CategoryChartBuilder().width(900).height(480).title(title).xAxisTitle("probe")
                .yAxisTitle(yTitle).build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        for (String server : comparison.servers()) {
            List<Double> ys = comparison.probes().stream().map(p -> comparison.summary(server, p))
                    .map(s -> s == null || Double.isNaN(value.applyAsDouble(s)) ? 0.0 : value.applyAsDouble(s)).toList();
            chart.addSeries(server, comparison.probes(), ys);
        }
        return BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG);
    }

    private static String[] cells(Comparison comparison, String probe, Section section) {
        List<String> servers = comparison.servers();
        double[] rateTimes = comparison.rateTimesSlowest(probe);
        double[] latencyTimes = comparison.latencyTimesSlowest(probe);
        String[] cells = new String[servers.size()];
        for (int i = 0; i < cells.length; i++) {
            SpiceFigures.Summary s = comparison.summary(servers.get(i), probe);
            cells[i] = s == null ? "not run" : section.cell.apply(new Cell(s, rateTimes[i], latencyTimes[i]));
        }
        return cells;
    }

    private static String times(double ratio) {
        return Format.num(ratio, 2) + "x";
    }
}
