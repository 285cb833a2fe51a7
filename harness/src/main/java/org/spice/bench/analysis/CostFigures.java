package org.spice.bench.analysis;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import org.spice.bench.figures.Intervals;
import org.spice.bench.figures.LinearFit;
import org.spice.bench.model.CostCurve;
import org.spice.bench.model.CpuRounds;

/**
 * The cost curve's figures from its slices: per probe and rate the CPU per request over the rounds, and per probe the
 * marginal cost. The marginal cost is taken round by round (a line through one round's rates, then the rounds' mean)
 * so that its interval is the rounds' spread, as every other SPICE figure's, and a drift between rounds moves every
 * rate of a round alike instead of bending the line.
 */
public final class CostFigures {

    /**
     * A rate is held when at least half its slices that count achieved this share of it (the answers' tail stretches a
     * one-second slice by a few milliseconds): below, the server, or the machine, is saturated.
     */
    public static final double HELD = 0.95;
    /**
     * A slice counts when it failed at most this share of its requests and its open loop was at most
     * {@link CpuRounds#LAG_LIMIT_MS} late at p99: later, the generator, not the rate, set when the requests went out.
     */
    public static final double FAILED = 0.001;
    /**
     * A line is straight when its two ends' slopes differ by at most this share of the marginal cost, within their
     * interval: a bend that small moves the cost of a request less than a server's round-to-round spread here.
     */
    public static final double STRAIGHT = 0.25;

    private CostFigures() {
    }

    /** The curve of {@code slices}: its points and marginal costs, the probes in the given order. */
    public static CostCurve curve(List<Double> fractions, double fitFrom, double sliceS, int rounds, String stoppedBy,
            List<CostCurve.Slice> slices, List<String> probes) {
        return new CostCurve(fractions, fitFrom, sliceS, rounds, stoppedBy, points(slices, probes),
                marginals(slices, probes, fitFrom), slices);
    }

    /** The curve's figures computed again from its slices, as this version computes them (null stays null). */
    public static CostCurve again(CostCurve curve) {
        if (curve == null) {
            return null;
        }
        List<String> probes = java.util.stream.Stream.concat(curve.points().stream().map(CostCurve.Point::probe),
                curve.slices().stream().map(CostCurve.Slice::probe)).distinct().toList();
        return curve(curve.fractions(), curve.fitFrom(), curve.sliceS(), curve.rounds(), curve.stoppedBy(),
                curve.slices(), probes);
    }

    /** The points, in the probes' order then by rate. */
    public static List<CostCurve.Point> points(List<CostCurve.Slice> slices, List<String> probes) {
        List<CostCurve.Point> points = new ArrayList<>();
        for (String probe : probes) {
            byFraction(slices, probe).forEach((fraction, all) -> {
                List<CostCurve.Slice> at = all.stream().filter(CostFigures::counts).toList();
                double[] cpu = at.stream().mapToDouble(CostCurve.Slice::cpuUsPerReq).toArray();
                points.add(new CostCurve.Point(probe, fraction, all.get(0).offeredRps(),
                        mean(at.stream().mapToDouble(CostCurve.Slice::achievedRps).toArray()), at.size(), held(all),
                        mean(cpu), Intervals.halfWidth(cpu)));
            });
        }
        return points;
    }

    /**
     * Each probe's marginal cost over its held rates from {@code fitFrom} up (all its held rates when fewer than two
     * are that high); a probe with fewer than two held rates has none.
     */
    public static List<CostCurve.Marginal> marginals(List<CostCurve.Slice> slices, List<String> probes, double fitFrom) {
        List<CostCurve.Marginal> marginals = new ArrayList<>();
        for (String probe : probes) {
            List<Double> held = byFraction(slices, probe).entrySet().stream().filter(e -> held(e.getValue()))
                    .map(Map.Entry::getKey).toList();
            List<Double> line = held.stream().filter(f -> f >= fitFrom).toList();
            if (line.size() < 2) {
                line = held;
            }
            if (line.size() < 2) {
                continue;
            }
            List<Double> fitted = line;
            Collection<List<CostCurve.Slice>> rounds = byRound(slices, probe).values();
            List<double[]> fits = new ArrayList<>();
            for (List<CostCurve.Slice> round : rounds) {
                List<CostCurve.Slice> in = round.stream().filter(s -> fitted.contains(s.fraction())).toList();
                LinearFit fit = LinearFit.of(in.stream().mapToDouble(CostCurve.Slice::achievedRps).toArray(),
                        in.stream().mapToDouble(CostCurve.Slice::cpuLoad).toArray());
                if (Double.isFinite(fit.slope())) {
                    fits.add(new double[] {fit.slope() * 1e6, fit.intercept() * 1e3});
                }
            }
            double[] slope = fits.stream().mapToDouble(f -> f[0]).toArray();
            double[] zero = fits.stream().mapToDouble(f -> f[1]).toArray();
            double marginal = mean(slope);
            double marginalCi = Intervals.halfWidth(slope);
            double[] bend = bends(rounds, line);
            double bendCi = Intervals.halfWidth(bend);
            marginals.add(new CostCurve.Marginal(probe, rate(slices, probe, line.get(0)),
                    rate(slices, probe, line.get(line.size() - 1)), marginal, marginalCi, mean(zero),
                    Intervals.halfWidth(zero), mean(bend), bendCi, shape(mean(bend), bendCi, marginal),
                    segments(slices, probe, rounds, held)));
        }
        return marginals;
    }

