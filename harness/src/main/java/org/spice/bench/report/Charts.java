package org.spice.bench.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.spice.bench.figures.LatencySummary;
import org.spice.bench.figures.SpiceFigures;
import org.spice.bench.model.Overload;
import org.spice.bench.model.Results;
import org.spice.bench.model.RunRecord;
import org.spice.page.Probe;

/**
 * The report's figures, drawn by XChart: what each interface costs in server CPU (bars), the white paper's
 * two figures (request rate and mean latency against clients, every mix including those after the peak,
 * on log scales so a slow probe does not flatten the others), and at each probe's peak the latency
 * percentile distribution and the per-client rates.
 */
public final class Charts {

    static {
        // XChart draws with Java2D; the harness runs on servers without a display.
        System.setProperty("java.awt.headless", "true");
    }

    public static final int WIDTH = 900;
    public static final int HEIGHT = 480;

    private Charts() {
    }

    /** One figure: its file name, what it shows, and the PNG. */
    record Figure(String file, String caption, byte[] png) {
    }

    /**
     * Okabe and Ito's palette, told apart with every kind of colour vision (their yellow left out: too pale on white);
     * each series also has a marker. Eight colours and seven markers, counts with no common factor: a series takes the
     * next of each, so that with more probes than colours (a dozen on httpd) no two series share both before the 57th.
     */
    static final Color[] COLOURS = {new Color(0x0072B2), new Color(0xD55E00), new Color(0x009E73), new Color(0xCC79A7),
        new Color(0xE69F00), new Color(0x56B4E9), Color.BLACK, new Color(0x999999)};
    static final Marker[] MARKERS = {SeriesMarkers.CIRCLE, SeriesMarkers.DIAMOND, SeriesMarkers.SQUARE,
        SeriesMarkers.TRIANGLE_UP, SeriesMarkers.TRIANGLE_DOWN, SeriesMarkers.CROSS, SeriesMarkers.PLUS};

    /** Every figure of the report; the CPU chart only when some probe has a CPU figure (an import may have none). */
    static List<Figure> all(Results results, CgiFloor floor) throws IOException {
        List<Figure> figures = new ArrayList<>();
        if (results.cpuRounds() != null && results.summary().stream().anyMatch(s -> s.rounds().measured())) {
            figures.add(new Figure("cpu.png", "server CPU per request against the static file's, from the paired rounds",
                    cpuRatios(results)));
        } else if (hasCpu(results)) {
            figures.add(new Figure("cpu.png", "server CPU per request by probe at its peak", cpu(results, floor)));
        }
        figures.add(new Figure("rate.png", "request rate against clients", rate(results)));
        figures.add(new Figure("latency.png", "mean latency against clients (log scale)", latency(results)));
        figures.add(new Figure("percentiles.png", "latency percentile distribution at each probe's peak", percentiles(results)));
        figures.add(new Figure("clients.png", "per-client request rates at each probe's peak", clientRates(results)));
        return figures;
    }

    /** True when some probe has a server CPU figure. */
    static boolean hasCpu(Results results) {
        return results.summary().stream().anyMatch(s -> !Double.isNaN(s.cpuUsPerReqAtPeak()));
    }

