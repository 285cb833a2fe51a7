package org.spice.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.analysis.Summaries;
import org.spice.bench.figures.SpiceFigures;
import org.spice.bench.mix.Mix;
import org.spice.bench.model.CpuRounds;
import org.spice.bench.model.CpuSlice;
import org.spice.bench.model.Results;
import org.spice.bench.model.ResultsJson;
import org.spice.bench.net.TestServer;
import org.spice.commands.ShortBench;
import org.spice.page.Probe;
import org.spice.testkit.Bound;
import org.spice.testkit.Text;

/** The CPU rounds in a real bench against a test server: shuffled per round, paired, written, and their answer given. */
@Tag("load")
class PairedRoundsTest {

    @AutoClose
    private TestServer server;

    @Test
    void eachRoundIsEveryWorkloadOnceAndTheStaticFileRootKTimesInAnOrderOfItsOwnTheSameForTheSameSeed() {
        List<Mix> mixes = Stream.of(Probe.STATIC, Probe.SERVLET, Probe.JSP, Probe.CGI, Probe.SHTML, Probe.MODULE)
                .map(Mix::of).toList();
        Set<List<String>> orders = IntStream.rangeClosed(1, 10).mapToObj(r -> names(PairedRounds.order(mixes, 1, r)))
                .collect(Collectors.toSet());
        assertTrue(orders.size() > 5, "the order changes from round to round: " + orders);
        for (List<String> order : orders) {
            assertEquals(Set.copyOf(names(mixes)), Set.copyOf(order));
            assertEquals(mixes.size() + 1, order.size(), "static twice beside five probes: " + order);
            assertEquals(2, order.stream().filter("static"::equals).count(), order.toString());
        }
        assertEquals(List.of(1, 1, 1, 2, 2, 2, 2, 3, 3), IntStream.rangeClosed(0, 8).map(PairedRounds::staticSlices)
                .boxed().toList(), "√k static slices beside k probes, at least one");
        assertEquals(3, PairedRounds.order(mixes.subList(0, 3), 1, 1).size(), "static once beside two probes");
        List<Mix> noStatic = mixes.subList(1, 6);
        assertEquals(noStatic.size(), PairedRounds.order(noStatic, 1, 1).size(), "no static file: each workload once");
        assertEquals(names(PairedRounds.order(mixes, 7, 3)), names(PairedRounds.order(mixes, 7, 3)), "the seed decides");
        assertNotEquals(names(PairedRounds.order(mixes, 7, 3)), names(PairedRounds.order(mixes, 8, 3)));
    }

    @Test
    void everyWorkloadIsFirstAsOftenAsLastOverEachPairOfRoundsAndTwoWorkloadsSwapPlaces() {
        List<Mix> two = Stream.of(Probe.STATIC, Probe.SERVLET).map(Mix::of).toList();
        for (long seed = 1; seed <= 5; seed++) {
            int staticFirst = 0;
            for (int r = 1; r <= 40; r++) {
                staticFirst += names(PairedRounds.order(two, seed, r)).get(0).equals("static") ? 1 : 0;
            }
            assertEquals(20, staticFirst, "seed " + seed + ": static first in half the rounds");
        }
        List<Mix> six = Stream.of(Probe.STATIC, Probe.SERVLET, Probe.JSP, Probe.CGI, Probe.SHTML, Probe.MODULE)
                .map(Mix::of).toList();
        List<String> odd = names(PairedRounds.order(six, 1, 7));
        List<String> even = new java.util.ArrayList<>(names(PairedRounds.order(six, 1, 8)));
        java.util.Collections.reverse(even);
        assertEquals(odd, even, "round 8 is round 7 reversed");
        Set<String> firsts = IntStream.rangeClosed(1, 30).filter(r -> r % 2 == 1)
                .mapToObj(r -> names(PairedRounds.order(six, 1, r)).get(0)).collect(Collectors.toSet());
        assertTrue(firsts.size() >= 4, "the odd rounds' first workload varies: " + firsts);
    }

