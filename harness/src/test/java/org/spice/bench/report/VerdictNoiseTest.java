package org.spice.bench.report;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.spice.bench.analysis.Summaries;
import org.spice.bench.figures.LatencySummary;
import org.spice.bench.model.Cpu;
import org.spice.bench.model.IdleCpu;
import org.spice.bench.model.RecordedSettings;
import org.spice.bench.model.Results;
import org.spice.bench.model.RunRecord;
import org.spice.bench.model.Slice;
import org.spice.bench.model.SteadyState;

/**
 * The verdict knows the noise: probes whose ratio's interval to static's holds 1 are said to cost what it costs
 * ({@code Judge}), the others each with its interval's ends, figures without intervals are said to have none; the measurement warnings
 * (not steady, srv above mach, idle work) are raised where they hold.
 */
@Tag("unit")
class VerdictNoiseTest {

    @Test
    void theSameProbeMeasuredTwiceIsCalledTheSameAndOnlyRealDifferencesAreRanked() {
        Results results = results(List.of(run("static", 100, 104, 96), run("static-again", 98, 103, 101),
                run("servlet", 97, 108, 95), run("cgi", 2000, 2100, 1950)), null, List.of());
        String verdict = String.join(" ", Verdict.of(results, null));
        assertTrue(verdict.contains("static-again and servlet cost the same as the static file within ± 24.5 %"), verdict);
        // one window each: the slices' interval and the drift between windows (±10 % each figure), in quadrature
        assertTrue(verdict.contains("cgi 2,017 µs, 20.2 × the static file's (16.2 to 24.1)"), verdict);
        assertFalse(verdict.contains("cheapest"), "no ranking inside the noise: " + verdict);
    }

    /**
     * The A/A pair the suite once measured on this machine: two windows of the same static file, each steady within
     * itself (slices within 3 %), 17 % apart. One window's slices cannot see that drift; the verdict must not rank it.
     */
    @Test
    void oneWindowEachCannotRankADifferenceOfTheDriftBetweenWindows() {
        Results results = results(List.of(run("static", 84, 81, 83), run("static-again", 97, 95, 99)), null, List.of());
        String verdict = String.join(" ", Verdict.of(results, null));
        assertTrue(verdict.contains("static-again costs the same as the static file within ± 35.8 %"), verdict);
    }

    @Test
    void figuresWithoutIntervalsAreSaidToHaveNone() {
        List<RunRecord> old = new ArrayList<>();
        for (RunRecord r : List.of(run("static", 100, 104, 96), run("servlet", 97, 108, 95))) {
            old.add(r.toBuilder().slices(List.of()).build());
        }
        String verdict = String.join(" ", Verdict.of(results(old, null, List.of()), null));
        assertTrue(verdict.contains("the cheapest interface") || verdict.contains("servlet costs"), verdict);
        assertTrue(verdict.contains("These figures have no interval"), verdict);
    }

    @Test
    void measurementWarningsSayWhatIsWrongWithAFigure() {
        RunRecord doubled = run("static", 100, 100, 100).toBuilder().cpu(new Cpu(0.1, 0.6, 0.3)).build();
        Results results = results(List.of(doubled, run("servlet", 97, 108, 95)), new IdleCpu(2, 0.05, 0.06),
                List.of(new SteadyState("servlet", 30, false, List.of(300.0, 200.0, 150.0), List.of())));
        String warnings = String.join("\n", Warnings.of(results));
        assertTrue(warnings.contains("servlet did not reach a steady state in 30 s"), warnings);
        assertTrue(warnings.contains("static at 8 clients: the server's processes used 200 µs per request, more than the"
                + " whole machine less the client (100 µs)"), warnings);
        // servlet used 0.3 s in 3 s = 0.1 cores; 0.05 idle is half of it
        assertTrue(warnings.contains("is what it spends idle (0.050 cores with no load)") && warnings.contains("servlet at 8"),
                warnings);
    }

    private static Results results(List<RunRecord> runs, IdleCpu idle, List<SteadyState> warm) {
        return Summaries.conclude(new Results("http://127.0.0.1:18080", "embedded", 6250, RecordedSettings.builder().engine("event-loop").build(),
                "a", "b", false, null, List.of(), warm, idle, runs, List.of(), null));
    }

    /** Three 1 s slices of 1,000 requests each at 8 clients, at the given server (and machine) µs per request. */
    static RunRecord run(String probe, double... cpuUs) {
        List<Slice> slices = new ArrayList<>();
        double cpu = 0;
        for (int i = 0; i < cpuUs.length; i++) {
            double s = cpuUs[i] * 1000 / 1e6;
            slices.add(new Slice(i, 1, 1000, 0, 1000 * 6250L, 1000, s, s));
            cpu += s;
        }
        long[] perClient = new long[8];
        java.util.Arrays.fill(perClient, 375);
        double[] meanMs = new double[8];
        java.util.Arrays.fill(meanMs, 1);
        return RunRecord.builder(probe, 8, 1).durationS(cpuUs.length).requests(1000L * cpuUs.length)
                .bytes(0, 6250L * 1000 * cpuUs.length).expectedBodyBytes(6250).latency(new LatencySummary(1, 1, 1, 1, 1, 1))
                .perClient(perClient, meanMs, new long[8]).cpu(new Cpu(0.1, cpu, cpu)).slices(slices).build();
    }
}
