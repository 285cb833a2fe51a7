package org.spice.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.spice.bench.analysis.Summaries;
import org.spice.bench.figures.SpiceFigures;
import org.spice.bench.model.Results;
import org.spice.bench.model.ResultsJson;
import org.spice.bench.model.RunRecord;
import org.spice.commands.BenchCommand;
import org.spice.page.CanonicalPage;
import org.spice.testkit.Bound;
import org.spice.testkit.CommandRun;

/**
 * A short real ladder of the load engine against the embedded Tomcat: every request of every mix is
 * answered with the canonical page, and the report's figures are computed from what was measured.
 */
@Tag("page")
class BenchAgainstEmbeddedTomcatTest extends StartedEmbeddedTomcat {

    @Test
    void shortLadderMeasuresEveryRequestAsTheCanonicalPage() throws Exception {
        Path out = base.resolve("results");
        CommandRun ran = CommandRun.of(new BenchCommand(), "--target", server.baseUrl(), "--probes",
                "static,servlet,module,cgi", "--clients", "1,4", "--ramp-up", "0.5", "--duration", "1", "--ramp-down", "0.2",
                "--pause", "0", "--warm-up", "4", "--cpu-time", "0", "--out", out.toString());
        int status = ran.status();
        String printed = ran.console();
        assertEquals(0, status, printed);

        Path file;
        try (Stream<Path> files = Files.walk(out)) {
            file = files.filter(p -> p.getFileName().toString().equals(ResultsJson.FILE)).findFirst().orElseThrow();
        }
        Results results = ResultsJson.read(file);
        assertEquals(8, results.runs().size());
        for (RunRecord run : results.runs()) {
            assertTrue(run.requests() > 0, run.probe() + " at " + run.clients() + " clients measured nothing");
            assertEquals(0, run.errorTotal(), run.probe() + " errors: " + run.errors());
            assertEquals(CanonicalPage.builtBytes(), run.bytesPerResponse(), 0.0, "throughput / rate = the page size");
            assertTrue(run.latency().meanMs() > 0);
        }
        List<SpiceFigures.Summary> summary = Summaries.of(results);
        assertEquals(List.of("static", "servlet", "module", "cgi"), summary.stream().map(SpiceFigures.Summary::probe).toList());
        // The kernel's counters (the server's processes are not given here: the machine's processes only).
        for (RunRecord run : results.runs()) {
            double processes = run.processesPerReq();
            // A CGI request starts a program (the embedded Tomcat's CGI also starts a thread to read it: 2). The
            // machine's own forks (a few a second) over thousands of requests a window are a few hundredths.
            String what = run.probe() + " at " + run.clients() + " clients: processes (and threads) started per request";
            if (run.probe().equals("cgi")) {
                Bound.within(what, processes, 0.8, 3, "a program and a reader thread a request (2), the machine's forks"
                        + " beside them; under 0.8, CGI requests that started nothing");
            } else {
                Bound.atMost(what, processes, 0.1, "none per request; the machine's own forks (a few a second) over"
                        + " thousands of requests a window");
            }
        }
        assertEquals(1.0, summary.get(0).requestEfficiencyAtPeak(), 1e-12, "static against itself");
        assertTrue(Files.exists(file.resolveSibling("report.html")) && Files.exists(file.resolveSibling("runs.csv")));
        assertTrue(printed.contains("SPICE summary"), printed);
        assertEquals(4, results.steadyState().size(), "every workload warmed: " + results.steadyState());
        assertTrue(results.idle() != null && !Double.isNaN(results.idle().machineCpuCores()), "idle CPU measured: " + results.idle());
        assertEquals(1, results.runs().get(0).slices().size(), "a 1 s window is one slice");
    }
}