    /** Server CPU per request at the peak; the CGI bar split into starting the program and the rest when the floor is known. */
    static byte[] cpu(Results results, CgiFloor floor) throws IOException {
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT)
                .title("What an interface costs: server CPU per request — " + results.target())
                .xAxisTitle("probe").yAxisTitle("microseconds per request (smaller is better)").build();
        style(chart);
        chart.getStyler().setStacked(true);
        chart.getStyler().setLabelsVisible(false);
        List<String> probes = new ArrayList<>();
        List<String> machine = new ArrayList<>();
        List<Double> work = new ArrayList<>();
        List<Double> start = new ArrayList<>();
        List<Double> intervals = new ArrayList<>();
        for (SpiceFigures.Summary s : results.summary()) {
            if (Double.isNaN(s.cpuUsPerReqAtPeak())) {
                continue;
            }
            // The probe alone under its bar (longer labels ran into each other); the measure goes in the axis title.
            probes.add(s.probe());
            if (s.cpuSource() == SpiceFigures.CpuSource.MACHINE) {
                machine.add(s.probe());
            }
            double starting = floor != null && s.probe().equals(Probe.CGI.id()) ? Math.min(floor.startCpuUs(), s.cpuUsPerReqAtPeak()) : 0;
            work.add(s.cpuUsPerReqAtPeak() - starting);
            start.add(starting);
            double ci = s.noise().cpuUsPerReqAtPeakCi();
            intervals.add(Double.isNaN(ci) ? 0.0 : ci);
        }
        chart.setXAxisTitle(machine.isEmpty() ? "probe" : "probe (mach, the whole machine less the client, for "
                + String.join(", ", machine) + ")");
        if (probes.size() > 6) {
            chart.getStyler().setXAxisLabelRotation(probes.size() > 9 ? 45 : 30);
            // the legend below the bars, so that a dozen of them have the chart's whole width
            chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        }
        if (probes.isEmpty()) {
            chart.addSeries("no CPU measured", List.of("none"), List.of(0.0));
        } else {
            if (floor == null && intervals.stream().anyMatch(ci -> ci > 0)) {
                chart.getStyler().setStacked(false);
                chart.addSeries("the server's CPU per request, with its 95 % interval", probes, work, intervals);
            } else {
                chart.addSeries(floor == null ? "the server's CPU per request" : "the server's work (CGI: its plumbing)", probes, work);
            }
            if (floor != null) {
                chart.addSeries("starting the CGI program (fork+exec+wait, cgi-floor)", probes, start);
            }
        }
        return png(chart);
    }

    /** Ratios above this are drawn to it and labelled with their value, so that 0.9 and 1.1 stay apart on the axis. */
    static final double RATIO_AXIS = 2;

    /**
     * Each probe's server CPU per request against the static file's, from the paired rounds, with its 95 % interval,
     * and the static file's 1 drawn across: a linear axis up to {@link #RATIO_AXIS} (CGI at thirty times would flatten
     * every resident probe to the floor), a probe beyond it drawn to the top and its ratio in its label.
     */
    static byte[] cpuRatios(Results results) throws IOException {
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT)
                .title("Server CPU per request, × the static file's")
                .xAxisTitle("probe (" + results.cpuRounds().counted() + " paired rounds at "
                        + results.cpuRounds().load() + "; bars: 95 % intervals; line: the static file, 1)")
                .yAxisTitle("× the static file's CPU per request").build();
        style(chart);
        // The axis titles say what the bars and the line are: a legend would only repeat them, and take the width.
        chart.getStyler().setLegendVisible(false);
        chart.getStyler().setLabelsVisible(false);
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setYAxisMax(RATIO_AXIS);
        List<String> probes = new ArrayList<>();
        List<Double> ratios = new ArrayList<>();
        List<Double> intervals = new ArrayList<>();
        for (SpiceFigures.Summary s : results.summary()) {
            SpiceFigures.Rounds r = s.rounds();
            if (!r.measured() || r.cpuRatio() == null || Double.isNaN(r.cpuRatio())) {
                continue;
            }
            boolean beyond = r.cpuRatio() > RATIO_AXIS;
            probes.add(beyond ? s.probe() + " " + Format.ratio(r.cpuRatio()) + " ×" : s.probe());
            ratios.add(Math.min(r.cpuRatio(), RATIO_AXIS));
            intervals.add(beyond || Double.isNaN(r.cpuRatioCi()) ? 0.0 : r.cpuRatioCi());
        }
        // Labels of probes past the axis carry their ratio: turned, so that neighbours do not run into each other.
        int longest = probes.stream().mapToInt(String::length).max().orElse(0);
        if (probes.size() > 6 || longest * probes.size() > 60) {
            chart.getStyler().setXAxisLabelRotation(probes.size() > 9 ? 45 : 30);
        }
        if (probes.isEmpty()) {
            chart.addSeries("no ratio measured", List.of("none"), List.of(0.0));
        } else {
            chart.addSeries("the probe's CPU per request / the static file's, with its 95 % interval", probes, ratios,
                    intervals);
            referenceLine(chart, 1.0);
        }
        return png(chart);
    }

    /**
     * A line across the whole plot at {@code value}: the reference every bar is read against. (A line series beside
     * the bars stood in each category's next slot, so that it began at the second group of bars and ended short.)
     */
    public static void referenceLine(CategoryChart chart, double value) {
        chart.getStyler().setAnnotationLineColor(Color.DARK_GRAY).setAnnotationLineStroke(new BasicStroke(1.5f));
        chart.addAnnotation(new AnnotationLine(value, false, false));
    }

    static byte[] rate(Results results) throws IOException {
        XYChart chart = ladder(results, "SPICE request rate", "requests/second (larger is better)", SpiceFigures.Point::rateRps);
        chart.getStyler().setYAxisMin(0.0);
        return png(chart);
    }

    static byte[] latency(Results results) throws IOException {
        XYChart chart = ladder(results, "SPICE latency", "mean latency, ms, log scale (smaller is better)",
                SpiceFigures.Point::meanLatencyMs);
        chart.getStyler().setYAxisLogarithmic(true);
        // Decades only (every tick between them labelled, 0.06 0.07 0.08 0.09 ran into each other), the axis
        // running from the decade below the lowest figure to the decade above the highest, so two labels at least.
        chart.getStyler().setYAxisLogarithmicDecadeOnly(true);
        java.util.DoubleSummaryStatistics means = java.util.stream.Stream.concat(results.runs().stream().filter(r -> !r.failed()),
                results.overload().stream().flatMap(o -> o.steps().stream()).filter(st -> st.excluded() == null)
                        .map(Overload.Step::run)).filter(r -> r.latency().meanMs() > 0)
                .mapToDouble(r -> r.latency().meanMs()).summaryStatistics();
        if (means.getCount() > 0) {
            double[] range = decades(means.getMin(), means.getMax());
            chart.getStyler().setYAxisMin(range[0]);
            chart.getStyler().setYAxisMax(range[1]);
        }
        return png(chart);
    }

    /**
     * Rate or latency against clients, one line per probe, every mix that counted. The ladder doubles, so x
     * is log2(clients), labelled with the client counts (XChart's log axis labels decades only).
     */
    private static XYChart ladder(Results results, String title, String yTitle, ToDoubleFunction<SpiceFigures.Point> y) {
        XYChart chart = xy(title + " — " + results.target(), "clients (log scale)", yTitle, 7);
        chart.getStyler().setxAxisTickLabelsFormattingFunction(Charts::clientsLabel);
        boolean any = false;
        for (String probe : probes(results)) {
            List<SpiceFigures.Point> points = SpiceFigures.combineRepeats(results.runs().stream()
                    .filter(r -> r.probe().equals(probe)).map(RunRecord::point).toList())
                    .stream().filter(p -> !p.failed() && y.applyAsDouble(p) > 0).toList();
            if (points.isEmpty()) {
                continue;
            }
            int index = chart.getSeriesMap().size();
            chart.addSeries(probe, points.stream().mapToDouble(p -> Math.log(p.clients()) / Math.log(2)).toArray(),
                    points.stream().mapToDouble(y).toArray());
            pastThePeak(chart, results, probe, y, index);
            any = true;
        }
        if (!any) {
            chart.addSeries("no data", new double[] {0}, new double[] {1});
        }
        return chart;
    }

    /**
     * The overload profile's steps of {@code probe}, as a dashed line in the probe's own colour and marker beside its
     * ladder, named with the multiples it went to; the steps this client set the pace of are left out.
     */
    private static void pastThePeak(XYChart chart, Results results, String probe, ToDoubleFunction<SpiceFigures.Point> y,
            int index) {
        for (Overload o : results.overload()) {
            List<Overload.Step> steps = o.probe().equals(probe) ? o.steps().stream()
                    .filter(s -> s.excluded() == null && y.applyAsDouble(s.run().point()) > 0).toList() : List.of();
            if (steps.size() < 2) {
                continue;
            }
            // The probe's own series took the colour and marker of its place; this one repeats them, dashed.
            chart.getSeriesMap().get(probe).setLineColor(COLOURS[index % COLOURS.length]);
            XYSeries past = chart.addSeries(probe + " past its peak (" + String.join(", ", steps.stream()
                    .map(s -> s.multiple() + " ×").toList()) + ")",
                    steps.stream().mapToDouble(s -> Math.log(s.clients()) / Math.log(2)).toArray(),
                    steps.stream().mapToDouble(s -> y.applyAsDouble(s.run().point())).toArray());
            past.setLineStyle(SeriesLines.DASH_DASH);
            past.setLineColor(COLOURS[index % COLOURS.length]);
            past.setMarkerColor(COLOURS[index % COLOURS.length]);
            past.setMarker(MARKERS[index % MARKERS.length]);
        }
    }

    /**
     * HdrHistogram's percentile distribution at each probe's peak: x is the number of nines (0 = 0 %,
     * 1 = 90 %, 2 = 99 %, 3 = 99.9 %), so the tail has room; y in ms on a log scale.
     */
    static byte[] percentiles(Results results) throws IOException {
        XYChart chart = xy("Latency by percentile at each probe's peak — " + results.target(),
                "nines of the percentile: 1 = 90 %, 2 = 99 %, 3 = 99.9 %, 4 = 99.99 %", "latency, ms, log scale", 0);
        chart.getStyler().setYAxisLogarithmic(true);
        // (XChart's tick search does not end with a label function on this axis: the title says what x is.)
        boolean any = false;
        for (RunRecord peak : ReportData.peakRuns(results)) {
            List<LatencySummary.Percentile> distribution = peak.latency().distribution().stream()
                    .filter(p -> p.percentile() < 100 && p.ms() > 0).toList();
            if (distribution.size() < 2) {
                continue;
            }
            chart.addSeries(peak.probe() + " @" + peak.clients(),
                    distribution.stream().mapToDouble(p -> nines(p.percentile())).toArray(),
                    distribution.stream().mapToDouble(LatencySummary.Percentile::ms).toArray());
            any = true;
        }
        if (!any) {
            chart.addSeries("no distribution recorded", new double[] {0}, new double[] {1});
        }
        return png(chart);
    }

    /** Each client's rate at the probe's peak divided by the mean, sorted: a flat line at 1 is fairness. */
    static byte[] clientRates(Results results) throws IOException {
        XYChart chart = xy("Per-client request rate at each probe's peak — " + results.target(),
                "clients, slowest to fastest (% of the clients)", "client's rate / mean rate (1 = fair)", 5);
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setXAxisDecimalPattern("#0");
        boolean any = false;
        for (RunRecord peak : ReportData.peakRuns(results)) {
            double[] rates = peak.clientRates().clone();
            double mean = Arrays.stream(rates).filter(r -> !Double.isNaN(r)).average().orElse(Double.NaN);
            if (rates.length == 0 || !(mean > 0)) {
                continue;
            }
            Arrays.sort(rates);
            double[] xs = new double[rates.length];
            double[] ys = new double[rates.length];
            for (int i = 0; i < rates.length; i++) {
                xs[i] = rates.length == 1 ? 50 : 100.0 * i / (rates.length - 1);
                ys[i] = rates[i] / mean;
            }
            chart.addSeries(peak.probe() + " @" + peak.clients(), xs, ys);
            any = true;
        }
        if (!any) {
            chart.addSeries("no per-client data", new double[] {0}, new double[] {0});
        }
        return png(chart);
    }

    /** The client count at log2 position x, or nothing between the ladder's steps. */
    /** The powers of ten just below {@code min} and just above {@code max} (a decade apart at least). */
    static double[] decades(double min, double max) {
        double low = Math.pow(10, Math.floor(Math.log10(min) + 1e-9));
        double high = Math.pow(10, Math.ceil(Math.log10(max) - 1e-9));
        return new double[] {low, Math.max(high, low * 10)};
    }

    static String clientsLabel(double log2) {
        double clients = Math.pow(2, log2);
        return Math.abs(clients - Math.rint(clients)) < 1e-6 && Math.abs(log2 - Math.rint(log2)) < 1e-6
                ? String.format(Locale.ROOT, "%.0f", clients) : " ";
    }

    static double nines(double percentile) {
        return -Math.log10(1 - percentile / 100);
    }

    private static List<String> probes(Results results) {
        List<String> probes = new ArrayList<>();
        for (RunRecord run : results.runs()) {
            if (!probes.contains(run.probe())) {
                probes.add(run.probe());
            }
        }
        return probes;
    }

    static XYChart xy(String title, String xTitle, String yTitle, int markerSize) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        style(chart);
        chart.getStyler().setMarkerSize(markerSize);
        return chart;
    }

    public static void style(Chart<?, ?> chart) {
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setSeriesColors(COLOURS);
        chart.getStyler().setSeriesMarkers(MARKERS);
    }

    public static byte[] png(Chart<?, ?> chart) throws IOException {
        return BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG);
    }

}
