package org.spice.bench.report;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.knowm.xchart.XYChart;
import org.spice.bench.analysis.CostFigures;
import org.spice.bench.model.CostCurve;
import org.spice.bench.model.CpuRounds;

/**
 * The cost curve's answer (--profile cost): each probe's CPU per request at each of its rates with its interval, and
 * its marginal cost, with a sentence per probe that says where the line holds (straight), where it bends (the server
 * serves several requests a wake-up as the rate rises) and where the server saturated.
 */
public final class CostReport {

    static final String CHART = "cost-curve.png";
    static final String LEGEND = "open loop: a request due every 1/rate seconds whatever the server does; cpu µs/req:"
            + " the server's CPU over a slice / the requests it answered, the rounds' mean and its 95 % interval (Student's"
            + " t); marginal: in each round, the least-squares slope of the server's CPU seconds a second against its"
            + " requests a second over the rates held, then the rounds' mean and interval: the CPU of one more request;"
            + " line at 0: its CPU at 0 req/s, an extrapolation; bend: round by round the slope over the line's first two"
            + " rates less that over its last two, the mean and interval; shape: bends where that interval leaves out 0,"
            + " straight where it lies within " + Math.round(100 * CostFigures.STRAIGHT) + " % of the marginal cost,"
            + " unknown between; segment: the slope between two neighbouring"
            + " rates; a slice counts when at most 0.1 % of its requests failed and the"
            + " open loop was at most " + Math.round(CpuRounds.LAG_LIMIT_MS) + " ms late at p99; held: at least half"
            + " of a rate's slices achieved " + Math.round(100 * CostFigures.HELD) + " % of it";

    private CostReport() {
    }

