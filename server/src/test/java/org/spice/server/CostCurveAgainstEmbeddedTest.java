package org.spice.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.spice.bench.model.CostCurve;
import org.spice.bench.model.ResultsJson;
import org.spice.commands.BenchCommand;
import org.spice.testkit.Bound;
import org.spice.testkit.CommandRun;
import org.spice.testkit.Text;

/**
 * The cost curve against the embedded Tomcat: the ladder finds the static file's and CGI's peaks, then three rounds of
 * each at a quarter, half and three quarters of its own peak, a second a slice; every slice is in results.json, each
 * rate a point, each probe a marginal cost, and the report draws the curve. About 30 s.
 */
class CostCurveAgainstEmbeddedTest extends StartedEmbeddedTomcat {

    @Test
    void eachProbeAtFractionsOfItsPeakWithItsMarginalCost() throws Exception {
        Path out = base.resolve("cost");
        // The embedded server runs in this JVM, so its CPU is the JVM's, the client's included: a behaviour test, whose
        // one figure, CGI's against the static file's, is a process per request against a few tens of µs.
        CommandRun ran = CommandRun.of(new BenchCommand(), "--target", server.baseUrl(), "--server-pid",
                Long.toString(ProcessHandle.current().pid()), "--profile", "cost",
                "--probes", "static,cgi", "--clients", "4", "--duration", "1", "--warm-up", "2", "--cpu-time", "0",
                "--cost-rates", "0.25,0.5,0.75", "--cost-rounds", "3", "--out", out.toString());
        int status = ran.status();
        String printed = Text.unwrapped(ran.console());
        assertEquals(0, status, printed);
        Path file;
        try (Stream<Path> files = Files.walk(out)) {
            file = files.filter(p -> p.getFileName().toString().equals(ResultsJson.FILE)).findFirst().orElseThrow();
        }
        CostCurve curve = ResultsJson.read(file).costCurve();
        assertNotNull(curve, printed);
        assertEquals(3, curve.rounds());
        assertEquals(2 * 3 * 3, curve.slices().size(), "a slice per probe, rate and round");
        assertEquals(List.of("static", "cgi"), curve.marginals().stream().map(CostCurve.Marginal::probe).toList());
        for (CostCurve.Slice slice : curve.slices()) {
            assertEquals(0, slice.failed(), slice.toString());
            assertTrue(slice.serverCpuS() > 0, "the server's CPU read around every slice: " + slice);
        }
        for (CostCurve.Point point : curve.points()) {
            // Three quarters of a peak found in one second at 4 clients is not far below it on a busy machine (CI once
            // achieved 0.905 of it there, where the curve rightly calls the rate not held): only the lower two count.
            if (point.probe().equals("cgi") && point.fraction() <= 0.5) {
                Bound.ratio("cgi at " + point.offeredRps() + "/s: achieved", point.achievedRps(), point.offeredRps(),
                        0.05, "an open loop at half CGI's peak or less keeps its rate (0.99-1.00 of it here); the"
                        + " answers' tail stretches a one-second slice by a few ms, and 5 % is the rate's 'held' line");
                assertTrue(point.held(), point.toString());
            }
        }
        double staticMarginal = curve.marginals().get(0).marginalUs();
        double cgiMarginal = curve.marginals().get(1).marginalUs();
        Bound.atLeast("cgi's marginal cost / the static file's", cgiMarginal / Math.abs(staticMarginal), 5,
                "a process per request: CGI's CPU per request is 53-62 × the static file's here, its marginal cost"
                + " 40-75 × (Tomcat, Jetty: 3,656 and 2,203 µs against 49-89); the client's CPU, counted here on"
                + " both sides, and three rounds' noise take some of that, and 5 leaves them room");
        assertTrue(printed.contains("The cost curve, open loop") && printed.contains("cgi: one more request costs the"
                + " server"), printed);
        String report = Files.readString(file.resolveSibling("report.html"));
        assertTrue(report.contains("<section id=\"cost-curve\">") && report.contains("cost-curve.png"), "the report");
        assertTrue(Files.size(file.resolveSibling("cost-curve.png")) > 0);
    }
}
