package org.spice.server;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.analysis.RoundFigures;
import org.spice.bench.engine.Vegeta;
import org.spice.bench.engine.VegetaRounds;
import org.spice.bench.figures.SpiceFigures;
import org.spice.bench.model.CpuRounds;
import org.spice.bench.proc.ServerCpu;
import org.spice.testkit.Bound;

/**
 * The cross-check that SPICE's CPU figure at an offered rate is the server's, not its client's: the embedded server
 * (a process of its own, its CPU from /proc) runs the static file and the servlet at one offered rate, in rounds that
 * alternate SPICE's open-loop rounds with vegeta's (each a schedule through every slice, {@link VegetaRounds}), and
 * each probe's CPU per request from the two clients must agree. At a client count they need not: there the rate is
 * the client's speed, and the server's CPU per request falls as its rate rises (docs/method.md, "One load").
 *
 * <p>Not in {@code scripts/spice test}: after eight runs at 0.79-1.16, the two runs on a machine then five times slower
 * than usual (the embedded server at 2,100 req/s where it serves 11,000) read SPICE / vegeta 1.67 and 1.56, not yet
 * understood; and on cores it shares with the server each client leaves its own scheduling footprint on the server's
 * CPU per request (SPICE's 6-15 % below vegeta's on Tomcat and Jetty at 1,200 req/s, 2026-12-05; the other way from
 * those two runs), which a ratio between two servers cancels and this test's per-probe figures keep
 * (docs/measurements.md, "SPICE against vegeta at one rate"). Run it by hand:
 * {@code mvn verify -pl server -Dspice.excludedGroups= -Dgroups=crosscheck}.
 */
@Tag("crosscheck")
class ClientsAtOneRateTest {

    /**
     * A rate vegeta keeps on two cores beside the server (its Go client spends some 400 µs of CPU a request with a
     * connection each: here it fell behind at 1,500 req/s and above), and the server well below its peak.
     */
    private static final double RATE = 800;
    /**
     * Each round is some 7 s here (SPICE's 3 s schedule, vegeta's, its start and encoding). The fresh server's JIT still
     * compiles through 2-3 of the first seven rounds after the warm-up (over 3 % of a slice's CPU, which at this rate is
     * 0.2 s): those are left out of both tools' figures, and at least {@link #COUNTED} must remain.
     */
    private static final int ROUNDS = 8;
    private static final int COUNTED = 3;

    @TempDir
    static Path base;

    @Test
    void spiceAndVegetaGiveTheSameCpuPerRequestAtOneRate() throws Exception {
        try (EmbeddedProcess server = EmbeddedProcess.start(base)) {
            ServerCpu cpu = new ServerCpu(List.of(server.process.pid()), true, List.of(), null);
            List<VegetaRounds.Arm> arms = List.of(
                    new VegetaRounds.Arm(null, "static", server.baseUrl() + "/spice/static/spice.html", cpu),
                    new VegetaRounds.Arm(null, "servlet", server.baseUrl() + "/spice/servlet", cpu));
            VegetaRounds.warmUp(arms, 8);
            List<CpuRounds> both = VegetaRounds.run(Vegeta.find(), arms, RATE, 1, ROUNDS, 7);
            VegetaRounds.figures(both.get(0)).forEach(line -> System.out.println("SPICE  " + line));
            VegetaRounds.figures(both.get(1)).forEach(line -> System.out.println("vegeta " + line));
            CpuRounds theirs = both.get(1);
            assertTrue(theirs.counted() >= COUNTED, "vegeta's rounds kept: " + theirs.counted() + " of " + ROUNDS
                    + " (see the lines above: a round it fell behind in, or the server's JIT compiled through, is left"
                    + " out): on this machine the check has too little to compare at " + RATE + " req/s");
            Map<String, RoundFigures.Figures> ours = RoundFigures.of(both.get(0), p -> SpiceFigures.CpuSource.SERVER);
            Map<String, RoundFigures.Figures> vegetas = RoundFigures.of(theirs, p -> SpiceFigures.CpuSource.SERVER);
            for (String probe : List.of("static", "servlet")) {
                Bound.ratio(probe + ": CPU per request, SPICE's rounds against vegeta's", ours.get(probe).cpuUsPerReq(),
                        vegetas.get(probe).cpuUsPerReq(), 0.40, "one server, one rate, the rounds alternating: SPICE /"
                        + " vegeta was 0.79-1.16 (static) and 0.77-1.10 (servlet) over eight runs here (5-7 rounds"
                        + " counted), sd 0.11 about 0.94; each estimate's 95 % interval ±10-48 %, the machine's steal"
                        + " time in it; ±40 % is 3.5 sd. It catches a client that costs the server half as much again;"
                        + " the 12-23 % the clients differed by at one client count needs docs/method.md's 16 rounds");
            }
        }
    }
}
