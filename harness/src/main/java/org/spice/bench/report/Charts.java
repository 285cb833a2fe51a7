package org.spice.bench.report;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;
import org.spice.bench.stats.RunRecord;
import org.spice.bench.stats.SpiceFigures;

/**
 * The two figures of the white paper for one run: request rate against clients and mean latency against
 * clients, every probe on the same chart. Every mix that ran is plotted, including those after the peak:
 * how a server behaves in overload is part of the result. Failed mixes have no point.
 */
final class Charts {

    static {
        // XChart draws with Java2D; the harness runs on servers without a display.
        System.setProperty("java.awt.headless", "true");
    }

    private static final int WIDTH = 900;
    private static final int HEIGHT = 520;

    private Charts() {
    }

    static byte[] rate(Results results) throws IOException {
        return chart(results, "SPICE request rate", "requests/second (larger is better)", SpiceFigures.Point::rateRps);
    }

    static byte[] latency(Results results) throws IOException {
        return chart(results, "SPICE latency", "mean latency, ms (smaller is better)", SpiceFigures.Point::meanLatencyMs);
    }

    private static byte[] chart(Results results, String title, String yTitle, ToDoubleFunction<SpiceFigures.Point> y)
            throws IOException {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title + " — " + results.target())
                .xAxisTitle("clients").yAxisTitle(yTitle).build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setMarkerSize(7);
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        List<String> probes = new ArrayList<>();
        for (RunRecord run : results.runs()) {
            if (!probes.contains(run.probe())) {
                probes.add(run.probe());
            }
        }
        boolean any = false;
        for (String probe : probes) {
            List<SpiceFigures.Point> points = SpiceFigures.combineRepeats(results.runs().stream()
                    .filter(r -> r.probe().equals(probe)).map(RunRecord::point).toList())
                    .stream().filter(p -> !p.failed()).toList();
            if (points.isEmpty()) {
                continue;
            }
            double[] xs = points.stream().mapToDouble(SpiceFigures.Point::clients).toArray();
            double[] ys = points.stream().mapToDouble(y).toArray();
            chart.addSeries(probe, xs, ys);
            any = true;
        }
        if (!any) {
            chart.addSeries("no data", new double[] {0}, new double[] {0});
        }
        return BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG);
    }
}
