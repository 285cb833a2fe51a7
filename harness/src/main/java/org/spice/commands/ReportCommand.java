package org.spice.commands;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import org.spice.bench.analysis.CrossFigures;
import org.spice.bench.analysis.CrossResults;
import org.spice.bench.analysis.ResultsFiles;
import org.spice.bench.model.Results;
import org.spice.bench.model.ResultsJson;
import org.spice.bench.report.CrossReport;
import org.spice.bench.report.CrossTable;
import org.spice.bench.report.ReportWriter;
import org.spice.cli.Cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code spice report DIR}: rebuilds the table, runs.csv, the charts and report.html from DIR/results.json; for servers
 * side by side, their tables and side-by-side.html.
 */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = "Print the table and write runs.csv, the charts and report.html again from DIR/results.json.")
public final class ReportCommand extends Cli.Printing implements Callable<Integer> {

    @Parameters(paramLabel = "DIR", description = "A results directory written by bench (or its results.json).")
    Path dir;

    @Override
    public Integer call() {
        Path file = Files.isDirectory(dir) ? dir.resolve(ResultsJson.FILE) : dir;
        try {
            if (Files.isRegularFile(file) && CrossResults.isSideBySide(file)) {
                return sideBySide(file);
            }
        } catch (IOException e) {
            err.println("spice report: " + e.getMessage());
            return 1;
        }
        Results results;
        try {
            results = ResultsFiles.read(file);
        } catch (IOException e) {
            err.println("spice report: " + e.getMessage());
            return 1;
        }
        try {
            out.print(ReportWriter.write(file.toAbsolutePath().getParent(), results));
        } catch (IOException e) {
            err.println("spice report: cannot write the report in " + file.getParent() + ": " + e.getMessage());
            return 1;
        }
        out.println("report: " + file.toAbsolutePath().getParent().resolve("report.html"));
        return 0;
    }

    /** Servers side by side: their tables and side-by-side.html again, the figures computed from the rounds. */
    private int sideBySide(Path file) {
        try {
            CrossResults.Read read = CrossResults.read(file);
            CrossFigures.All figures = read.figures();
            out.print(CrossTable.text(figures, read.ladders(file.toAbsolutePath().getParent())));
            out.println("report: " + CrossReport.write(file.toAbsolutePath().getParent(), figures));
            return 0;
        } catch (IOException e) {
            err.println("spice report: " + e.getMessage());
            return 1;
        }
    }
}
