package org.spice.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.spice.bench.model.Across;
import org.spice.bench.model.CpuRounds;

/**
 * Servers side by side as a page, DIR/report.html: the terminal's tables (one per pair of arms), a chart of every
 * cross ratio with its interval against the line at 1, and the sentences.
 */
public final class CrossReport {

    public static final String FILE = ReportWriter.PAGE;
    /** Ratios past this are drawn to the top, their value in their label (as the CPU chart of one server does). */
    private static final double AXIS = 3;

    private CrossReport() {
    }

    /** Writes DIR/report.html. */
    public static Path write(Path dir, Across figures) throws IOException {
        List<Across.Cross> all = figures.cross();
        CpuRounds rounds = figures.last();
        StringBuilder h = new StringBuilder();
        HtmlReport.head(h, "SPICE: servers side by side");
        h.append("<h1>Servers side by side</h1>\n<p>").append(HtmlReport.esc(CrossTable.title(figures))).append("</p>\n");
        for (Map.Entry<String, List<Across.Cross>> pair : CrossTable.pairs(all).entrySet()) {
            HtmlReport.table(h, CrossTable.rows(pair.getKey(), pair.getValue()));
        }
        if (!figures.own().isEmpty()) {
            h.append("<p>Each against its own static file:</p>\n");
            HtmlReport.table(h, CrossTable.ownRows(figures.own(), figures.starts() > 1));
        }
        h.append("<p>").append(HtmlReport.esc(String.join(" ", CrossTable.LEGEND).replaceAll(" +", " ")))
                .append("</p>\n<ul>\n");
        all.forEach(c -> h.append("<li>").append(HtmlReport.esc(CrossTable.sentence(c))).append("</li>\n"));
        h.append("</ul>\n<p>").append(HtmlReport.esc(CrossTable.checks(figures.checks())))
                .append("</p>\n");
        HtmlReport.image(h, "cross.png", all.isEmpty() ? null : chart(rounds, all), "each probe's CPU per request on one"
                + " server against another's, paired by round, with its 95 % interval");
        h.append("</body></html>\n");
        Path file = dir.resolve(FILE);
        Files.writeString(file, h.toString(), StandardCharsets.UTF_8);
        return file;
    }

    /** A bar per probe and pair of arms: the ratio with its interval; the line at 1 (the same cost on both). */
    static byte[] chart(CpuRounds rounds, List<Across.Cross> all) throws IOException {
        CategoryChart chart = new CategoryChartBuilder().width(900).height(480)
                .title("Server CPU per request, one server against another")
                .xAxisTitle("probe (" + rounds.counted() + " rounds at " + rounds.load()
                        + "; bars: 95 % intervals; line: the same cost on both)")
                .yAxisTitle("a's CPU per request / b's").build();
        Charts.style(chart);
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setYAxisMax(AXIS);
        List<String> probes = all.stream().map(Across.Cross::label).distinct().toList();
        int colour = 0;
        for (Map.Entry<String, List<Across.Cross>> pair : CrossTable.pairs(all).entrySet()) {
            List<Double> ratios = new ArrayList<>();
            List<Double> intervals = new ArrayList<>();
            for (String probe : probes) {
                Across.Cross c = pair.getValue().stream().filter(x -> x.label().equals(probe)).findFirst()
                        .orElse(null);
                boolean shown = c != null && !Double.isNaN(c.ratio());
                ratios.add(shown ? Math.min(c.ratio(), AXIS) : 0.0);
                intervals.add(shown && c.ratio() <= AXIS && !Double.isNaN(c.ratioCi()) ? c.ratioCi() : 0.0);
            }
            chart.addSeries(pair.getKey(), probes, ratios, intervals).setFillColor(
                    Charts.COLOURS[colour++ % Charts.COLOURS.length]);
        }
        Charts.referenceLine(chart, 1.0);
        return Charts.png(chart);
    }
}
