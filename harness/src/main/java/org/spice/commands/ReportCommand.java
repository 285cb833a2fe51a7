package org.spice.commands;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import org.spice.bench.analysis.ResultsFiles;
import org.spice.bench.model.Results;
import org.spice.bench.model.ResultsJson;
import org.spice.bench.report.ReportWriter;
import org.spice.cli.Cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code spice report DIR}: rebuilds the answer and report.html from DIR/results.json, for one server (with runs.csv and
 * the charts) or several side by side.
 */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = "Print the table and write runs.csv, the charts and report.html again from DIR/results.json.")
public final class ReportCommand extends Cli.Printing implements Callable<Integer> {

    @Parameters(paramLabel = "DIR", description = "A results directory written by bench (or its results.json).")
    Path dir;

    @Override
    public Integer call() {
        Path file = Files.isDirectory(dir) ? dir.resolve(ResultsJson.FILE) : dir;
        Results results;
        try {
            results = ResultsFiles.read(file);
        } catch (IOException e) {
            err.println("spice report: " + e.getMessage());
            return 1;
        }
        Path into = file.toAbsolutePath().getParent();
        try {
            out.print(ReportWriter.write(into, results));
        } catch (IOException e) {
            err.println("spice report: cannot write the report in " + into + ": " + e.getMessage());
            return 1;
        }
        out.println("report: " + into.resolve(ReportWriter.PAGE));
        return 0;
    }
}
