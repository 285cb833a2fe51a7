package org.spice.bench.figures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The paired ratio's arithmetic on known rounds: Hodges-Lehmann estimates and Wilcoxon's signed-rank intervals. */
@Tag("unit")
class PairedRatioTest {

    @Test
    void theSignedRankCriticalValuesAreTheTablesOnes() {
        // two-sided 5 %: n = 6 → 0, 7 → 2, 8 → 3, 10 → 8, 20 → 52 (the published table of Wilcoxon's T)
        assertEquals(-1, PairedRatio.signedRankCritical(5, 0.025));
        assertEquals(0, PairedRatio.signedRankCritical(6, 0.025));
        assertEquals(2, PairedRatio.signedRankCritical(7, 0.025));
        assertEquals(3, PairedRatio.signedRankCritical(8, 0.025));
        assertEquals(8, PairedRatio.signedRankCritical(10, 0.025));
        assertEquals(52, PairedRatio.signedRankCritical(20, 0.025));
    }

    @Test
    void theEstimateIsTheMedianOfTheWalshAveragesWithItsInterval() {
        // 1..6: Walsh averages from 1 to 6, median 3.5; n = 6, k = 0: the interval is [min, max] = [1, 6]
        double[] estimate = PairedRatio.hodgesLehmann(new double[] {1, 2, 3, 4, 5, 6});
        assertEquals(3.5, estimate[0], 1e-12);
        assertEquals(1, estimate[1], 1e-12);
        assertEquals(6, estimate[2], 1e-12);
        // one wild value (17 for 6) moves the mean from 3.5 to 5.33 and the estimate not at all
        double[] wild = PairedRatio.hodgesLehmann(new double[] {1, 2, 3, 4, 5, 17});
        assertEquals(3.5, wild[0], 1e-12);
        assertTrue(Double.isNaN(PairedRatio.hodgesLehmann(new double[] {1, 2, 3, 4, 5})[1]), "five values: no interval");
    }

    @Test
    void theRatioIsPairedByRoundSoThatADriftCommonToBothCancels() {
        double[] reference = {100, 110, 120, 130, 140, 150};
        double[] probe = {90, 99, 108, 117, 126, 135};
        PairedRatio exact = PairedRatio.of(probe, reference);
        assertEquals(0.9, exact.ratio(), 1e-12);
        assertEquals(0.0, exact.ratioCi(), 1e-12, "the drift cancels in each round's ratio");
        assertEquals(1 / 0.9, exact.efficiency(), 1e-12);
        assertEquals(6, exact.rounds());
        PairedRatio noisy = PairedRatio.of(new double[] {95, 105, 100, 97, 103, 100}, new double[] {100, 100, 100, 100, 100, 100});
        assertEquals(1.0, noisy.ratio(), 0.005);
        assertTrue(noisy.holdsOne() && noisy.ratioCi() > 0.02 && noisy.ratioCi() < 0.06, noisy.toString());
    }

    @Test
    void theIntervalLeansUpSoOneSlowRoundDoesNotPutItsLowerEndUnderOne() {
        // CGI's p50 over static's in six rounds: 7 in five, 40 in one (a stalled slice). The log-ratio interval is
        // [7, 40]: it says CGI is slower, though ratio − half-width (7 − 16.5) is below 1.
        PairedRatio skewed = PairedRatio.of(new double[] {7, 7, 7, 7, 7, 40}, new double[] {1, 1, 1, 1, 1, 1});
        assertEquals(7, skewed.low(), 1e-9);
        assertEquals(40, skewed.high(), 1e-9);
        assertTrue(skewed.ratio() - skewed.ratioCi() < 1, skewed.toString());
        assertFalse(skewed.holdsOne(), "the interval [7, 40] does not hold 1");
    }

    @Test
    void aRoundWhereEitherWasNotMeasuredIsLeftOut() {
        PairedRatio some = PairedRatio.of(new double[] {200, Double.NaN, 220, 0}, new double[] {100, 100, Double.NaN, 100});
        assertEquals(1, some.rounds());
        assertEquals(2.0, some.ratio(), 1e-12);
        assertTrue(Double.isNaN(some.ratioCi()), "one round: no interval");
        assertFalse(some.holdsOne());
        assertEquals(0, PairedRatio.of(new double[] {Double.NaN}, new double[] {100}).rounds());
    }

    @Test
    void aFigureMeasuredOncePerRoundHasItsEstimateAndRelativeInterval() {
        double[] figure = PairedRatio.estimateAndRelativeCi(new double[] {90, 100, 110, 95, 105, 100, Double.NaN});
        assertEquals(100, figure[0], 1e-9);
        assertEquals((110 - 90) / 2.0 / 100, figure[1], 1e-9, "six values: the interval is [min, max]");
    }
}
