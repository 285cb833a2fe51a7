package org.spice.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.spice.bench.analysis.RoundFigures;
import org.spice.bench.model.CpuRounds;
import org.spice.bench.model.CpuSlice;
import org.spice.bench.model.Results;
import org.spice.bench.model.ResultsJson;
import org.spice.commands.BenchCommand;
import org.spice.page.CanonicalPage;
import org.spice.testkit.Bound;
import org.spice.testkit.CommandRun;
import org.spice.testkit.MachineSpeed;

/**
 * The CPU rounds are reproducible within a run on a Java server, where drift was worst: on Jetty (where one CI run's
 * static figure rose 1.25 × between thirds; Tomcat's rounds are read by the same code, and its A/A holds over two
 * starts in SideBySideTest), started by bench in its cgroup, each probe's ratio to the static file over the first half
 * of the rounds agrees with the last half's within their intervals, and the static file's own CPU likewise. Halves,
 * not thirds: each needs six rounds for an interval, twelve counted. The servlet stands for the in-process probes (the
 * module's rounds are read by the same code): rounds of static and servlet take some 3.2 s (45 s held 14 here, 13
 * counted), so the 52 s bound holds 16, room for four the JIT compiles through or the hypervisor takes (with the module
 * too, 4.2 s a round, 70 s and 114 s in all; a 60 s bound, 14 rounds, once counted 11; thirds over Tomcat and Jetty
 * took 240 s). Run once, with the default page.
 */
class RoundsReproducibleTest {

