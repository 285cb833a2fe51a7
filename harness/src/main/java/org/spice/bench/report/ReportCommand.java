package org.spice.bench.report;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

import org.spice.harness.UsageException;

/** {@code spice report DIR}: rebuilds the table, runs.csv, the charts and report.html from DIR/results.json. */
public final class ReportCommand {

    private ReportCommand() {
    }

    public static int run(String[] args, PrintStream out) {
        if (args.length != 1 || args[0].startsWith("--")) {
            throw new UsageException("give one results directory, e.g. report results/20260101-120000");
        }
        Path dir = Path.of(args[0]);
        Path file = Files.isDirectory(dir) ? dir.resolve(ResultsJson.FILE) : dir;
        Results results;
        try {
            results = ResultsJson.readResults(file);
        } catch (IOException e) {
            out.println(e.getMessage());
            return 1;
        }
        try {
            out.print(ReportWriter.write(file.toAbsolutePath().getParent(), results));
        } catch (IOException e) {
            out.println("cannot write the report in " + file.getParent() + ": " + e.getMessage());
            return 1;
        }
        out.println("report: " + file.toAbsolutePath().getParent().resolve("report.html"));
        return 0;
    }
}
