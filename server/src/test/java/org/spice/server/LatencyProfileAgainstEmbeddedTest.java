package org.spice.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.spice.bench.analysis.LatencyFigures;
import org.spice.bench.figures.PairedRatio;
import org.spice.bench.model.LatencyProfile;
import org.spice.bench.model.OpenLoopRun;
import org.spice.bench.model.ResultsJson;
import org.spice.commands.BenchCommand;
import org.spice.testkit.Bound;
import org.spice.testkit.CommandRun;
import org.spice.testkit.Text;

/**
 * The latency profile against the embedded Tomcat: the ladder finds each probe's peak, every probe runs open loop at
 * the same rate (a fraction of CGI's peak, the slowest) in six paired rounds, and along its own curve; CGI, which
 * starts a process per request, waits several times the static file's at the common rate, and the report shows it.
 * About 55 s: six paired rounds of 3 probes × 1 s make the first interval (18 s), and the ladder that finds the peaks
 * and the three curves come before and after them.
 */
class LatencyProfileAgainstEmbeddedTest extends StartedEmbeddedTomcat {

    @Test
    void everyProbeAtTheSameRateWithRatiosToStaticAndEachAlongItsCurve() throws Exception {
        Path out = base.resolve("latency");
        // Six rounds of 3 probes × 1 s make the first interval (18 s; 22 s leaves room for a round left out, not two).
        // One common rate: two are the same arithmetic (ProfilesTest runs two on a fake engine), and each more adds the
        // rounds' time again.
        CommandRun ran = CommandRun.of(new BenchCommand(), "--target", server.baseUrl(), "--profile", "latency",
                "--probes", "static,servlet,cgi", "--clients", "4", "--duration", "1", "--warm-up", "4",
                "--common-rates", "0.5", "--curve", "0.2,0.8,1.5", "--cpu-time", "22", "--out", out.toString());
        int status = ran.status();
        String printed = Text.unwrapped(ran.console());
        assertEquals(0, status, printed);
        Path file;
        try (Stream<Path> files = Files.walk(out)) {
            file = files.filter(p -> p.getFileName().toString().equals(ResultsJson.FILE)).findFirst().orElseThrow();
        }
        LatencyProfile profile = ResultsJson.read(file).latencyProfile();
        assertNotNull(profile, printed);
        assertEquals("cgi", profile.slowest(), "CGI has the lowest peak: " + profile.peaks());
        assertEquals(1, profile.rates().size());
        assertTrue(profile.rounds() >= 6, "six rounds at least: " + profile.rounds() + ", " + profile.stoppedBy());
        assertEquals(3 * profile.rounds(), profile.slices().size(), "a slice per probe, rate and round");
        assertEquals(3, profile.common().size());
        for (LatencyProfile.AtRate f : profile.common()) {
            assertEquals(profile.rounds(), f.slices());
            Bound.ratio(f.probe() + " at " + f.offeredRps() + "/s: achieved rate", f.achievedRps(), f.offeredRps(), 0.02,
                    "the open loop sends on schedule; a 2 s slice's edge is a request or two of hundreds, 2 % is"
                    + " a probe that fell behind its rate");
            assertEquals(0, f.failed(), f.probe() + " at " + f.offeredRps());
            assertTrue(f.p50Ms() > 0 && f.p50Ms() <= f.p99Ms() && f.p99Ms() <= f.maxMs(), f.toString());
            if (f.probe().equals("cgi")) {
                Bound.atLeast("cgi at " + f.offeredRps() + "/s: p50 × static's", f.p50Ratio(), 2, "a process a request"
                        + " waits 7.6-14 × the static file's here (fork and exec, ~1 ms, against 0.15-0.2 ms)");
                PairedRatio p50 = PairedRatio.of(p50s(profile, "cgi", f.offeredRps()),
                        p50s(profile, "static", f.offeredRps()));
                assertEquals(f.p50Ratio(), p50.ratio(), 1e-9, "the figure is the rounds' paired ratio");
                // The interval's lower end, not ratio − half-width: taken on the log-ratios it leans up, and one slow
                // round of six (CI, 2026-11-29: the half-width put "the lower end" at 0.74) moves only its upper end.
                Bound.atLeast("cgi at " + f.offeredRps() + "/s: p50 ratio's lower 95 % end", p50.low(), 1,
                        "the interval says CGI is slower: its lower end 4.8-6.2 at 147-360 req/s here in two runs"
                        + " (2026-11-29)");
                assertFalse(Double.isNaN(f.p99RatioCi()), "an interval from six rounds: " + f);
            }
        }
        for (String probe : List.of("static", "servlet", "cgi")) {
            List<OpenLoopRun> curve = profile.curves().stream().filter(r -> r.probe().equals(probe)).toList();
            assertFalse(curve.isEmpty(), probe + " has a curve");
            for (int i = 1; i < curve.size(); i++) {
                assertTrue(curve.get(i).offeredRps() > curve.get(i - 1).offeredRps(), probe + "'s curve rises");
            }
        }
        assertTrue(printed.contains("Latency at common rates") && printed.contains("cgi's p99 is"), printed);
        String report = Files.readString(file.resolveSibling("report.html"));
        assertTrue(report.contains("Latency at the same load") && report.contains("latency-p99.png"), "the report");
        assertTrue(Files.size(file.resolveSibling("latency-p99.png")) > 0);
    }

    /** The probe's p50 at the rate in each round, in round order. */
    private static double[] p50s(LatencyProfile profile, String probe, double rate) {
        return LatencyFigures.perRound(profile.slices(), probe, rate, profile.rounds())[0];
    }
}
