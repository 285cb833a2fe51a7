package org.spice.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.spice.bench.figures.CpuSources;
import org.spice.bench.figures.SpiceFigures;
import org.spice.bench.mix.Mix;
import org.spice.bench.model.CpuRounds;
import org.spice.bench.model.CpuSlice;
import org.spice.bench.model.StealLimit;
import org.spice.page.Probe;

/** What one server's rounds say as they go. */
@Tag("unit")
class OneServerLinesTest {

    /**
     * The progress lines say what happened: no interval before there are enough rounds, a round left out for the JIT
     * with why, a probe that leaves the rounds with its final figure once, and later lines without it.
     */
    @Test
    void progressLinesSayWhatHappenedAndAProbeThatIsDoneOnce() {
        List<Mix> mixes = List.of(Mix.of(Probe.STATIC), Mix.of(Probe.SERVLET), Mix.of(Probe.CGI));
        CpuSources source = (arm, probe) -> SpiceFigures.CpuSource.SERVER;
        CpuRounds rounds = new CpuRounds(8, 0.05, 120, "in progress", List.of());
        rounds = rounds.with(new CpuRounds.Round(1, List.of(taken("static", 100, 0.5), taken("servlet", 90, 0.5),
                taken("cgi", 2400, 0.5))), "in progress");
        assertEquals("cpu round 1 at 8 clients: left out, the server's JIT was compiling through it (over 3 % of its"
                + " CPU); no round counted yet", OneServerLines.progress(rounds, mixes, source));
        for (int r = 2; r <= 8; r++) {
            double wobble = 1 + (r % 2 == 0 ? 0.01 : -0.01);
            rounds = rounds.with(new CpuRounds.Round(r, List.of(taken("static", 100 * wobble, 0),
                    taken("servlet", 90 * wobble * (1 + (r % 3 - 1) * 0.003), 0), taken("cgi", 2400 / wobble, 0))), "in progress");
        }
        String line = OneServerLines.progress(rounds, mixes, source);
        assertTrue(line.startsWith("cpu round 8 at 8 clients, 7 counted, so far: static 100.0 µs ± "), line);
        assertTrue(line.contains(", cgi 24.") && line.contains(" × ± "), line);
        String done = OneServerLines.done(rounds, "cgi", source);
        assertTrue(done.startsWith("cpu rounds: cgi done after 7 rounds, its ratio within its aim (±10 %): cgi 24."), done);
        List<Mix> still = mixes.stream().filter(m -> !m.name().equals("cgi")).toList();
        assertFalse(OneServerLines.progress(rounds, still, source).contains("cgi"), "once done, not repeated");
        for (String each : List.of(line, done)) {
            assertFalse(each.contains("NaN") || each.contains("± -"), each);
        }
    }

    /**
     * A round whose slices the hypervisor took too much of says how many were left out: "8 counted" alone would
     * promise figures over rounds the figures do not hold (CI, 2026-12-04: ten rounds "counted", three paired).
     */
    @Test
    void aRoundWithSlicesLeftOutForStealSaysHowMany() {
        List<Mix> mixes = List.of(Mix.of(Probe.STATIC), Mix.of(Probe.SERVLET));
        CpuSources source = (arm, probe) -> SpiceFigures.CpuSource.SERVER;
        CpuRounds rounds = new CpuRounds(8, 0.05, 120, "in progress", List.of()).leavingOut(StealLimit.above(0.0));
        rounds = rounds.with(new CpuRounds.Round(1, List.of(stolen("static", 0.02), stolen("servlet", 0.02))), "in progress");
        assertFalse(OneServerLines.progress(rounds, mixes, source).contains("left out"), "2 % of a CPU is under 10 %");
        rounds = rounds.with(new CpuRounds.Round(2, List.of(stolen("static", 0.02), stolen("servlet", 0.3))), "in progress");
        String line = OneServerLines.progress(rounds, mixes, source);
        assertTrue(line.endsWith("; 1 of 2 slices left out, the hypervisor taking over 10 % of a CPU through each"), line);
    }

    /** A 1 s slice of 5,000 requests at 100 µs each, the hypervisor taking {@code steal} of a CPU through it. */
    private static CpuSlice stolen(String probe, double steal) {
        return new CpuSlice(null, probe, 5000, 0, 1.0, 0.5, 0.9, 0.4, 0, 0, steal);
    }

    /** A slice of 5,000 requests at {@code cpuUs} each, the JIT taking {@code jitShare} of it. */
    private static CpuSlice taken(String probe, double cpuUs, double jitShare) {
        double cpuS = cpuUs * 5000 / 1e6;
        return new CpuSlice(probe, 5000, 0, 1.0, cpuS, cpuS, 0.4, jitShare * cpuS);
    }
}
