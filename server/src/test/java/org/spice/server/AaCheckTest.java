package org.spice.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.analysis.Summaries;
import org.spice.bench.figures.SpiceFigures;
import org.spice.bench.model.Results;
import org.spice.bench.model.ResultsJson;
import org.spice.bench.model.RunRecord;
import org.spice.commands.BenchCommand;
import org.spice.page.CanonicalPage;
import org.spice.testkit.Bound;
import org.spice.testkit.CommandRun;
import org.spice.testkit.Text;

/**
 * The A/A check: the embedded server, started as a process of its own (so its CPU is apart from the client's), has
 * its static file measured twice in one run under two names; the paired rounds put their ratio's 95 % interval around
 * 1 and the verdict calls them the same, and every ladder figure carries its slices and its interval (one repeat: the
 * order rotated between repeats is LadderOrderTest's). A 95 % interval covers 1 one time in
 * twenty whatever the rounds, so few rounds test it as well as many; but an interval needs six counted rounds, and a
 * round the server's JIT compiled through is left out: 20 s made 6-7 rounds here, and CI once counted 5 of 7 (two
 * left out) and had no interval. 32 s makes 10-11, so up to four can be left out.
 */
class AaCheckTest {

    @TempDir
    Path dir;

    private EmbeddedProcess server;

    @AfterEach
    void stop() throws InterruptedException {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void theSameProbeMeasuredTwiceIsCalledTheSame() throws Exception {
        server = EmbeddedProcess.start(dir);
        Path again = dir.resolve("static-again.mix");
        Files.writeString(again, "1 /spice/static/spice.html\n");
        // A 95 % interval misses the truth one time in twenty by construction (CI once saw 1.050 ± 4.7 % after ten
        // runs within 0.98-1.02), so a miss earns one fresh measurement, under another seed's order: a tool that is
        // right fails both one time in 400, a bias of the interval's size fails both about one time in four.
        // A measurement the machine took rounds from (the hypervisor's steal, the JIT: CI, 2026-12-04, kept 3 of 10
        // rounds with half the slices stolen) has no interval to judge; it earns the fresh one too, and says why.
        Attempt first = bench(again, 1);
        if (first.judged() && first.calledTheSame()) {
            first.assertVerdict();
            return;
        }
        System.out.printf("A/A: the first measurement%s (%s); measuring again%n", first.judged()
                ? "'s interval missed 1" : " had too few rounds for an interval, " + first.leftOut, first.aa.rounds());
        Attempt second = bench(again, 2);
        assertTrue(second.judged(), "A/A, twice without an interval: " + second.leftOut + "\n" + second.printed);
        second.assertVerdict();
    }

    private Attempt bench(Path again, long seed) throws Exception {
        Path out = dir.resolve("results-" + seed);
        CommandRun ran = CommandRun.of(new BenchCommand(), "--target", "http://127.0.0.1:" + server.port,
                "--server-pid", Long.toString(server.process.pid()), "--probes", "static", "--mix", again.toString(),
                "--clients", "8", "--repeat", "1", "--ramp-up", "0.5", "--duration", "3", "--ramp-down", "0.2",
                "--pause", "0", "--warm-up", "10", "--cpu-time", "32", "--seed", Long.toString(seed),
                "--out", out.toString());
        int status = ran.status();
        String printed = Text.unwrapped(ran.console());
        assertEquals(0, status, printed);
        Results results;
        try (Stream<Path> files = Files.walk(out)) {
            results = ResultsJson.read(files.filter(p -> p.getFileName().toString().equals(ResultsJson.FILE))
                    .findFirst().orElseThrow());
        }
        for (RunRecord run : results.runs()) {
            assertEquals(3, run.slices().size(), run.probe() + ": a 3 s window is three slices");
            assertEquals(run.requests(), run.slices().stream().mapToLong(s -> s.requests()).sum(), "the slices add up");
            assertTrue(run.serverCpuUsPerReqCi() > 0, run.probe() + " has an interval: " + run.slices());
            // The kernel's counters for the server's process: a resident server starts no process per request.
            // The server writes at least the page for each request (its head too; wchar counts write-like calls).
            assertTrue(run.serverCtxSwitchesPerReq() > 0 && run.serverPageFaultsPerReq() >= 0
                    && run.serverWrittenBytesPerReq() >= CanonicalPage.builtBytes(), run.probe() + ": " + run.kernel());
            Bound.atMost(run.probe() + ": processes started per request", run.processesPerReq(), 0.1, "a resident"
                    + " server starts none; the machine's own forks (a few a second) over thousands of requests");
        }
        assertEquals(2, results.steadyState().size(), "both workloads warmed: " + results.steadyState());
        assertTrue(results.idle() != null && results.idle().serverCpuCores() >= 0, "idle CPU measured: " + results.idle());
        SpiceFigures.Summary aa = Summaries.of(results).get(1);
        assertEquals("static-again", aa.probe());
        assertTrue(results.cpuRounds() != null && results.cpuRounds().rounds().size() >= 5, "rounds: " + results.cpuRounds());
        assertTrue(aa.rounds().measured(), "A/A: " + aa.rounds() + "\n" + printed);
        int leftOut = results.cpuRounds().rounds().size() - results.cpuRounds().counted();
        int stolen = results.cpuRounds().leftOutForSteal();
        assertTrue(aa.cpuIntervalsKnown() || leftOut + stolen > 0, "A/A: no interval, and no round or slice left out: "
                + aa.rounds() + "\n" + printed);
        System.out.printf("A/A: static-again %.3f × static ± %.3f over %d rounds (seed %d)%n", aa.rounds().cpuRatio(),
                aa.rounds().cpuRatioCi(), aa.rounds().cpuRounds(), seed);
        return new Attempt(aa, printed, String.format("%d rounds left out for the JIT, %d slices for the hypervisor's"
                + " steal", leftOut, stolen));
    }

    /** One bench's A/A figure, what it printed, and what the machine took from its rounds. */
    private record Attempt(SpiceFigures.Summary aa, String printed, String leftOut) {

        /** Whether the ratio has an interval to judge it by. */
        boolean judged() {
            return aa.cpuIntervalsKnown();
        }

        boolean calledTheSame() {
            return !aa.cpuDistinguishableFromStatic();
        }

        /** The paired rounds: the same file under two names, its ratio 1 within its interval, and said so. */
        void assertVerdict() {
            assertTrue(calledTheSame(), "A/A: " + aa.rounds() + "\n" + printed);
            assertTrue(printed.contains("static-again costs the same as the static file within ± "), printed);
        }
    }
}
