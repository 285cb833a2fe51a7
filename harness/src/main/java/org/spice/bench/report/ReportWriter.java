package org.spice.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes everything derived from results.json into its directory: runs.csv, rate.png, latency.png, report.html. */
public final class ReportWriter {

    private ReportWriter() {
    }

    /** @return the terminal table, with a line at the end if the charts could not be drawn */
    public static String write(Path dir, Results results) throws IOException {
        Files.writeString(dir.resolve("runs.csv"), CsvReport.of(results), StandardCharsets.UTF_8);
        byte[] rate = null;
        byte[] latency = null;
        String chartFailure = null;
        try {
            rate = Charts.rate(results);
            latency = Charts.latency(results);
            Files.write(dir.resolve("rate.png"), rate);
            Files.write(dir.resolve("latency.png"), latency);
        } catch (RuntimeException | Error e) {
            // Java2D can refuse to start (no fonts): the
            // numbers matter more than the pictures, so the report is written without them.
            chartFailure = "charts not drawn: " + e;
            rate = null;
            latency = null;
        }
        Files.writeString(dir.resolve("report.html"), HtmlReport.of(results, rate, latency), StandardCharsets.UTF_8);
        return SummaryTable.of(results) + (chartFailure == null ? "" : chartFailure + "\n");
    }
}
