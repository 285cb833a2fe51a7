package org.spice.commands;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.spice.bench.analysis.ResultsFiles;
import org.spice.bench.model.Across;
import org.spice.bench.model.Results;
import org.spice.bench.model.ResultsJson;
import org.spice.bench.report.CompareReport;
import org.spice.bench.report.Comparison;
import org.spice.bench.report.Gate;
import org.spice.bench.report.ReportWriter;
import org.spice.cli.Cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code spice compare DIR... [--out DIR]}: one comparison of the servers measured in the given results
 * directories (one bench run each), printed and written as compare.txt and compare.html.
 */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = "One report comparing servers from their results directories (compare.txt and compare.html);"
                + " two runs of the same server compare as before and after, with the noise of their repeats.")
public final class CompareCommand extends Cli.Printing implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "DIR", arity = "1..*", description = "Results directories (one bench run each), at least"
            + " two; or one of servers side by side (bench --server a,b), whose cross ratios --fail-above gates.")
    List<Path> given = new ArrayList<>();

    @Option(names = "--out", paramLabel = "DIR", description = "Where to write the comparison (default: beside the first).")
    Path outDir;

    @Option(names = "--fail-above", paramLabel = "PCT", description = "The regression gate, for two runs of one server"
            + " (before, after): exit 1 when a probe's CPU against its run's static file rose by more than PCT %% beyond"
            + " the noise (the two ratios' 95 %% intervals combined); for servers side by side, when a probe's CPU on"
            + " a later server named against the first does, its whole interval above 1 + PCT %%.")
    Double failAbove;

    @Override
    public Integer call() {
        List<Path> files = new ArrayList<>();
        for (Path path : given) {
            files.add(Files.isDirectory(path) ? path.resolve(ResultsJson.FILE) : path);
        }
        if (files.size() == 1 && Files.isRegularFile(files.get(0))) {
            Results one;
            try {
                one = ResultsFiles.read(files.get(0));
            } catch (IOException e) {
                err.println("spice compare: " + e.getMessage());
                return 1;
            }
            if (one.severalArms()) {
                return crossGate(files.get(0), one);
            }
        }
        if (files.size() < 2) {
            throw new Cli.Checks(spec).fail("give at least two results directories to compare, or one of servers side"
                    + " by side");
        }
        if (failAbove != null && (files.size() != 2 || !(failAbove >= 0) || Double.isInfinite(failAbove))) {
            throw new Cli.Checks(spec).fail("--fail-above takes a percentage of 0 or more and two results directories"
                    + " (before, after), not " + failAbove + " and " + files.size());
        }
        Comparison comparison;
        try {
            List<Results> read = new ArrayList<>();
            for (Path file : files) {
                read.add(ResultsFiles.read(file));
            }
            comparison = Comparison.of(files, read);
        } catch (IOException e) {
            err.println("spice compare: " + e.getMessage());
            return 1;
        }
        Path dir = outDir != null ? outDir : files.get(0).toAbsolutePath().getParent().getParent();
        try {
            out.print(CompareReport.write(comparison, dir));
        } catch (IOException e) {
            err.println("spice compare: cannot write the comparison in " + dir + ": " + e.getMessage());
            return 1;
        }
        out.println("comparison: " + dir.toAbsolutePath().resolve("compare.html"));
        return failAbove == null ? 0 : gate(comparison);
    }

    /**
     * Servers side by side: their tables again, and with --fail-above the gate on each probe's cross ratio (the
     * second server named against the first), 0 when none rose beyond its interval by more than PCT %.
     */
    private int crossGate(Path file, Results read) {
        if (failAbove != null && (!(failAbove >= 0) || Double.isInfinite(failAbove))) {
            throw new Cli.Checks(spec).fail("--fail-above takes a percentage of 0 or more, not " + failAbove);
        }
        Across figures = read.across();
        out.print(ReportWriter.sideBySide(read, file.toAbsolutePath().getParent()));
        if (failAbove == null) {
            return 0;
        }
        String first = figures.servers().get(0);
        List<String> regressions = Gate.crossRegressions(figures.cross().stream().filter(c -> c.a().equals(first)).toList(),
                failAbove);
        regressions.forEach(line -> err.println("spice compare: " + line));
        if (regressions.isEmpty()) {
            out.printf(Locale.ROOT, "no probe costs more than %.1f %% beyond its interval on the later server than on"
                    + " the first%n", failAbove);
        }
        return regressions.isEmpty() ? 0 : 1;
    }

    /** The regression gate: 0 when no probe's ratio rose beyond the noise by more than --fail-above, else 1 (2: not two runs of one server). */
    private int gate(Comparison comparison) {
        if (!comparison.beforeAfter()) {
            err.println("spice compare: --fail-above compares two runs of one server (before, after), not "
                    + String.join(" and ", comparison.servers()));
            return 2;
        }
        List<String> regressions = Gate.regressions(comparison, failAbove);
        regressions.forEach(line -> err.println("spice compare: " + line));
        if (regressions.isEmpty()) {
            out.printf(Locale.ROOT, "no probe's CPU against the static file rose by more than %.1f %% beyond"
                    + " the noise%n", failAbove);
        }
        return regressions.isEmpty() ? 0 : 1;
    }
}
