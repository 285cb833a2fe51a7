package org.spice.bench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleUnaryOperator;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.spice.bench.figures.Intervals;
import org.spice.bench.model.CostCurve;

/**
 * The cost curve's arithmetic on made-up slices: a static file whose CPU is a straight line (5 ms a second plus 40 µs
 * a request, its slope drifting by a few per cent from round to round) and saturated at nine tenths of its peak; a
 * CGI program that costs 4,000 µs a request up to 200 req/s and 2,000 past it, with one slice its generator was late
 * in.
 */
@Tag("unit")
public class CostFiguresTest {

    public static final double[] DRIFT = {1, 1.02, 0.98, 1.01, 0.99, 1};
    public static final List<Double> FRACTIONS = List.of(0.1, 0.25, 0.5, 0.75, 0.9);

    /** Six rounds of both probes, static's peak 10,000 req/s and CGI's 400. */
    public static List<CostCurve.Slice> slices() {
        List<CostCurve.Slice> slices = new ArrayList<>();
        for (int r = 1; r <= DRIFT.length; r++) {
            double d = DRIFT[r - 1];
            for (double f : FRACTIONS) {
                double rate = f * 10_000;
                double achieved = f == 0.9 ? 0.8 * rate : rate;
                slices.add(slice(r, "static", f, rate, achieved, x -> 0.005 + 40e-6 * d * x, 1));
            }
            for (double f : FRACTIONS) {
                double rate = f * 400;
                DoubleUnaryOperator cgi = x -> 0.002 + d * (x <= 200 ? 4000e-6 * x : 0.8 + 2000e-6 * (x - 200));
                slices.add(slice(r, "cgi", f, rate, rate, r == 3 && f == 0.5 ? x -> 9 : cgi, r == 3 && f == 0.5 ? 80 : 1));
            }
        }
        return slices;
    }

    private static CostCurve.Slice slice(int round, String probe, double fraction, double offered, double achieved,
            DoubleUnaryOperator cpuLoad, double lagMs) {
        return new CostCurve.Slice(round, probe, fraction, offered, achieved, Math.round(achieved), 0, 1,
                cpuLoad.applyAsDouble(achieved), lagMs);
    }

    @Test
    void aStraightCurvesSlopeIsItsMarginalCostAndItsInterceptTheCpuAtNoLoad() {
        CostCurve.Marginal m = CostFigures.marginals(slices(), List.of("static", "cgi"), 0.25).get(0);
        assertEquals("static", m.probe());
        assertEquals(40, m.marginalUs(), 1e-9, "the rounds' mean slope: 40 µs × the drift's mean, 1");
        double sd = Math.sqrt(0.001 / 5);
        assertEquals(Intervals.t(5) * 40 * sd / Math.sqrt(6), m.marginalUsCi(), 1e-9, "Student's t over six rounds");
        assertEquals(5, m.atZeroMsPerS(), 1e-9);
        assertEquals(2500, m.fromRps(), 1e-9, "from a quarter of the peak");
        assertEquals(7500, m.toRps(), 1e-9, "to the highest rate held: nine tenths achieved 80 % of its rate");
        assertEquals(0, m.bendUs(), 1e-9, "the same slope at both ends of the line in every round");
        assertEquals(CostCurve.Shape.STRAIGHT, m.shape());
        assertEquals(3, m.segments().size(), "0.1-0.25, 0.25-0.5, 0.5-0.75: none to the saturated rate");
        m.segments().forEach(s -> assertEquals(40, s.slopeUs(), 1e-9));
    }

    @Test
    void aCurveThatBendsIsSaidToAndItsLateSliceIsLeftOut() {
        CostCurve.Marginal m = CostFigures.marginals(slices(), List.of("static", "cgi"), 0.25).get(1);
        assertEquals("cgi", m.probe());
        assertEquals(CostCurve.Shape.BENDS, m.shape(), "4,000 µs a request below 200 req/s, 2,000 above");
        assertEquals(2000 * 5.02 / 5, m.bendUs(), 1e-6, "2,000 µs × the drift, over the five rounds with both ends");
        assertEquals(Intervals.halfWidth(
                new double[] {2000, 2040, 2020, 1980, 2000}), m.bendUsCi(), 1e-6);
        assertEquals(List.of(4000.0, 4016.0, 2008.0, 2000.0),
                m.segments().stream().map(s -> Math.round(s.slopeUs() * 1e6) / 1e6).toList(),
                "the round whose slice at 200 req/s was late (drift 0.98) is left out of the two segments it touches");
        assertEquals(100, m.fromRps(), 1e-9);
        assertEquals(360, m.toRps(), 1e-9);
        assertTrue(m.marginalUs() > 2000 && m.marginalUs() < 4000, "the line averages the two: " + m.marginalUs());
        CostCurve.Point late = CostFigures.points(slices(), List.of("cgi")).get(2);
        assertEquals(0.5, late.fraction());
        assertEquals(5, late.rounds(), "the late slice does not count");
        assertTrue(late.held());
        assertEquals(10 + 4000 * 5.02 / 5, late.cpuUsPerReq(), 1e-9,
                "its five counted slices: 2 ms a second over 200 requests, and 4,000 µs × their drift's mean each");
    }

    @Test
    void aLineIsStraightOnlyWhereItsBendIsKnownToBeSmall() {
        assertEquals(CostCurve.Shape.STRAIGHT, CostFigures.shape(5, 10, 100), "within ±15 of 100: under 25 %");
        assertEquals(CostCurve.Shape.UNKNOWN, CostFigures.shape(5, 30, 100), "holds 0, but reaches 35 %");
        assertEquals(CostCurve.Shape.BENDS, CostFigures.shape(40, 30, 100));
        assertEquals(CostCurve.Shape.BENDS, CostFigures.shape(-40, 30, 100), "either way");
        assertEquals(CostCurve.Shape.UNTESTED, CostFigures.shape(Double.NaN, Double.NaN, 100), "two rates");
    }

    @Test
    void aRateNotAchievedIsSaturatedAndEachPointCarriesItsInterval() {
        List<CostCurve.Point> points = CostFigures.points(slices(), List.of("static"));
        assertEquals(FRACTIONS, points.stream().map(CostCurve.Point::fraction).toList());
        assertFalse(points.get(4).held(), "80 % of its rate in every round");
        assertTrue(points.subList(0, 4).stream().allMatch(CostCurve.Point::held));
        CostCurve.Point tenth = points.get(0);
        assertEquals(1000, tenth.achievedRps(), 1e-9);
        assertEquals(5 + 40, tenth.cpuUsPerReq(), 1e-9, "5 ms a second over 1,000 requests, and 40 µs each");
        assertEquals(Intervals.t(5) * 40 * Math.sqrt(0.001 / 5) / Math.sqrt(6), tenth.cpuUsPerReqCi(), 1e-9);
    }
}
