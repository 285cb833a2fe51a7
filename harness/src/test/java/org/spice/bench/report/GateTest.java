package org.spice.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.analysis.Summaries;
import org.spice.bench.figures.Judge;
import org.spice.cli.Cli;
import org.spice.commands.CompareCommand;

/** compare --fail-above: a probe whose ratio to its static file rose beyond the noise by more than PCT fails the gate. */
@Tag("unit")
class GateTest {

    @Test
    void theRiseBeyondTheNoiseIsTheRiseLessTheTwoIntervalsLargerHalvesInQuadrature() {
        // 1.00 (0.97 to 1.02: its larger half 0.03) then 1.10 (1.07 to 1.14: 0.04): the difference's interval is
        // ±0.05, so 0.05 beyond it, 5 % of 1.00
        Judge.Interval before = new Judge.Interval(1.00, 0.97, 1.02);
        assertEquals(0.05, Gate.riseBeyondNoise(before, new Judge.Interval(1.10, 1.07, 1.14)), 1e-12);
        assertTrue(Gate.riseBeyondNoise(before, new Judge.Interval(1.04, 1.01, 1.08)) < 0, "inside the noise");
    }

    @Test
    void compareFailsAboveTheGateAndPassesBelowIt(@TempDir Path dir) throws Exception {
        Summaries.write(dir.resolve("before"), ReportFixture.apacheWithRounds(0.97));
        Summaries.write(dir.resolve("after"), ReportFixture.apacheWithRounds(1.15));
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int failed = Cli.run(new CompareCommand(), print(out), print(err), dir.resolve("before").toString(),
                dir.resolve("after").toString(), "--out", dir.resolve("c1").toString(), "--fail-above", "5");
        String said = err.toString(StandardCharsets.UTF_8);
        assertEquals(1, failed, said + out);
        assertTrue(said.contains("regression: servlet's CPU rose from 0.970 × to 1.150 × the static file's"), said);
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("× the static file's CPU 0.970 → 1.150"), out.toString());
        int passed = Cli.run(new CompareCommand(), print(out), print(err), dir.resolve("before").toString(),
                dir.resolve("after").toString(), "--out", dir.resolve("c2").toString(), "--fail-above", "25");
        assertEquals(0, passed, err.toString(StandardCharsets.UTF_8));
        int same = Cli.run(new CompareCommand(), print(out), print(err), dir.resolve("before").toString(),
                dir.resolve("before").toString(), "--out", dir.resolve("c3").toString(), "--fail-above", "0");
        assertEquals(0, same, "a run against itself never regresses");
    }

    private static PrintStream print(ByteArrayOutputStream bytes) {
        return new PrintStream(bytes, true, StandardCharsets.UTF_8);
    }
}
