package org.spice.bench.run;

import org.spice.bench.model.Across;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.spice.bench.analysis.CrossFigures;
import org.spice.bench.analysis.RoundFigures;
import org.spice.bench.figures.ArmRatio;
import org.spice.bench.figures.CpuSources;
import org.spice.bench.figures.SpiceFigures;
import org.spice.bench.mix.Mix;
import org.spice.bench.model.CpuRounds;
import org.spice.bench.model.StealLimit;
import org.spice.bench.model.Stop;
import org.spice.page.Probe;

/**
 * The rounds side by side and within one server, run against {@link FakeEngine}'s model of a server whose CPU per
 * request falls as its rate rises: every ratio comes out at one load (the model's CGI costs 20 × the static file at
 * any one rate, and 57 × the static file at CGI's rate over the static file at the held one), whatever the rates.
 */
@Tag("unit")
class CrossRoundsTest {

    private static final CpuSources SERVER = (arm, probe) -> SpiceFigures.CpuSource.SERVER;
    private static final Map<String, Double> FACTOR = Map.of("static", 1.0, "servlet", 0.9, "cgi", 20.0);
    private static final Map<String, Double> CAPACITY = Map.of("static", 9_200.0, "servlet", 9_000.0, "cgi", 460.0);

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private static List<Mix> arms(String... servers) {
        List<Mix> arms = new ArrayList<>();
        for (String server : servers) {
            for (Probe probe : List.of(Probe.STATIC, Probe.SERVLET, Probe.CGI)) {
                arms.add(server == null ? Mix.of(probe) : Mix.of(probe).on(server, null, false));
            }
        }
        return arms;
    }

    /** The rounds of {@code arms} on {@code engine} at the rate a closed-loop round finds, until precise. */
    private CpuRounds rounds(FakeEngine engine, List<Mix> arms, StealLimit steal) throws Exception {
        return rounds(engine, arms, steal, List.of());
    }

    /** As {@link #rounds(FakeEngine, List, StealLimit)}, with {@code pairs} (--pairs). */
    private CpuRounds rounds(FakeEngine engine, List<Mix> arms, StealLimit steal, List<String> pairs) throws Exception {
        RoundRate rate = RoundRate.apart(engine.round(arms, 8, 0.5, false), 0.5, 8, 2.0 / 3);
        List<CpuRounds> sunk = new ArrayList<>();
        CrossRounds rounds = new CrossRounds(arms, pairs, 42, 8, 0.05, 3_600, SERVER, engine, rate, steal, false,
                new Stop(), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertNull(rounds.run(sunk::add, null));
        return sunk.get(sunk.size() - 1);
    }

    @Test
    void everyRatioSideBySideIsTakenAtOneLoadTheFarProbesWithTheirStaticFileAtTheirRate() throws Exception {
        FakeEngine engine = new FakeEngine(FACTOR, Map.of("a", 1.0, "b", 1.5), CAPACITY);
        CpuRounds done = rounds(engine, arms("a", "b"), null);
        assertEquals(4_500, done.offeredRps(), "half of the slowest near arm's 9,000");
        assertEquals(Map.of("a/cgi", 230.0, "b/cgi", 230.0), done.farOfferedRps());
        assertTrue(done.stopped().contains("within its precision"), done.stopped());
        assertTrue(engine.parts.stream().anyMatch(p -> p.startsWith("230 ") && p.contains("a/static")
                && p.contains("b/static") && p.contains("a/cgi")), engine.parts.toString());
        for (String server : List.of("a", "b")) {
            RoundFigures.Figures cgi = RoundFigures.of(done.of(server), p -> SpiceFigures.CpuSource.SERVER).get("cgi");
            assertEquals(20, cgi.paired().ratio(), 0.2, server + ": cgi against the static file at cgi's 230 req/s");
            RoundFigures.Figures servlet = RoundFigures.of(done.of(server), p -> SpiceFigures.CpuSource.SERVER)
                    .get("servlet");
            assertEquals(0.9, servlet.paired().ratio(), 0.01, server + ": the servlet at the held rate");
        }
        for (Across.Cross c : CrossFigures.of(done, SERVER)) {
            assertEquals(1 / 1.5, c.ratio(), 0.01, c.probe() + ": a costs 1 / 1.5 × b at one rate, the static file too");
        }
    }

    @Test
    void oneServersDefaultRunsTheSameRule() throws Exception {
        FakeEngine engine = new FakeEngine(FACTOR, Map.of(), CAPACITY);
        CpuRounds done = rounds(engine, arms((String) null), null);
        assertEquals(Map.of("cgi", 230.0), done.farOfferedRps());
        Map<String, RoundFigures.Figures> figures = RoundFigures.of(done, p -> SpiceFigures.CpuSource.SERVER);
        assertEquals(20, figures.get("cgi").paired().ratio(), 0.2, "at one load; 57 at two");
        assertEquals(100 + 50_000 / 4_500.0, figures.get("static").cpuUsPerReq(), 1.2,
                "the static file's own figure at the held rate only");
        for (CpuRounds.Round round : done.rounds()) {
            assertEquals(1, round.slices().stream().filter(t -> t.probe().equals("static") && t.offeredRps() == 230)
                    .count(), "one static slice at cgi's rate beside it, round " + round.round());
        }
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("230 to cgi"), err.toString(StandardCharsets.UTF_8));
    }

