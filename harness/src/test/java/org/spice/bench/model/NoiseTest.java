package org.spice.bench.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.spice.bench.analysis.Summaries;
import org.spice.bench.figures.Intervals;
import org.spice.bench.figures.LatencySummary;
import org.spice.bench.figures.SpiceFigures;

/** The arithmetic of the intervals, the steady-state rule and the idle share, on known inputs. */
@Tag("unit")
class NoiseTest {

    private static final double EPS = 1e-9;

    @Test
    void studentsTQuantilesAreTheTablesOnes() {
        assertEquals(12.706, Intervals.t(1), 1e-3);
        assertEquals(4.303, Intervals.t(2), 1e-3);
        assertEquals(2.262, Intervals.t(9), 1e-3);
        assertEquals(1.984, Intervals.t(100), 1e-3);
    }

    @Test
    void halfWidthIsTTimesTheStandardErrorOfTheMean() {
        // mean 2, s = 1, n = 3: 4.303 × 1 / √3
        assertEquals(Intervals.t(2) / Math.sqrt(3), Intervals.halfWidth(new double[] {1, 2, 3}), EPS);
        assertEquals(0, Intervals.halfWidth(new double[] {5, 5, 5, 5}), EPS);
        assertTrue(Double.isNaN(Intervals.halfWidth(new double[] {5})), "one value has no interval");
        assertTrue(Double.isNaN(Intervals.halfWidth(new double[] {5, Double.NaN})), "NaN values are left out");
    }

    @Test
    void aRatiosIntervalAddsTheRelativeErrors() {
        // 100 ± 3 over 50 ± 2: 2 × √(0.03² + 0.04²) = 2 × 0.05
        assertEquals(0.1, Intervals.ratioHalfWidth(100, 3, 50, 2), EPS);
        assertTrue(Double.isNaN(Intervals.ratioHalfWidth(0, 3, 50, 2)));
    }

    @Test
    void steadyMeansThreeSlicesEachWithinFivePercentOfTheirMean() {
        assertFalse(SteadyState.settled(List.of(100.0, 100.0)), "two slices are not enough");
        assertTrue(SteadyState.settled(List.of(300.0, 150.0, 100.0, 104.0, 97.0)));
        assertFalse(SteadyState.settled(List.of(100.0, 104.0, 90.0)), "90 is more than 5 % below their mean of 98");
        assertFalse(SteadyState.settled(List.of(0.0, 0.0, 0.0)), "no CPU measured is not steady");
    }

    @Test
    void idleShareIsTheIdleRateOverTheMixsRate() {
        // 0.05 cores idle; the mix used 1.5 s of CPU in 3 s: 0.5 cores, so a tenth of it is background
        assertEquals(0.1, IdleCpu.share(0.05, 1.5, 3), EPS);
        assertTrue(Double.isNaN(IdleCpu.share(Double.NaN, 1.5, 3)));
    }

    @Test
    void aRunsIntervalsComeFromItsSlicesAndRepeatsPoolThemOrBecomeTheBatches() {
        RunRecord a = run(1, 100, 105, 95);
        // slices' CPU per request: 100, 105, 95 µs → mean 100, s = 5; one window: and ±10 % of 100 for the drift
        // between windows, in quadrature
        assertEquals(Math.hypot(Intervals.t(2) * 5 / Math.sqrt(3), 10), a.serverCpuUsPerReqCi(), 1e-6);
        assertEquals(100, a.serverCpuUsPerReq(), 1e-6);
        RunRecord b = run(2, 110, 110, 110);
        SpiceFigures.Noise pooled = RunRecord.pooledNoise(List.of(a, b));
        double[] both = {100, 105, 95, 110, 110, 110};
        assertEquals(Math.hypot(Intervals.halfWidth(both), 0.1 * 105), pooled.serverCpuUsPerReq(), 1e-6);
        assertEquals(Intervals.ofWindows(both), pooled.serverCpuUsPerReq(), 1e-12);
        // three repeats: the repeats are the batches
        List<SpiceFigures.Summary> summary = Summaries.of(List.of(a, b, run(3, 120, 120, 120)), 100, "static", null, CpuFrom.PROC);
        assertEquals(Intervals.halfWidth(new double[] {100, 110, 120}), summary.get(0).noise().cpuUsPerReqAtPeakCi(), 1e-6);
        // old results: no slices, no interval
        RunRecord old = a.toBuilder().slices(List.of()).build();
        assertTrue(Double.isNaN(old.serverCpuUsPerReqCi()));
    }

    /** Three 1 s slices of 1,000 requests each, at the given server µs per request. */
    static RunRecord run(int repeat, double... cpuUs) {
        List<Slice> slices = new java.util.ArrayList<>();
        double cpu = 0;
        for (int i = 0; i < cpuUs.length; i++) {
            slices.add(new Slice(i, 1, 1000, 0, 1000 * 6250L, 1000, cpuUs[i] * 1000 / 1e6, cpuUs[i] * 1000 / 1e6));
            cpu += cpuUs[i] * 1000 / 1e6;
        }
        return RunRecord.builder("static", 8, repeat).durationS(cpuUs.length).requests(1000L * cpuUs.length)
                .bytes(0, 6250L * 1000 * cpuUs.length).latency(new LatencySummary(1, 1, 1, 1, 1, 1))
                .perClient(new long[8], new double[8], new long[8]).cpu(new Cpu(0.1, cpu, cpu)).slices(slices).build();
    }
}
