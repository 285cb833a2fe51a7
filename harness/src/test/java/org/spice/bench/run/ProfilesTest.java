package org.spice.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.analysis.ResultsFiles;
import org.spice.bench.mix.Mix;
import org.spice.bench.model.CostCurve;
import org.spice.bench.model.LatencyProfile;
import org.spice.bench.model.OpenLoopRun;
import org.spice.bench.model.Results;
import org.spice.page.Probe;

/**
 * The profiles that follow the ladder, against {@link FakeEngine} (no server, no load): the cost curve runs each probe
 * at fractions of its own peak in the ladder and finds the model's marginal cost, its CPU per request's slope; the
 * latency profile runs every probe at the same rates, fractions of the slowest probe's peak, one slice each a round,
 * and then each probe along its own curve until past its knee. Both land in the server's results.json ({@link
 * FakeBench}).
 */
@Tag("unit")
class ProfilesTest {

    private static final Map<String, Double> FACTOR = Map.of("static", 1.0, "servlet", 0.9);
    private static final Map<String, Double> CAPACITY = Map.of("static", 9_000.0, "servlet", 8_000.0);

    @TempDir
    Path dir;
    private FakeBench bench;

    @BeforeEach
    void listen() throws IOException {
        bench = new FakeBench(dir);
    }

    @AfterEach
    void close() throws IOException {
        bench.close();
    }

    /** The fake bench with {@code more} options, its results read back once it ran. */
    private Results ran(FakeEngine engine, String... more) throws Exception {
        Phases.Member m = bench.member(bench.settings(more), engine);
        assertNull(bench.run(m, true), bench.said());
        assertEquals(0, m.recorder().finish(null, new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8)));
        return ResultsFiles.read(m.recorder().dir());
    }

    @Test
    void theCostCurveRunsEachProbeAtFractionsOfItsOwnPeakAndFindsItsMarginalCost() throws Exception {
        FakeEngine engine = new FakeEngine(FACTOR, Map.of(), CAPACITY);
        // the cost curve is the server's CPU: with --target it must be told where that is read (this JVM, unread here:
        // the fake engine's model gives each slice its CPU)
        Results read = ran(engine, "--profile", "cost", "--cost-rates", "0.25,0.5,0.75", "--cost-rounds", "3",
                "--server-pid", Long.toString(ProcessHandle.current().pid()));
        for (String open : List.of("open static 2250", "open static 6750", "open servlet 2000", "open servlet 6000")) {
            assertTrue(engine.calls.contains(open), "each probe at its own peak's fractions (static 9,000, servlet"
                    + " 8,000 req/s in the ladder): " + open + " in " + engine.calls);
        }
        CostCurve curve = read.costCurve();
        assertEquals(3, curve.rounds());
        assertEquals(3 * 2 * 3, curve.slices().size(), "three rounds of two probes at three rates");
        // the model's CPU a second at r req/s is factor × (100 r + 50,000) µs: a line of slope 100 µs × factor
        Map<String, Double> slope = Map.of("static", 100.0, "servlet", 90.0);
        assertEquals(List.of("static", "servlet"), curve.marginals().stream().map(CostCurve.Marginal::probe).toList());
        for (CostCurve.Marginal marginal : curve.marginals()) {
            assertEquals(slope.get(marginal.probe()), marginal.marginalUs(), 0.5, marginal.toString());
        }
    }

    @Test
    void theLatencyProfileRunsEveryProbeAtTheSlowestsRatesThenEachAlongItsCurvePastItsKnee() throws Exception {
        FakeEngine engine = new FakeEngine(FACTOR, Map.of(), CAPACITY);
        Results read = ran(engine, "--profile", "latency", "--common-rates", "0.25,0.5", "--curve", "0.5,1.5,2");
        LatencyProfile profile = read.latencyProfile();
        assertEquals("servlet", profile.slowest(), "8,000 req/s in the ladder against the static file's 9,000");
        assertEquals(List.of(2000.0, 4000.0), profile.rates(), "a quarter and half of the slowest's peak");
        assertTrue(profile.rounds() >= LatencyRounds.MIN_ROUNDS, "the rounds an interval needs: " + profile.rounds());
        assertEquals(profile.rounds() * 4, profile.slices().size(), "a slice per probe and rate each round");
        LatencyProfile.AtRate servlet = profile.common().stream().filter(a -> a.probe().equals("servlet")
                && a.offeredRps() == 2000).findFirst().orElseThrow();
        double expected = engine.waitMs(Mix.of(Probe.SERVLET), 2000)
                / engine.waitMs(Mix.of(Probe.STATIC), 2000);
        assertEquals(expected, servlet.p50Ratio(), 0.01 * expected, "the model's waits, paired at one rate: " + servlet);
        // along its own curve: at 1.5 × its peak the model's server achieves 1 / 2.25 of what was offered, under half:
        // past its knee, so 2 × is not run
        for (String probe : List.of("static", "servlet")) {
            List<Double> offered = profile.curves().stream().filter(c -> c.probe().equals(probe))
                    .map(OpenLoopRun::offeredRps).toList();
            double peak = CAPACITY.get(probe);
            assertEquals(List.of(0.5 * peak, 1.5 * peak), offered, probe + "'s curve stops past its knee");
        }
    }
}
