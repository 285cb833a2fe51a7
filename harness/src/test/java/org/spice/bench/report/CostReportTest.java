package org.spice.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.analysis.CostFigures;
import org.spice.bench.analysis.CostFiguresTest;
import org.spice.bench.analysis.Summaries;
import org.spice.bench.model.CostCurve;
import org.spice.bench.model.Results;
import org.spice.bench.model.ResultsJson;
import org.spice.testkit.Text;

/** The cost curve in the answer, the report and results.json, from {@link CostFiguresTest}'s slices. */
@Tag("unit")
class CostReportTest {

    @Test
    void theAnswerGivesEachMarginalCostAndSaysWhereItHolds(@TempDir Path dir) throws Exception {
        List<CostCurve.Slice> slices = CostFiguresTest.slices();
        List<String> probes = List.of("static", "cgi");
        CostCurve curve = new CostCurve(CostFiguresTest.FRACTIONS, 0.25, 1, 6, "its 6 rounds",
                CostFigures.points(slices, probes), CostFigures.marginals(slices, probes, 0.25), slices);
        Results base = ReportFixture.apache();
        Results results = Summaries.conclude(new Results(base.target(), base.server(), base.bodyBytes(), base.settings(), base.startedAt(),
                base.finishedAt(), false, null, base.notes(), base.steadyState(), base.idle(), base.runs(),
                base.overload(), base.cpuRounds(), List.of(), null, curve));
        Summaries.write(dir, results);
        String text = Text.unwrapped(ReportWriter.write(dir, results));
        assertTrue(text.contains("static: one more request costs the server 40.0 µs of CPU ±1.5 % from 2500 to 7500"
                + " req/s, where its curve is straight (40.0 µs a request from 2500 to 5000 req/s, 40.0 µs from 5000 to"
                + " 7500: 0.0 ± 0.0 µs apart, paired by round, within 25 % of the line's slope)"), text);
        assertTrue(text.contains("at 9000 req/s offered it achieved 7200: saturated, left out"), text);
        assertTrue(text.contains("cgi: one more request costs the server") && text.contains("but the curve bends there"
                + " (4016.0 µs a request from 100 to 200 req/s, 2000.0 µs from 300 to 360: 2008.0 ± 28.3 µs apart,"
                + " paired by round), so the line is an average and one more request costs less the higher the rate"), text);
        assertTrue(text.contains("from 40 to 100 req/s a request cost 4000.0 µs more"), text);
        String html = Files.readString(dir.resolve("report.html"));
        assertTrue(html.contains("<section id=\"cost-curve\">") && html.contains(CostReport.CHART));
        assertTrue(Files.size(dir.resolve(CostReport.CHART)) > 1000);
        CostCurve read = ResultsJson.read(dir.resolve(ResultsJson.FILE)).costCurve();
        assertEquals(curve.marginals(), read.marginals(), "results.json keeps the figures as they were");
        assertEquals(curve.points(), read.points());
        assertEquals(60, read.slices().size());
    }
}
