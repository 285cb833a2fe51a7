package org.spice.bench.report;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

import org.knowm.xchart.XYChart;
import org.spice.bench.model.LatencyProfile;
import org.spice.bench.model.OpenLoopRun;

/**
 * The latency profile's charts: each probe's latency against the load offered to it, open loop, from a tenth of its
 * peak to past it (the hockey stick), on log scales so that CGI's milliseconds and a module's tenths share a chart;
 * the common rates drawn as points on the same lines.
 */
final class LatencyCharts {

    static final String P99 = "latency-p99.png";
    static final String P50 = "latency-p50.png";

    private LatencyCharts() {
    }

    /** Both charts, or none without a profile that has curves or common rates. */
    static List<Charts.Figure> all(LatencyProfile profile) throws IOException {
        List<Charts.Figure> figures = new ArrayList<>();
        if (profile == null || profile.curves().isEmpty() && profile.common().isEmpty()) {
            return figures;
        }
        figures.add(new Charts.Figure(P99, "p99 latency against offered load, open loop (log scales)",
                chart(profile, "p99", OpenLoopRun::p99Ms, LatencyProfile.AtRate::p99Ms)));
        figures.add(new Charts.Figure(P50, "p50 latency against offered load, open loop (log scales)",
                chart(profile, "p50", OpenLoopRun::p50Ms, LatencyProfile.AtRate::p50Ms)));
        return figures;
    }

    private static byte[] chart(LatencyProfile profile, String percentile, ToDoubleFunction<OpenLoopRun> curveY,
            ToDoubleFunction<LatencyProfile.AtRate> commonY) throws IOException {
        XYChart chart = Charts.xy("SPICE " + percentile + " latency against offered load, open loop",
                "offered requests/second (log scale)", percentile + " latency, ms, log scale (smaller is better)", 7);
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setYAxisLogarithmicDecadeOnly(true);
        double low = Double.MAX_VALUE;
        double high = 0;
        for (LatencyProfile.Peak peak : profile.peaks()) {
            List<double[]> points = new ArrayList<>();
            profile.curves().stream().filter(r -> r.probe().equals(peak.probe()) && curveY.applyAsDouble(r) > 0)
                    .forEach(r -> points.add(new double[] {r.offeredRps(), curveY.applyAsDouble(r)}));
            profile.common().stream().filter(f -> f.probe().equals(peak.probe()) && commonY.applyAsDouble(f) > 0)
                    .forEach(f -> points.add(new double[] {f.offeredRps(), commonY.applyAsDouble(f)}));
            if (points.isEmpty()) {
                continue;
            }
            points.sort((a, b) -> Double.compare(a[0], b[0]));
            for (double[] p : points) {
                low = Math.min(low, p[1]);
                high = Math.max(high, p[1]);
            }
            chart.addSeries(peak.probe(), points.stream().mapToDouble(p -> p[0]).toArray(),
                    points.stream().mapToDouble(p -> p[1]).toArray());
        }
        if (chart.getSeriesMap().isEmpty()) {
            chart.addSeries("no data", new double[] {1}, new double[] {1});
        } else {
            double[] range = Charts.decades(low, high);
            chart.getStyler().setYAxisMin(range[0]);
            chart.getStyler().setYAxisMax(range[1]);
        }
        return Charts.png(chart);
    }
}