    @Test
    void aBenchRunsTheRoundsBeforeTheLadderAndAnswersInRatios(@TempDir Path dir) throws Exception {
        // the "server's process" is a shell spinning beside the test server: no JVM, so no round is left out for its
        // JIT and every round is in the ratio (this JVM's own JIT compiles while the rounds run; the test below)
        Process spinning = new ProcessBuilder("sh", "-c", "while :; do :; done").start();
        try {
            Results read = bench(dir, spinning.pid());
            CpuRounds rounds = read.cpuRounds();
            Bound.atLeast("rounds within the 9 s bound", rounds.rounds().size(), 2, "rounds of 2 × 1 s slices and their"
                    + " edges (2.2-2.5 s here) within 9 s: three or four; two leaves a slow machine its room");
            assertEquals(2, rounds.clients());
            assertTrue(rounds.stopped().startsWith("the time bound") || rounds.stopped().startsWith("every probe"),
                    rounds.stopped());
            for (CpuRounds.Round round : rounds.rounds()) {
                assertEquals(Set.of("static", "servlet"), round.slices().stream().map(CpuSlice::probe)
                        .collect(Collectors.toSet()));
            }
            assertTrue(rounds.rounds().stream().allMatch(r -> r.slices().stream().allMatch(t -> Double.isNaN(t.jitCpuS()))),
                    "no JVM, no JIT read");
            SpiceFigures.Summary servlet = summary(read, "servlet");
            assertTrue(servlet.rounds().measured() && servlet.rounds().cpuRatio() > 0, servlet.rounds().toString());
            assertEquals(rounds.rounds().size(), servlet.rounds().cpuRounds(), "every round counts");
            assertTrue(bench.err().contains("cpu round 1 at 2 clients, 1 counted, so far: static"), bench.err());
            assertFalse(bench.err().contains("NaN") || bench.err().contains("± -"), bench.err());
            assertTrue(Text.unwrapped(bench.out()).contains("paired rounds at 2 clients"), bench.out());
        } finally {
            spinning.destroyForcibly().waitFor();
        }
    }

    /**
     * One server's default: the probes near the static file's rate held at one offered rate with it, a probe far
     * slower (a "CGI" the test server answers after 10 ms) offered half its own rate in a part of each round, with
     * static slices at that rate beside it, so that its ratio is at one load, said once in its row.
     */
    @Test
    void byDefaultAFarSlowerProbeRunsAtItsOwnRateWithTheStaticFileBesideIt(@TempDir Path dir) throws Exception {
        Process spinning = new ProcessBuilder("sh", "-c", "while :; do :; done").start();
        try {
            server = new TestServer((head, socket, o) -> {
                if (head.contains("/cgi-bin/")) {
                    Thread.sleep(10);
                }
                TestServer.respond(o, 200, ShortBench.SIZE, ShortBench.SIZE);
                return true;
            });
            int status = bench.run(server, dir, "--no-verify", "--probes", "static,servlet,cgi", "--clients", "2",
                    "--server-pid", Long.toString(spinning.pid()), "--cpu-time", "14");
            assertEquals(0, status, bench.out() + bench.err());
            Results read = ResultsJson.read(results(dir).resolve(ResultsJson.FILE));
            CpuRounds rounds = read.cpuRounds();
            assertEquals(List.of(), rounds.atClients(), "no probe at the client count by default");
            double cgiRate = rounds.farOfferedRps().get("cgi");
            assertTrue(cgiRate < 400 && cgiRate < rounds.offeredRps(), "at most 800 req/s at 8 clients, half of it: "
                    + rounds.farOfferedRps());
            assertTrue(rounds.rateFrom().startsWith("auto: 0.5 × s") && rounds.offeredRps() >= 1, rounds.rateFrom());
            assertTrue(rounds.rounds().size() >= 1, "a round within 14 s, the rate-finding round's 3.5 s in them");
            for (CpuRounds.Round round : rounds.rounds()) {
                assertEquals(Set.of("static", "servlet", "cgi"), round.slices().stream().map(CpuSlice::probe)
                        .collect(Collectors.toSet()), "both parts in every round");
                assertTrue(round.slices().stream().anyMatch(t -> t.probe().equals("static")
                        && t.offeredRps() == cgiRate), "a static slice at cgi's rate in round " + round.round());
                for (CpuSlice t : round.slices()) {
                    double offered = t.probe().equals("cgi") ? cgiRate : t.offeredRps();
                    assertEquals(offered, t.offeredRps(), "each slice says its offered rate");
                    assertEquals(offered, t.requests() / t.durationS(), 0.05 * offered + 2, "and ran at it: " + t);
                }
            }
            SpiceFigures.Rounds cgi = summary(read, "cgi").rounds();
            assertEquals(CpuRounds.OFFERED, cgi.rateKind());
            assertEquals(cgiRate, cgi.rateRps(), "one rate for cgi's ratio");
            assertNull(cgi.staticRateRps(), "the static file ran at it");
            assertEquals(rounds.offeredRps(), summary(read, "servlet").rounds().rateRps());
            String load = String.format(java.util.Locale.ROOT, "%,.0f req/s offered", rounds.offeredRps());
            assertTrue(bench.err().contains("cpu round 1 at " + load), bench.err());
            String said = Text.unwrapped(bench.out());
            assertTrue(said.contains("paired rounds at " + load), said);
            assertTrue(said.contains("cgi runs under 67 % of the static file's rate, too slow to hold "), said);
            assertTrue(said.contains("each ratio is taken at one load, the rate in its row"), said);
            assertTrue(said.contains(String.format(java.util.Locale.ROOT, "%,.0f offered", cgiRate)), said);
        } finally {
            spinning.destroyForcibly().waitFor();
        }
    }