    /**
     * Whether the line holds: it bends where the bend's interval leaves out 0; it is straight where that interval lies
     * within {@link #STRAIGHT} of the marginal cost; between the two the rounds cannot tell (too few, or too noisy).
     */
    static CostCurve.Shape shape(double bend, double bendCi, double marginal) {
        if (Double.isNaN(bend) || Double.isNaN(bendCi)) {
            return CostCurve.Shape.UNTESTED;
        }
        if (Math.abs(bend) > bendCi) {
            return CostCurve.Shape.BENDS;
        }
        return Math.abs(bend) + bendCi <= STRAIGHT * Math.abs(marginal) ? CostCurve.Shape.STRAIGHT
                : CostCurve.Shape.UNKNOWN;
    }

    /**
     * Round by round, the slope over the line's first two rates less that over its last two: paired, so that a bend
     * shows against the rounds' spread rather than against each segment's own, wider one. None with two rates.
     */
    private static double[] bends(Collection<List<CostCurve.Slice>> rounds, List<Double> line) {
        if (line.size() < 3) {
            return new double[0];
        }
        List<Double> bends = new ArrayList<>();
        for (List<CostCurve.Slice> round : rounds) {
            double low = slope(round, line.get(0), line.get(1));
            double high = slope(round, line.get(line.size() - 2), line.get(line.size() - 1));
            if (Double.isFinite(low) && Double.isFinite(high)) {
                bends.add(low - high);
            }
        }
        return bends.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /** One round's slope between two of its rates, µs a request; NaN if either slice is missing. */
    private static double slope(List<CostCurve.Slice> round, double low, double high) {
        CostCurve.Slice a = round.stream().filter(s -> s.fraction() == low).findFirst().orElse(null);
        CostCurve.Slice b = round.stream().filter(s -> s.fraction() == high).findFirst().orElse(null);
        return a == null || b == null || b.achievedRps() == a.achievedRps() ? Double.NaN
                : (b.cpuLoad() - a.cpuLoad()) / (b.achievedRps() - a.achievedRps()) * 1e6;
    }

    /** The slope between each two neighbouring held rates, round by round ({@code rounds}: the probe's, counted). */
    private static List<CostCurve.Segment> segments(List<CostCurve.Slice> slices, String probe,
            Collection<List<CostCurve.Slice>> rounds, List<Double> held) {
        List<CostCurve.Segment> segments = new ArrayList<>();
        for (int i = 0; i + 1 < held.size(); i++) {
            double low = held.get(i);
            double high = held.get(i + 1);
            List<Double> slopes = new ArrayList<>();
            for (List<CostCurve.Slice> round : rounds) {
                double slope = slope(round, low, high);
                if (Double.isFinite(slope)) {
                    slopes.add(slope);
                }
            }
            double[] values = slopes.stream().mapToDouble(Double::doubleValue).toArray();
            segments.add(new CostCurve.Segment(rate(slices, probe, low), rate(slices, probe, high), mean(values),
                    Intervals.halfWidth(values)));
        }
        return segments;
    }

    private static boolean held(List<CostCurve.Slice> at) {
        List<CostCurve.Slice> counted = at.stream().filter(CostFigures::counts).toList();
        return !counted.isEmpty()
                && 2 * counted.stream().filter(s -> s.achievedRps() >= HELD * s.offeredRps()).count() >= counted.size();
    }

    /** Whether a slice's figures are the server's at its rate: few failures, the generator on time. */
    public static boolean counts(CostCurve.Slice slice) {
        return slice.failed() <= FAILED * (slice.succeeded() + slice.failed()) && slice.lagP99Ms() <= CpuRounds.LAG_LIMIT_MS;
    }

    /** A probe's mean achieved rate at a fraction. */
    private static double rate(List<CostCurve.Slice> slices, String probe, double fraction) {
        return mean(slices.stream().filter(s -> s.probe().equals(probe) && s.fraction() == fraction && counts(s))
                .mapToDouble(CostCurve.Slice::achievedRps).toArray());
    }

    private static TreeMap<Double, List<CostCurve.Slice>> byFraction(List<CostCurve.Slice> slices, String probe) {
        return slices.stream().filter(s -> s.probe().equals(probe))
                .collect(Collectors.groupingBy(CostCurve.Slice::fraction, TreeMap::new, Collectors.toList()));
    }

    private static TreeMap<Integer, List<CostCurve.Slice>> byRound(List<CostCurve.Slice> slices, String probe) {
        return slices.stream().filter(s -> s.probe().equals(probe) && counts(s))
                .collect(Collectors.groupingBy(CostCurve.Slice::round, TreeMap::new, Collectors.toList()));
    }

    private static double mean(double[] values) {
        return java.util.Arrays.stream(values).filter(Double::isFinite).average().orElse(Double.NaN);
    }
}