    /**
     * The warm-up before this machine's slowness: Jetty's JIT compiles for longer on a slower machine, and a round it
     * compiles through is left out. At 8,608 req/s (1.85 × slower than the reference) a 10 s warm-up ended with its JIT
     * at 31-50 % of the server's CPU, and one suite's rounds counted 3 of 31 (a bench by hand after it: 29 of 31).
     */
    private static final int WARM_UP_S = 10;
    /**
     * The rounds' time bound (see the class's words), the same on any machine: a round is slices of a fixed length, so
     * a slower machine holds as many rounds in it; what it lengthens is the JIT's compiling, which the warm-up, scaled,
     * takes. At 7,914 req/s (2.0 × slower), with both scaled, 33 of 34 rounds counted in 104 s: 16 here.
     */
    private static final int BOUND_S = 52;
    /** How far the static file's own CPU may drift between the halves: the bound the issue sets for a first repeat. */
    private static final double STATIC_DRIFT = 0.25;
    /** How far apart the halves may be, in sums of their 95 % half-widths (see the bound's words). */
    private static final double GAP_OVER_INTERVALS = 1.2;

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"jetty"})
    void theFirstHalfOfTheRoundsAgreesWithTheLast(String server) throws Exception {
        Assumptions.assumeTrue(CanonicalPage.builtBytes() == CanonicalPage.DEFAULT_BYTES,
                "run once, with the default page (this build's is " + CanonicalPage.builtBytes() + " bytes)");
        CommandRun ran = CommandRun.of(new BenchCommand(), "--server", server, "--probes", "static,servlet",
                "--clients", "8", "--ramp-up", "0.5", "--duration", "1", "--ramp-down", "0.2", "--pause", "0",
                "--warm-up", Long.toString(Math.round(WARM_UP_S * MachineSpeed.slowness(3))),
                "--cpu-time", Integer.toString(BOUND_S),
                "--cpu-precision", "0.5", "--out", dir.toString());
        int status = ran.status();
        String said = ran.console();
        assertEquals(0, status, said);
        Results results;
        try (Stream<Path> files = Files.walk(dir)) {
            results = ResultsJson.read(files.filter(p -> p.getFileName().toString().equals(ResultsJson.FILE)).findFirst()
                    .orElseThrow());
        }
        assertTrue(results.settings().serverCgroup() != null, "bench read the server's cgroup: " + results.settings());
        CpuRounds rounds = results.cpuRounds();
        // the halves of the rounds that count: a round the JIT compiled through is left out of every figure, and so is
        // a slice the hypervisor took too much of (the round goes: its ratio would stand on one arm)
        List<CpuRounds.Round> counted = rounds.rounds().stream().filter(r -> !r.jitBusy() && (rounds.stealLimit() == null
                || r.slices().stream().noneMatch(rounds.stealLimit()::leavesOut))).toList();
        int half = counted.size() / 2;
        System.out.printf("rounds reproducible: %d of %d rounds counted in %.0f s%n", counted.size(), rounds.rounds()
                .size(), rounds.timeBoundS());
        assertTrue(half >= RoundFigures.MIN_ROUNDS, "enough rounds for halves with intervals: " + counted.size() + " of "
                + rounds.rounds().size() + " in " + rounds.timeBoundS() + " s, after a warm-up of " + WARM_UP_S + " s × this"
                + " machine's slowness, " + MachineSpeed.slowness(3) + ": its rate " + MachineSpeed.measuredRps() + " req/s"
                + " against " + MachineSpeed.REFERENCE_RPS);
        CpuRounds first = new CpuRounds(rounds.clients(), rounds.precision(), rounds.timeBoundS(), "", counted.subList(0,
                half));
        CpuRounds last = new CpuRounds(rounds.clients(), rounds.precision(), rounds.timeBoundS(), "", counted.subList(
                counted.size() - half, counted.size()));
        for (String probe : List.of("static", "servlet")) {
            RoundFigures.Figures a = RoundFigures.of(first, results::cpuSource).get(probe);
            RoundFigures.Figures b = RoundFigures.of(last, results::cpuSource).get(probe);
            double[] x = probe.equals("static") ? new double[] {a.cpuUsPerReq(), a.cpuUsPerReqCi()}
                    : new double[] {a.paired().ratio(), a.paired().ratioCi()};
            double[] y = probe.equals("static") ? new double[] {b.cpuUsPerReq(), b.cpuUsPerReqCi()}
                    : new double[] {b.paired().ratio(), b.paired().ratioCi()};
            String figures = String.format("%s %s: first half %.3f ± %.3f, last half %.3f ± %.3f (%s)", server, probe,
                    x[0], x[1], y[0], y[1], probe.equals("static") ? "µs per request" : "× static");
            System.out.println("rounds reproducible: " + figures);
            // A ratio is paired by round, so the machine's drift cancels in it: its halves agree within their intervals.
            // The static file's own figure carries that drift (two default runs here differed by 14 %; one CI run's
            // last third on Jetty rose to 1.25 x its first while every ratio held): within the intervals or 25 %.
            double gap = Math.abs(x[0] - y[0]) / (x[1] + y[1]);
            if (probe.equals("static") && gap > 1 && Math.abs(Math.log(y[0] / x[0])) > Math.log(1 + STATIC_DRIFT)) {
                // Past 25 %, the machine itself is the first suspect: the client ran on the same two cores through
                // the same slices, so its own CPU per request drifts with the machine's speed and not with the
                // server's JIT; the server's drift over the client's is the server's own.
                double machine = clientUsPerRequest(last) / clientUsPerRequest(first);
                System.out.printf("rounds reproducible: %s static drifted %.3f ×, the client's CPU per request %.3f ×"
                        + " (steal, of a CPU: first half %.3f, last half %.3f)%n", server, y[0] / x[0], machine,
                        stealShare(first), stealShare(last));
                Bound.ratio(server + " static: last half's µs per request over the client's drift", y[0] / machine,
                        x[0], STATIC_DRIFT, "not paired, so the machine's drift is in it, taken out by the client's own"
                        + " (same cores, same slices): two default runs here differed by 14 %, one CI run's last third on"
                        + " Jetty 1.25 × its first while every ratio held, another 1.39 × (247 against 344 µs)");
            } else if (probe.equals("static") && gap > 1) {
                Bound.ratio(server + " static: last half's µs per request", y[0], x[0], STATIC_DRIFT, "not paired:"
                        + " within 25 % where the intervals do not overlap");
            } else {
                Bound.atMost(server + " " + probe + ": halves' gap over the sum of their 95 % half-widths", gap,
                        GAP_OVER_INTERVALS, "the sum of two 95 % half-widths is 2.8 sd of the halves' gap, a miss one"
                        + " time in 180 by chance, six checks a run; 1.2 × the sum is 3.3 sd, one in a thousand");
            }
        }
    }

    /** The client's CPU per request over the static file's slices: the machine's speed, as the client felt it. */
    private static double clientUsPerRequest(CpuRounds rounds) {
        double cpu = 0;
        long requests = 0;
        for (CpuRounds.Round round : rounds.rounds()) {
            for (CpuSlice slice : round.slices()) {
                if (slice.probe().equals("static")) {
                    cpu += slice.clientCpuS();
                    requests += slice.requests();
                }
            }
        }
        return 1e6 * cpu / requests;
    }

    /** The hypervisor's steal over the slices, as a share of one CPU (NaN where it was not read). */
    private static double stealShare(CpuRounds rounds) {
        double steal = 0;
        double seconds = 0;
        for (CpuRounds.Round round : rounds.rounds()) {
            for (CpuSlice slice : round.slices()) {
                steal += slice.stealS();
                seconds += slice.durationS();
            }
        }
        return steal / seconds;
    }
}
