package org.spice.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes everything derived from results.json into its directory: runs.csv, rate.png, latency.png, report.html. */
public final class ReportWriter {

    private ReportWriter() {
    }

    /** @return the terminal table */
    public static String write(Path dir, Results results) throws IOException {
        Files.writeString(dir.resolve("runs.csv"), CsvReport.of(results), StandardCharsets.UTF_8);
        byte[] rate = Charts.rate(results);
        byte[] latency = Charts.latency(results);
        Files.write(dir.resolve("rate.png"), rate);
        Files.write(dir.resolve("latency.png"), latency);
        Files.writeString(dir.resolve("report.html"), HtmlReport.of(results, rate, latency), StandardCharsets.UTF_8);
        return SummaryTable.of(results);
    }
}
