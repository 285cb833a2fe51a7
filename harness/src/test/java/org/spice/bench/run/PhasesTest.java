package org.spice.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.analysis.ResultsFiles;
import org.spice.bench.model.Across;
import org.spice.bench.model.BenchSettings;
import org.spice.bench.model.CpuPlan;
import org.spice.bench.model.CpuSlice;
import org.spice.bench.model.Failure;
import org.spice.bench.model.Protocol;
import org.spice.bench.model.Results;
import org.spice.bench.model.RunRecord;
import org.spice.bench.model.Stop;
import org.spice.commands.BenchCommand;

/**
 * A run's phases in order against {@link FakeEngine} (no server, no load): the warm-up's slices, then the CPU rounds
 * at their offered rate, then the ladder, each recorded in the server's results; a phase that ends the run keeps what
 * was measured, and the phases after it do not run; the earlier starts of --restarts run the rounds alone
 * ({@link FakeBench}).
 */
@Tag("unit")
class PhasesTest {

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

    /** The settings of a short bench of the static file and the servlet, at {@code rate} (a number or auto). */
    private BenchSettings settings(String rate) {
        return bench.settings("--cpu-rate", rate);
    }

    @Test
    void oneServerIsWarmedThenMeasuredInRoundsAtTheRateThenRunsItsLadder() throws Exception {
        FakeEngine engine = new FakeEngine(FACTOR, Map.of(), CAPACITY);
        Phases.Member m = bench.member(settings("500"), engine);
        assertNull(bench.run(m, true), bench.said());
        List<String> calls = engine.calls;
        int lastSlice = calls.lastIndexOf("slice servlet");
        int firstOpen = calls.indexOf("open 500");
        int firstRun = calls.indexOf("run static 2");
        assertTrue(calls.indexOf("slice static") == 0 && lastSlice < firstOpen && firstOpen < firstRun, calls.toString());
        assertFalse(calls.contains("round"), "at a given rate, one server goes from its warm-up into the rounds: "
                + calls);
        assertEquals(List.of("run servlet 2", "run static 2"), calls.subList(firstRun, calls.size()).stream().sorted()
                .toList(), "the ladder: each probe at 2 clients once, after the rounds");

        assertEquals(0, m.recorder().finish(null, new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8)));
        Results read = ResultsFiles.read(m.recorder().dir());
        assertFalse(read.partial());
        assertEquals(500, read.cpuRounds().offeredRps());
        assertTrue(read.cpuRounds().rounds().size() >= 2, read.cpuRounds().stopped());
        assertEquals(List.of("servlet", "static"), read.runs().stream().map(RunRecord::probe).sorted().toList());
        assertNotNull(read.summary(), "concluded where the run ends");
        assertEquals(0.9, read.summary().stream().filter(s -> s.probe().equals("servlet")).findFirst().orElseThrow()
                .rounds().cpuRatio(), 0.01, "the model's servlet costs 0.9 × the static file at one rate");
    }

    @Test
    void aRoundThatEndsTheRunKeepsWhatWasMeasuredAndNoLadderRuns() throws Exception {
        FakeEngine engine = new FakeEngine(FACTOR, Map.of(), CAPACITY);
        engine.endingRound = 3;
        Phases.Member m = bench.member(settings("500"), engine);
        Failure cut = bench.run(m, true);
        assertNotNull(cut);
        assertEquals(Failure.Kind.SERVER_DOWN, cut.kind());
        assertTrue(engine.calls.stream().noneMatch(c -> c.startsWith("run ")), engine.calls.toString());
        m.recorder().finish(cut, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        Results read = ResultsFiles.read(m.recorder().dir());
        assertTrue(read.partial(), "marked partial");
        assertEquals(2, read.cpuRounds().rounds().size(), "the two rounds before the one that ended the run");
    }

    @Test
    void anEarlierStartRunsItsRoundsAloneAndNoLadder() throws Exception {
        FakeEngine engine = new FakeEngine(FACTOR, Map.of(), CAPACITY);
        assertNull(bench.run(bench.member(settings("500"), engine), false));
        assertTrue(engine.calls.contains("open 500"), engine.calls.toString());
        assertTrue(engine.calls.stream().noneMatch(c -> c.startsWith("run ")), engine.calls.toString());
    }

    @Test
    void withTheRateToFindTheRoundsBeginWithARoundAtTheClientsThatFindsIt() throws Exception {
        FakeEngine engine = new FakeEngine(FACTOR, Map.of(), CAPACITY);
        Phases.Member m = bench.member(settings("auto"), engine);
        assertNull(bench.run(m, false));
        int round = engine.calls.indexOf("round");
        assertTrue(round > engine.calls.lastIndexOf("slice servlet"), engine.calls.toString());
        assertEquals("open 4000", engine.calls.get(round + 1), "half the slowest probe's 8,000 req/s in that round");
    }

    /**
     * Two servers side by side: each warmed, then the rounds of both on the one engine they share (every round holds
     * both servers' arms, at the one rate), then each one's ladder; the figures across them come out of those rounds
     * (the model's second server costs 1.5 × the first, probe for probe) into the side-by-side results, and each
     * server's results get its own rounds.
     */
    @Test
    void serversSideBySideShareOneEnginesRoundsAndTheirRatioComesOutAtOneLoad() throws Exception {
        FakeEngine engine = new FakeEngine(FACTOR, Map.of("b", 1.5), CAPACITY);
        BenchSettings settings = settings("500");
        Phases.Member a = bench.member(settings, engine);
        Phases.Member b = bench.member(settings, engine);
        List<Phases.Member> both = List.of(a, b);
        SideBySide.Plan plan = new SideBySide.Plan(List.of(Protocol.HTTP10), List.of(), List.of(), true,
                dir.resolve("side-by-side"));
        SideBySide side = new SideBySide(List.of(new BenchRun.Instance("a", "a", settings),
                new BenchRun.Instance("b", "b", settings)), plan, List.of(a.recorder().dir(), b.recorder().dir()), bench.err,
                (given, tls, stop, all, residents) -> engine);
        Stop stop = new Stop();
        assertNull(Phases.run(both, warmUpS -> side.rounds(both, warmUpS, stop), true, stop, bench.err), bench.said());

        List<String> rounds = engine.parts.stream().filter(p -> !p.startsWith("closed ")).toList();
        assertFalse(rounds.isEmpty(), engine.parts.toString());
        assertTrue(rounds.stream().allMatch(p -> p.startsWith("500 ")), "every round at the one rate: " + rounds);
        for (String round : rounds) {
            for (String arm : List.of("a", "b")) {
                assertTrue(round.contains(CpuSlice.arm(arm, "static")) && round.contains(CpuSlice.arm(arm, "servlet")),
                        "every round holds both servers' arms at the one rate: " + round);
            }
        }
        assertEquals(4, engine.calls.stream().filter(c -> c.startsWith("run ")).count(),
                "each server's ladder, after the rounds: " + engine.calls);
        int firstLadder = engine.calls.indexOf(engine.calls.stream().filter(c -> c.startsWith("run ")).findFirst()
                .orElseThrow());
        assertTrue(engine.calls.lastIndexOf("open 500") < firstLadder, "the ladders after every round: " + engine.calls);

        Results together = side.written();
        assertNotNull(together, "the side-by-side results, written where the rounds end");
        assertFalse(together.partial());
        Across.Cross statics = together.across().cross().stream()
                .filter(c -> c.probe().equals("static") && Set.of(c.a(), c.b()).equals(Set.of("a", "b"))).findFirst()
                .orElseThrow(() -> new AssertionError("no a/b figure for the static file: " + together.across().cross()));
        assertEquals(statics.a().equals("b") ? 1.5 : 1 / 1.5, statics.ratio(), 0.02,
                "the model's second server costs 1.5 × the first, at one rate: " + statics);
        assertTrue(statics.rounds() >= 2 && statics.low() <= statics.ratio() && statics.ratio() <= statics.high(),
                statics.toString());
        for (Phases.Member m : both) {
            m.recorder().finish(null, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), false);
            Results own = ResultsFiles.read(m.recorder().dir());
            assertNotNull(own.cpuRounds(), "each server's results get its rounds");
            assertEquals(List.of("servlet", "static"), own.runs().stream().map(RunRecord::probe).sorted().toList(),
                    "each server's own ladder");
        }
    }

    /** One rule for the first round and the bound of every run, one server's or several side by side. */
    @Test
    void oneRuleForTheFirstRoundAndTheTimeBound() {
        CpuPlan given = settings("500").cpu();
        CpuPlan auto = settings("auto").cpu();
        assertFalse(PairedRounds.leadRound(given, 1, 1), "one server at a given rate: none");
        assertTrue(PairedRounds.leadRound(auto, 1, 1), "the rate to find");
        assertTrue(PairedRounds.leadRound(given, 2, 2), "servers warmed before the last have idled since");
        assertTrue(PairedRounds.leadRound(given, 1, 2), "a server's other protocol, warmed after it");
        assertEquals(6, PairedRounds.boundS(given, 100, 1, 1), 1e-9, "--cpu-time: as given");
        assertEquals(24, PairedRounds.boundS(given, 100, 2, 4), 1e-9, "--cpu-time per arm");
        CpuPlan shared = BenchCommand.settings("--target", "http://127.0.0.1:1", "--probes", "static,module").cpu();
        assertEquals(2 * shared.boundS(40), PairedRounds.boundS(shared, 80, 2, 2), 1e-9,
                "each server's share of the warm-up, one server's bound per arm");
    }
}