    /** A round's line on stderr: each probe's marginal cost so far. */
    public static String progress(int round, CostCurve curve) {
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "[cost round %d]", round));
        for (CostCurve.Marginal m : curve.marginals()) {
            line.append(' ').append(m.probe()).append(" marginal ").append(Format.num(m.marginalUs(), 1)).append(" µs")
                    .append(Double.isNaN(m.marginalUsCi()) ? "" : " " + Format.percentOf(m.marginalUsCi(), m.marginalUs()));
        }
        return line.toString();
    }

    /** One sentence per probe: its marginal cost, where it holds and where it does not. */
    public static List<String> sentences(CostCurve curve) {
        List<String> sentences = new ArrayList<>();
        for (CostCurve.Marginal m : curve.marginals()) {
            String span = "from " + Format.num(m.fromRps(), 0) + " to " + Format.num(m.toRps(), 0) + " req/s";
            String ci = Double.isNaN(m.marginalUsCi()) ? " (too few rounds for an interval)"
                    : " " + Format.percentOf(m.marginalUsCi(), m.marginalUs());
            StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "%s: one more request costs the server %s µs"
                    + " of CPU%s %s", m.probe(), Format.num(m.marginalUs(), 1), ci, span));
            List<CostCurve.Segment> inLine = m.segments().stream().filter(g -> g.fromRps() >= m.fromRps()).toList();
            CostCurve.Segment first = inLine.get(0);
            CostCurve.Segment last = inLine.get(inLine.size() - 1);
            String slopes = String.format(Locale.ROOT, "%s µs a request from %s to %s req/s, %s µs from %s to %s",
                    Format.num(first.slopeUs(), 1), Format.num(first.fromRps(), 0), Format.num(first.toRps(), 0),
                    Format.num(last.slopeUs(), 1), Format.num(last.fromRps(), 0), Format.num(last.toRps(), 0));
            String bend = Format.num(m.bendUs(), 1) + " ± " + Format.num(m.bendUsCi(), 1) + " µs";
            switch (m.shape()) {
                case UNTESTED -> s.append(", a line through two rates: whether the curve is straight is not known");
                case STRAIGHT -> s.append(", where its curve is straight (" + slopes + ": " + bend + " apart, paired by"
                        + " round, within " + Math.round(100 * CostFigures.STRAIGHT) + " % of the line's slope)");
                case BENDS -> s.append(", but the curve bends there (" + slopes + ": " + bend + " apart, paired by"
                        + " round), so the line is an average and one more request costs " + (m.bendUs() > 0 ? "less"
                        : "more") + " the higher the rate");
                case UNKNOWN -> s.append(", but whether the curve is straight there the rounds cannot tell (" + slopes
                        + ": " + bend + " apart, paired by round; more rounds, --cost-rounds, would tell)");
            }
            m.segments().stream().filter(g -> g.toRps() <= m.fromRps()).forEach(g -> s.append(String.format(Locale.ROOT,
                    "; from %s to %s req/s a request cost %s µs more", Format.num(g.fromRps(), 0), Format.num(g.toRps(), 0),
                    Format.num(g.slopeUs(), 1))));
            curve.points().stream().filter(p -> p.probe().equals(m.probe()) && !p.held()).forEach(p -> s.append(
                    String.format(Locale.ROOT, "; at %s req/s offered it achieved %s: saturated, left out",
                            Format.num(p.offeredRps(), 0), Format.num(p.achievedRps(), 0))));
            sentences.add(s.append('.').toString());
        }
        return sentences;
    }

    /** The table, the sentences and the legend; nothing without a curve. */
    public static String text(CostCurve curve) {
        if (curve == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "%n%s%n", title(curve)));
        out.append(CrossTable.columns(points(curve)));
        out.append(CrossTable.columns(marginals(curve)));
        sentences(curve).forEach(s -> out.append(s).append('\n'));
        return out.append(LEGEND).append('\n').toString();
    }

    /** The report's section. */
    static void html(StringBuilder h, CostCurve curve, List<Charts.Figure> figures) {
        if (curve == null) {
            return;
        }
        h.append("<section id=\"cost-curve\"><h2>The cost curve</h2>\n<p>").append(HtmlReport.esc(title(curve)))
                .append("</p>\n");
        HtmlReport.figure(h, figures, CHART);
        for (String sentence : sentences(curve)) {
            h.append("<p>").append(HtmlReport.esc(sentence)).append("</p>\n");
        }
        HtmlReport.table(h, marginals(curve));
        HtmlReport.table(h, points(curve));
        h.append("<p>").append(HtmlReport.esc(LEGEND)).append("</p></section>\n");
    }

    /** The chart: CPU per request against the rate achieved, each probe a line with its intervals, log scales. */
    static List<Charts.Figure> figures(CostCurve curve) throws IOException {
        if (curve == null || curve.points().isEmpty()) {
            return List.of();
        }
        XYChart chart = Charts.xy("SPICE cost curve: server CPU per request against the rate",
                "requests/second achieved, open loop (log scale)", "server CPU µs per request, log scale (bars: 95 %)", 7);
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setYAxisLogarithmic(true);
        double low = Double.MAX_VALUE;
        double high = 0;
        for (String probe : curve.points().stream().map(CostCurve.Point::probe).distinct().toList()) {
            List<CostCurve.Point> at = curve.points().stream()
                    .filter(p -> p.probe().equals(probe) && p.cpuUsPerReq() > 0 && p.achievedRps() > 0).toList();
            if (at.isEmpty()) {
                continue;
            }
            double[] y = at.stream().mapToDouble(CostCurve.Point::cpuUsPerReq).toArray();
            double[] bars = at.stream().mapToDouble(p -> Double.isNaN(p.cpuUsPerReqCi()) ? 0
                    : Math.min(p.cpuUsPerReqCi(), 0.9 * p.cpuUsPerReq())).toArray();
            for (int i = 0; i < y.length; i++) {
                low = Math.min(low, y[i] - bars[i]);
                high = Math.max(high, y[i] + bars[i]);
            }
            chart.addSeries(probe, at.stream().mapToDouble(CostCurve.Point::achievedRps).toArray(), y, bars);
        }
        if (chart.getSeriesMap().isEmpty()) {
            return List.of();
        }
        double[] range = Charts.decades(low, high);
        chart.getStyler().setYAxisMin(range[0]);
        chart.getStyler().setYAxisMax(range[1]);
        return List.of(new Charts.Figure(CHART, "server CPU per request against the rate, each probe open loop at"
                + " fractions of its peak (log scales; bars: 95 % intervals)", Charts.png(chart)));
    }

    private static String title(CostCurve curve) {
        return String.format(Locale.ROOT, "The cost curve, open loop: each probe at %s of its own peak, %d rounds of %s s"
                + " slices (stopped: %s); the marginal cost's line from %s of the peak up, over the rates held",
                Format.list(curve.fractions().stream().map(Format::percentWords).toList()), curve.rounds(),
                Format.num(curve.sliceS(), 1), curve.stoppedBy(), Format.percentWords(curve.fitFrom()));
    }

    private static List<String[]> points(CostCurve curve) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"probe", "× peak", "offered", "achieved", "cpu µs/req", "±", "rounds", "held"});
        for (CostCurve.Point p : curve.points()) {
            rows.add(new String[] {p.probe(), Format.num(p.fraction(), 2), Format.num(p.offeredRps(), 0),
                Format.num(p.achievedRps(), 0), Format.num(p.cpuUsPerReq(), 1),
                Double.isNaN(p.cpuUsPerReqCi()) ? "" : Format.percentOf(p.cpuUsPerReqCi(), p.cpuUsPerReq()),
                Integer.toString(p.rounds()), p.held() ? "yes" : "SATURATED"});
        }
        return rows;
    }

    private static List<String[]> marginals(CostCurve curve) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"probe", "marginal µs/req", "±", "from req/s", "to req/s", "line at 0 ms/s", "bend µs",
            "±", "shape"});
        for (CostCurve.Marginal m : curve.marginals()) {
            rows.add(new String[] {m.probe(), Format.num(m.marginalUs(), 1),
                Double.isNaN(m.marginalUsCi()) ? "" : Format.percentOf(m.marginalUsCi(), m.marginalUs()),
                Format.num(m.fromRps(), 0), Format.num(m.toRps(), 0), Format.num(m.atZeroMsPerS(), 1),
                Format.num(m.bendUs(), 1), Format.plusMinus(m.bendUsCi(), 1),
                m.shape().toString()});
        }
        return rows;
    }
}
