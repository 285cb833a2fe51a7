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

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.analysis.ResultsFiles;
import org.spice.bench.model.BenchSettings;
import org.spice.bench.model.CpuPlan;
import org.spice.bench.model.Failure;
import org.spice.bench.model.Results;
import org.spice.bench.model.RunRecord;
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
