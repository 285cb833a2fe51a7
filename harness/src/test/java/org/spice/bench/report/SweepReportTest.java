package org.spice.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.analysis.Summaries;
import org.spice.bench.analysis.Sweeps;
import org.spice.bench.figures.LinearFit;
import org.spice.bench.model.ResultsJson;
import org.spice.bench.model.Sweep;

/** The size sweep's arithmetic on known inputs, its file, its table and its part of the report. */
@Tag("page")
@Tag("unit")
class SweepReportTest {

    @Test
    void theLineAndItsIntervalsOnKnownPoints() {
        LinearFit fit = LinearFit.of(new double[] {1, 2, 3, 4}, new double[] {2, 4, 5, 8});
        assertEquals(1.9, fit.slope(), 1e-12);
        assertEquals(0.0, fit.intercept(), 1e-12);
        assertEquals(1 - 0.7 / 18.75, fit.rSquared(), 1e-12);
        // t(0.975, 2) = 4.302653; s² = 0.7 / 2; Sxx = 5; Σx² = 30
        assertEquals(4.302653 * Math.sqrt(0.35 / 5), fit.slopeCi(), 1e-5);
        assertEquals(4.302653 * Math.sqrt(0.35 * 30 / 20), fit.interceptCi(), 1e-5);

        LinearFit exact = LinearFit.of(new double[] {1, 6.1, 16, 64}, new double[] {60, 111, 210, 690});
        assertEquals(10, exact.slope(), 1e-9);
        assertEquals(50, exact.intercept(), 1e-9);
        assertEquals(1, exact.rSquared(), 1e-12);

        LinearFit two = LinearFit.of(new double[] {1, 3}, new double[] {5, 9});
        assertEquals(2, two.slope(), 1e-12);
        assertEquals(3, two.intercept(), 1e-12);
        assertTrue(Double.isNaN(two.slopeCi()) && Double.isNaN(two.interceptCi()) && Double.isNaN(two.rSquared()),
                "two points leave nothing to estimate the scatter from: " + two);

        LinearFit withGap = LinearFit.of(new double[] {1, 2, 3}, new double[] {5, Double.NaN, 9});
        assertEquals(2, withGap.n(), "a point without a figure is left out");
        assertTrue(Double.isNaN(LinearFit.of(new double[] {2, 2}, new double[] {1, 3}).slope()), "one size is no line");
    }

    @Test
    void aSweepFitsEachProbeAndTheReportShowsIt(@TempDir Path dir) throws IOException {
        Map<Integer, Path> bySize = new LinkedHashMap<>();
        for (int bytes : new int[] {1024, 6250, 16384, 65536}) {
            Path results = dir.resolve("size-" + bytes + "/run");
            Summaries.write(results, ReportFixture.sized(bytes));
            bySize.put(bytes, results.resolve(ResultsJson.FILE));
        }
        Sweep sweep = Sweeps.of("embedded", 4, bySize);
        Sweep.Line cgi = sweep.probes().get("cgi");
        assertEquals(1000, cgi.fixedUs(), 1e-6);
        assertEquals(12, cgi.perKbUs(), 1e-6);
        assertEquals(1, cgi.rSquared(), 1e-9);
        assertEquals(4, cgi.points().size());
        assertEquals(50 + 10 * 64, sweep.probes().get("static").points().get(3).cpuUsPerReq(), 1e-6);
        assertEquals("srv", cgi.points().get(0).cpuSource());

        sweep.write(dir);
        Sweep read = Sweep.readIn(dir);
        assertEquals(sweep.probes().get("static").perKbUs(), read.probes().get("static").perKbUs(), 1e-12);
        assertTrue(Double.isNaN(read.probes().get("static").points().get(0).cpuUsPerReqCi()),
                "an unknown interval is written as null and read back as unknown");
        assertTrue(Files.readString(dir.resolve(Sweep.FILE)).contains("\"per_kb_us\""));
        assertNull(Sweep.readIn(dir.resolve("size-1024")), "no sweep.json, no sweep");

        String table = SweepReport.table(sweep);
        assertTrue(table.contains("cgi") && table.contains("1000") && table.contains("12.00") && table.contains("1.000"), table);

        // In a bench's results directory, the report's why section carries the sweep's table and chart.
        Path nearest = dir.resolve("size-6250/run");
        sweep.write(nearest);
        ReportWriter.write(nearest, org.spice.bench.analysis.ResultsFiles.read(nearest.resolve(ResultsJson.FILE)));
        String report = Files.readString(nearest.resolve("report.html"));
        String why = report.substring(report.indexOf("<section id=\"why\">"));
        why = why.substring(0, why.indexOf("</section>"));
        assertTrue(why.contains("<table id=\"sweep\">") && why.contains("<td>12.00 ± 0.00</td>"), why);
        assertTrue(why.contains("alt=\"server CPU per request against page size\""), "the chart is in the report");
        assertTrue(Files.size(nearest.resolve(SweepReport.CHART)) > 1000, "the chart is written beside the report");
    }

    @Test
    void aFileThatIsNotASweepIsRefusedByName(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve(Sweep.FILE), "{\"schema\": \"spice-results/1\"}");
        IOException wrong = assertThrows(IOException.class, () -> Sweep.readIn(dir));
        assertTrue(wrong.getMessage().contains("not a SPICE sweep"), wrong.getMessage());
        Files.writeString(dir.resolve(Sweep.FILE), "{\"schema\": ");
        IOException broken = assertThrows(IOException.class, () -> Sweep.readIn(dir));
        assertTrue(broken.getMessage().contains("is not JSON"), broken.getMessage());
    }
}
