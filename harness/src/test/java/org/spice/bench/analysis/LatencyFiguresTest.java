package org.spice.bench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.spice.bench.figures.Histograms;
import org.spice.bench.model.LatencyProfile;

/** The latency profile's figures on known rounds: ratios paired by round, drift cancelled, percentiles pooled. */
@Tag("unit")
class LatencyFiguresTest {

    /** What moves every probe alike from round to round: it must cancel in the ratios. */
    private static final double[] DRIFT = {1, 2, 0.5, 3, 1, 1.5};
    /** CGI's own noise against the static file's in each round. */
    private static final double[] NOISE = {1.0, 1.02, 0.98, 1.01, 0.99, 1.0};

    @Test
    void aProbesRatioToStaticIsPairedByRoundSoTheDriftCancels() {
        List<LatencyProfile.Slice> slices = slices(200, DRIFT.length);
        List<LatencyProfile.AtRate> figures = LatencyFigures.of(slices, Map.of(), List.of("static", "cgi"),
                List.of(200.0), 800, DRIFT.length);
        assertEquals(2, figures.size());
        LatencyProfile.AtRate reference = figures.get(0);
        assertEquals("static", reference.probe());
        assertTrue(Double.isNaN(reference.p50Ratio()), "the static file is not a ratio to itself");
        LatencyProfile.AtRate cgi = figures.get(1);
        assertEquals(0.25, cgi.fraction(), 1e-12);
        assertEquals(6, cgi.slices());
        // six rounds: the 95 % signed-rank interval is the extreme Walsh averages, log(4 × 0.98) to log(4 × 1.02)
        assertEquals(4.0, cgi.p50Ratio(), 0.01);
        assertEquals((4 * 1.02 - 4 * 0.98) / 2, cgi.p50RatioCi(), 0.002);
        assertEquals(10.0, cgi.p99Ratio(), 0.03, "p99 10 × static's in every round, times the noise");
        assertEquals(20.0, cgi.cpuRatio(), 0.05);
        assertEquals(1, cgi.generatorLimitedSlices());
        assertEquals(3, cgi.failed());
        assertFalse(LatencyFigures.preciseEnough(figures, 0.01), "±2 % is not within ±1 %");
        assertTrue(LatencyFigures.preciseEnough(figures, 0.05));
    }

    @Test
    void withoutSixRoundsOfBothThereIsNoInterval() {
        List<LatencyProfile.Slice> slices = new ArrayList<>(slices(200, DRIFT.length));
        slices.removeIf(s -> s.round() == 3 && s.probe().equals("static"));
        LatencyProfile.AtRate cgi = LatencyFigures.of(slices, Map.of(), List.of("static", "cgi"), List.of(200.0), 800,
                DRIFT.length).get(1);
        assertEquals(4.0, cgi.p50Ratio(), 0.02, "five pairs still make an estimate");
        assertTrue(Double.isNaN(cgi.p50RatioCi()), "but not an interval");
        assertFalse(LatencyFigures.preciseEnough(List.of(cgi), 0.5));
    }

    @Test
    void thePercentilesAreEveryRoundsRequestsTogether() {
        Histogram staticLatency = new Histogram(3);
        for (int i = 1; i <= 1000; i++) {
            staticLatency.recordValue(i * 1000L);
        }
        Map<String, Histogram> pooled = new HashMap<>(Map.of(LatencyFigures.key("static", 200.0), staticLatency));
        LatencyProfile.AtRate reference = LatencyFigures.of(slices(200, 6), pooled, List.of("static"), List.of(200.0),
                800, 6).get(0);
        assertEquals(0.5, reference.p50Ms(), 0.001);
        assertEquals(0.99, reference.p99Ms(), 0.001);
        assertEquals(1.0, reference.maxMs(), 0.001);
        assertEquals(1000, Histograms.decoded(reference.latencyHistogram()).getTotalCount(), "kept whole");
        assertTrue(Double.isNaN(LatencyFigures.of(slices(200, 6), Map.of(), List.of("static"), List.of(200.0), 800, 6)
                .get(0).p50Ms()), "no histogram, no percentile");
    }

    /** Static and CGI at {@code rate} in rounds 1 to n: CGI 4 × static's p50, 10 × its p99, 20 × its CPU. */
    private static List<LatencyProfile.Slice> slices(double rate, int n) {
        List<LatencyProfile.Slice> slices = new ArrayList<>();
        for (int r = 1; r <= n; r++) {
            double drift = DRIFT[r - 1];
            slices.add(new LatencyProfile.Slice(r, "static", rate, rate, 0.2 * drift, 0.5 * drift, 50 * drift, 0, 0.1,
                    false));
            double noise = NOISE[r - 1];
            slices.add(new LatencyProfile.Slice(r, "cgi", rate, rate, 0.8 * drift * noise, 5 * drift * noise,
                    1000 * drift * noise, r == 2 ? 3 : 0, r == 4 ? 2.5 : 0.1, r == 4));
        }
        return slices;
    }
}