    @Test
    void aJavaServersJitIsReadInEverySliceAndTheRoundsItCompiledThroughAreInNoFigure(@TempDir Path dir) throws Exception {
        // this JVM is the server: how many rounds its JIT compiles through depends on the machine, so the test asks
        // only that the JIT was read throughout and that the figure counts exactly the rounds the harness kept
        CpuRounds rounds = bench(dir, ProcessHandle.current().pid()).cpuRounds();
        assertTrue(rounds.rounds().stream().allMatch(r -> r.slices().stream().allMatch(t -> !Double.isNaN(t.jitCpuS()))),
                "a JVM's JIT is read in every slice");
        Results read = ResultsJson.read(results(dir).resolve(ResultsJson.FILE));
        assertEquals(rounds.counted(), summary(read, "servlet").rounds().cpuRounds());
        assertEquals(rounds.rounds().stream().filter(r -> !r.jitBusy()).count(), rounds.counted());
    }

    /** A slice of 5,000 requests at {@code cpuUs} each, the JIT taking {@code jitShare} of it. */
    private static CpuSlice taken(String probe, double cpuUs, double jitShare) {
        double cpuS = cpuUs * 5000 / 1e6;
        return new CpuSlice(probe, 5000, 0, 1.0, cpuS, cpuS, 0.4, jitShare * cpuS);
    }

    private final ShortBench bench = new ShortBench();

    private Results bench(Path dir, long serverPid) throws Exception {
        server = new TestServer((head, socket, o) -> {
            TestServer.respond(o, 200, ShortBench.SIZE, ShortBench.SIZE);
            return true;
        });
        int status = bench.run(server, dir, "--no-verify", "--probes", "static,servlet", "--clients", "2",
                "--server-pid", Long.toString(serverPid), "--cpu-time", "9", "--cpu-clients", "2");
        assertEquals(0, status, bench.out() + bench.err());
        Path results = results(dir);
        assertTrue(Files.readString(results.resolve(ResultsJson.FILE)).contains("\"cpu_rounds\""));
        return ResultsJson.read(results.resolve(ResultsJson.FILE));
    }

    private static Path results(Path dir) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.findFirst().orElseThrow();
        }
    }

    private static SpiceFigures.Summary summary(Results read, String probe) {
        return Summaries.of(read).stream().filter(s -> s.probe().equals(probe)).findFirst().orElseThrow();
    }

    private static List<String> names(List<Mix> mixes) {
        return mixes.stream().map(Mix::name).toList();
    }
}
