package org.spice.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.analysis.LatencyFigures;
import org.spice.bench.analysis.Summaries;
import org.spice.bench.model.LatencyProfile;
import org.spice.bench.model.OpenLoopRun;
import org.spice.bench.model.Results;
import org.spice.bench.model.ResultsJson;

/**
 * The latency profile in the answer, the tables and the report: a run where CGI's p99 is 10 × the static file's at
 * 200 req/s in each of six rounds, and each probe has a curve.
 */
@Tag("unit")
class LatencyReportTest {

    @Test
    void theAnswerSaysWhatEachProbeAddsToTheWaitAtTheSameRate(@TempDir Path dir) throws Exception {
        Results results = withProfile(ReportFixture.apache(), profile());
        Summaries.write(dir, results);
        String text = ReportWriter.write(dir, results);
        assertTrue(text.contains("At 200 req/s (25 % of cgi's peak), open loop: cgi's p99 is 5.00 ms, 10 × the static"
                + " file's (±"), text);
        assertTrue(text.contains("Latency at common rates, open loop: 25 % of cgi's peak (800 req/s at 4 clients),"
                + " 6 rounds of 2.0 s slices"), text);
        assertTrue(text.contains("Each probe along its own curve"), text);
        String html = Files.readString(dir.resolve("report.html"));
        assertTrue(html.contains("<section id=\"latency-profile\">") && html.contains("latency-p99.png")
                && html.contains("latency-p50.png"), "the report's section and charts");
        assertTrue(Files.size(dir.resolve("latency-p99.png")) > 1000);
        LatencyProfile read = ResultsJson.read(dir.resolve(ResultsJson.FILE)).latencyProfile();
        assertEquals(results.latencyProfile().common().get(1).p99Ratio(), read.common().get(1).p99Ratio(), 1e-12,
                "results.json keeps the figures as they were");
        assertEquals(2, read.curves().size());
    }

    static Results withProfile(Results base, LatencyProfile profile) {
        return Summaries.conclude(new Results(base.target(), base.server(), base.bodyBytes(), base.settings(), base.startedAt(),
                base.finishedAt(), false, null, base.notes(), base.steadyState(), base.idle(), base.runs(),
                base.overload(), base.cpuRounds(), List.of(), profile));
    }

    private static LatencyProfile profile() {
        List<LatencyProfile.Slice> slices = new ArrayList<>();
        double[] drift = {1, 1.1, 0.9, 1.2, 1, 0.95};
        double[] noise = {1, 1.03, 0.97, 1.01, 0.99, 1};
        for (int r = 1; r <= 6; r++) {
            slices.add(new LatencyProfile.Slice(r, "static", 200, 200, 0.2 * drift[r - 1], 0.5 * drift[r - 1], 50, 0,
                    0.1, false));
            slices.add(new LatencyProfile.Slice(r, "cgi", 200, 200, 0.8 * drift[r - 1] * noise[r - 1],
                    5 * drift[r - 1] * noise[r - 1], 1000, 0, 0.1, false));
        }
        Map<String, Histogram> pooled = new HashMap<>();
        pooled.put(LatencyFigures.key("static", 200), histogram(500_000));
        pooled.put(LatencyFigures.key("cgi", 200), histogram(5_000_000));
        List<LatencyProfile.Peak> peaks = List.of(new LatencyProfile.Peak("static", 2000, 4),
                new LatencyProfile.Peak("cgi", 800, 4));
        return new LatencyProfile(peaks, "cgi", List.of(0.25), List.of(200.0), 2, 1000, 6, "the time bound, 300 s",
                LatencyFigures.of(slices, pooled, List.of("static", "cgi"), List.of(200.0), 800, 6), slices,
                List.of(point("static", 200, 0.2), point("cgi", 80, 2)));
    }

    private static Histogram histogram(long nanos) {
        Histogram h = new Histogram(3);
        h.recordValueWithCount(nanos, 1000);
        return h;
    }

    private static OpenLoopRun point(String probe, double rate, double p50) {
        return new OpenLoopRun(probe, rate, 2, (long) (2 * rate), (long) (2 * rate), rate, (long) (2 * rate), 0, 0, 0,
                p50, p50, 2 * p50, 3 * p50, 4 * p50, p50, 2 * p50, 0.05, 0.2, 0.5, 0, false, null, false, 80, null, null);
    }
}