    /**
     * Two probes of one server at one load (--pairs cgi/servlet): the servlet's slices run in cgi's part too, and their
     * ratio comes from the slices there (the model's 20 / 0.9 at any one rate), not from each at its own rate (the
     * servlet at the held 4,500 req/s costs less a request than at cgi's 230: 20 × 317 / (0.9 × 111) = 63 at two).
     */
    @Test
    void oneServersPairIsTakenAtTheSlowerOnesRate() throws Exception {
        FakeEngine engine = new FakeEngine(FACTOR, Map.of(), CAPACITY);
        CpuRounds done = rounds(engine, arms((String) null), null, List.of("cgi/servlet"));
        for (CpuRounds.Round round : done.rounds()) {
            assertEquals(1, round.slices().stream().filter(t -> t.probe().equals("servlet") && t.offeredRps() == 230)
                    .count(), "a servlet slice at cgi's rate beside it, round " + round.round());
        }
        ArmRatio pair = RoundFigures.pairs(done, p -> SpiceFigures.CpuSource.SERVER).stream()
                .filter(r -> r.a().equals("servlet") && r.b().equals("cgi")).findFirst().orElseThrow();
        assertEquals(230.0, pair.atRps(), "said at the one load");
        assertEquals(0.9 / 20, pair.ratio(), 0.001, "the model's ratio at one rate");
        assertEquals(0.9, RoundFigures.of(done, p -> SpiceFigures.CpuSource.SERVER).get("servlet").paired().ratio(),
                0.01, "the servlet's own figures from its slices at the held rate alone");

        ArmRatio apart = RoundFigures.pairs(rounds(new FakeEngine(FACTOR, Map.of(), CAPACITY), arms((String) null),
                null), p -> SpiceFigures.CpuSource.SERVER).stream().filter(r -> r.a().equals("servlet")
                && r.b().equals("cgi")).findFirst().orElseThrow();
        assertNull(apart.atRps(), "without --pairs each at its own rate, and said so");
        assertEquals(0.9 * (100 + 50_000 / 4_500.0) / (20 * (100 + 50_000 / 230.0)), apart.ratio(), 0.001);
    }

    @Test
    void theSlicesTheHypervisorTookAreInNoFigure() throws Exception {
        FakeEngine engine = new FakeEngine(FACTOR, Map.of(), CAPACITY);
        engine.stolenRound = 1;   // round 1's first part: the held rate's, the static file in it
        CpuRounds done = rounds(engine, arms((String) null), StealLimit.above(0.01));
        assertTrue(done.leftOutForSteal() > 0, "the part it stole from: " + done.leftOutForSteal());
        assertEquals(100 + 50_000 / 4_500.0, RoundFigures.of(done, p -> SpiceFigures.CpuSource.SERVER).get("static")
                .cpuUsPerReq(), 1.2, "within the model's jitter (under 1 %): four times the CPU in the stolen part, and no trace of it");
        double[] left = RoundFigures.series(done, "static", SpiceFigures.CpuSource.SERVER);
        double[] kept = RoundFigures.series(done.leavingOut(null), "static", SpiceFigures.CpuSource.SERVER);
        int stolen = 0;
        for (int r = 0; r < kept.length; r++) {
            if (kept[r] > 2 * (100 + 50_000 / 4_500.0)) {
                stolen++;
                assertTrue(Double.isNaN(left[r]) || left[r] < 1.1 * (100 + 50_000 / 4_500.0), "round " + (r + 1)
                        + ": without the bound " + kept[r] + " µs, with it " + left[r]);
            }
        }
        assertEquals(1, stolen, "one round's static slices at the held rate were stolen from: " + engine.parts);
    }
}
