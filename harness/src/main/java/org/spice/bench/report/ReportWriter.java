package org.spice.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.spice.bench.analysis.CrossResults;
import org.spice.bench.model.Results;

/**
 * Writes everything derived from results.json into its directory, for any run: one server's runs.csv, charts (PNG) and
 * report.html; for servers side by side, the answer across them and its report.html ({@link CrossReport}). Returns
 * the text the terminal prints.
 */
public final class ReportWriter {

    private ReportWriter() {
    }

    /** What {@code spice explain} writes; in a results directory, the report shows its table. */
    public static final String EXPLAIN_FILE = "explain.json";
    /** The page of any run. */
    public static final String PAGE = "report.html";

    /**
     * The answer across several arms, as the terminal prints it: the cross ratios, each arm's against its own static
     * file, the ladders' peaks of the servers whose own results are in or beside {@code dir}, the sentences, the checks.
     */
    public static String sideBySide(Results results, Path dir) {
        return Prose.wrap(CrossTable.text(results.across(), CrossResults.ladders(results, dir)));
    }

    /** @return the terminal table, with a line at the end if the charts could not be drawn */
    public static String write(Path dir, Results results) throws IOException {
        if (results.severalArms()) {
            CrossReport.write(dir, results.across());
            return sideBySide(results, dir);
        }
        Files.writeString(dir.resolve("runs.csv"), CsvReport.of(results), StandardCharsets.UTF_8);
        CgiFloor floor = CgiFloor.read(dir);
        Why.Evidence evidence = Why.Evidence.in(dir);
        List<Charts.Figure> figures = List.of();
        String chartFailure = null;
        try {
            figures = new ArrayList<>(Charts.all(results, floor));
            figures.addAll(LatencyCharts.all(results.latencyProfile()));
            figures.addAll(CostReport.figures(results.costCurve()));
            if (evidence.sweep() != null) {
                figures.add(SweepReport.figure(evidence.sweep()));
            }
            for (Charts.Figure figure : figures) {
                Files.write(dir.resolve(figure.file()), figure.png());
            }
        } catch (RuntimeException | Error e) {
            // Java2D can refuse to start (no fonts): the
            // numbers matter more than the pictures, so the report is written without them.
            chartFailure = "charts not drawn: " + e;
            figures = List.of();
        }
        Files.writeString(dir.resolve(PAGE), HtmlReport.of(results, figures, floor, evidence),
                StandardCharsets.UTF_8);
        return Prose.wrap(SummaryTable.title(results) + CpuTable.text(results) + SummaryTable.rates(results) + OverloadReport.text(results) + OpenLoopTable.text(results.openLoop())
                + LatencyTable.text(results.latencyProfile()) + CostReport.text(results.costCurve())
                + Verdict.text(results, floor) + (chartFailure == null ? "" : chartFailure + "\n"));
    }
}
