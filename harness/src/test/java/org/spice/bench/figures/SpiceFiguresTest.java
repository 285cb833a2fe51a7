package org.spice.bench.figures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.spice.bench.figures.SpiceFigures.Point;
import org.spice.bench.figures.SpiceFigures.Summary;

/** The SPICE arithmetic on inputs whose answers are known by hand or from the white paper. */
@Tag("unit")
class SpiceFiguresTest {

    private static final double EPS = 1e-9;

    @Test
    void jainFairness() {
        assertEquals(1.0, SpiceFigures.jain(new double[] {5, 5, 5, 5}), EPS);
        assertEquals(0.25, SpiceFigures.jain(new double[] {8, 0, 0, 0}), EPS);   // one client of four gets everything: 1/n
        assertEquals(36.0 / 42.0, SpiceFigures.jain(new double[] {1, 2, 3}), EPS);
        assertTrue(Double.isNaN(SpiceFigures.jain(new double[0])));
    }

    @Test
    void coefficientOfVariationSkipsClientsWithoutRequests() {
        assertEquals(0.0, SpiceFigures.coefficientOfVariation(new double[] {10, 10, Double.NaN}), EPS);
        assertEquals(0.5, SpiceFigures.coefficientOfVariation(new double[] {10, 30}), EPS);   // sd 10 / mean 20
    }

    @Test
    void efficienciesReproduceTheWhitePaper() {
        // Table 3 and Table 1, iWS on 4 CPUs: servlet 1080 req/s against static 2759 req/s: Table 5 says 39.2%.
        assertEquals(0.391, SpiceFigures.requestEfficiency(1080, 2759), 0.001);
        // 1 CPU (Tables 2, 4, 5): 307 / 1153 = 26.6%, CGI 167 / 1153 = 14.5%.
        assertEquals(0.266, SpiceFigures.requestEfficiency(307, 1153), 0.0005);
        assertEquals(0.145, SpiceFigures.requestEfficiency(167, 1153), 0.0005);
        assertEquals(8.3 / 18.1, SpiceFigures.latencyEfficiency(8.3, 18.1), EPS);
        assertTrue(Double.isNaN(SpiceFigures.requestEfficiency(100, Double.NaN)));
        assertTrue(Double.isNaN(SpiceFigures.latencyEfficiency(10, 0)));
    }

    @Test
    void littlesLaw() {
        assertEquals(1.0, SpiceFigures.littleRatio(4, 200, 20), EPS);   // 200 req/s × 0.020 s = 4 clients
        assertEquals(0.5, SpiceFigures.littleRatio(8, 200, 20), EPS);
    }

    @Test
    void summaryAtPeakAtMaxLoadAndUsefulPeak() {
        List<Point> statics = List.of(p(1, 1000, 1), p(2, 1800, 1.1), p(4, 2000, 2), p(8, 1900, 4.2));
        List<Point> servlet = List.of(p(1, 500, 2), p(2, 900, 2.2), p(4, 800, 5, 0.80), p(8, 400, 20));
        Summary s = SpiceFigures.summarize("servlet", 1, servlet, statics, 10);
        assertEquals(900, s.peakRateRps(), EPS);
        assertEquals(2, s.peakClients());
        assertEquals(2.2, s.latencyAtPeakMs(), EPS);
        assertEquals(900 / 1800.0, s.requestEfficiencyAtPeak(), EPS);     // static at the same 2 clients
        assertEquals(1.1 / 2.2, s.latencyEfficiencyAtPeak(), EPS);
        assertEquals(8, s.maxLoadClients());
        assertEquals(400 / 1900.0, s.requestEfficiencyAtMaxLoad(), EPS);
        assertEquals(4.2 / 20, s.latencyEfficiencyAtMaxLoad(), EPS);
        assertEquals(900 / 2000.0, s.requestEfficiencyPeakToPeak(), EPS);  // the paper's reading
        assertEquals(900, s.usefulPeakRps(), EPS);
        assertEquals(2, s.usefulPeakClients());

        // With a 2 ms bound only the 1-client mix qualifies; with unfair clients at 2 nothing else does.
        assertEquals(500, SpiceFigures.summarize("servlet", 1, servlet, statics, 2).usefulPeakRps(), EPS);
        List<Point> unfair = List.of(p(1, 500, 2, 0.5), p(2, 900, 2.2, 0.9));
        assertTrue(Double.isNaN(SpiceFigures.summarize("x", 1, unfair, statics, 100).usefulPeakRps()));
    }

    @Test
    void failedMixesAndMissingStaticAreNotNumbers() {
        List<Point> probe = List.of(p(1, 500, 2), new Point(2, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, true));
        Summary s = SpiceFigures.summarize("cgi", 1, probe, List.of(), 100);
        assertEquals(1, s.maxLoadClients());              // the largest client count that did not fail
        assertTrue(Double.isNaN(s.requestEfficiencyAtPeak()));
        assertTrue(Double.isNaN(s.latencyEfficiencyAtMaxLoad()));
    }

    @Test
    void repeatsAreAveraged() {
        List<Point> combined = SpiceFigures.combineRepeats(List.of(p(4, 100, 10), p(4, 300, 30), p(1, 50, 1),
                new Point(4, 0, 0, 0, 0, 0, true)));
        assertEquals(2, combined.size());
        assertEquals(1, combined.get(0).clients());
        assertEquals(200, combined.get(1).rateRps(), EPS);
        assertEquals(20, combined.get(1).meanLatencyMs(), EPS);
    }

    @Test
    void mergedPercentilesEqualThoseOfAllValues() {
        Histogram all = new Histogram(3);
        Histogram a = new Histogram(3);
        Histogram b = new Histogram(3);
        long sum = 0;
        for (int i = 1; i <= 1000; i++) {
            long nanos = i * 1_000_000L;   // 1 ms .. 1000 ms
            all.recordValue(nanos);
            (i % 3 == 0 ? a : b).recordValue(nanos);
            sum += nanos;
        }
        Histogram both = new Histogram(3);   // as the Tally merges its loops' histograms
        both.add(a);
        both.add(b);
        LatencySummary merged = LatencySummary.of(both, sum);
        LatencySummary direct = LatencySummary.of(all, sum);
        assertEquals(direct, merged);
        assertEquals(500.5, merged.meanMs(), EPS);
        assertEquals(500, merged.p50Ms(), 0.5);     // 3 significant digits
        assertEquals(900, merged.p90Ms(), 0.9);
        assertEquals(990, merged.p99Ms(), 1);
        assertEquals(1000, merged.maxMs(), 1);
    }

    private static Point p(int clients, double rate, double latencyMs) {
        return p(clients, rate, latencyMs, 1.0);
    }

    private static Point p(int clients, double rate, double latencyMs, double fairness) {
        return new Point(clients, rate, latencyMs, fairness, Double.NaN, Double.NaN, false);
    }
}
