package org.spice.commands;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.spice.bench.analysis.ResultsFiles;
import org.spice.bench.figures.SpiceFigures;
import org.spice.bench.model.Across;
import org.spice.bench.model.CpuFrom;
import org.spice.bench.model.Results;
import org.spice.bench.model.ResultsJson;
import org.spice.cli.Cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code spice check-results DIR}: what the deploy checks (the README's deploy section, the two hosts) hold a bench's
 * results to: every probe's CPU from its server's cgroup, every ratio with an interval, the probes asked for measured;
 * side by side, every server's CPU from its cgroup, every cross ratio with an interval, and each server's own results
 * held to the same. Prints each ratio on stderr, then what fell short; exit 0 when nothing did, else 1.
 */
@Command(name = "check-results", hidden = true, description = "Holds a bench's results to what the deploy checks ask:"
        + " CPU from the cgroup, every ratio with an interval.")
public final class CheckResultsCommand extends Cli.Printing implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "DIR", description = "A results directory, or a folder with one under it.")
    Path dir;

    @Option(names = "--label", paramLabel = "WORDS", defaultValue = "check",
            description = "What each line starts with (\"two hosts\", \"readme\").")
    String label;

    @Option(names = "--probes", paramLabel = "P,...", split = ",", description = "Probes that must have been measured.")
    List<String> probes = List.of();

    @Override
    public Integer call() {
        List<String> bad = new ArrayList<>();
        try {
            Results results = ResultsFiles.read(ResultsFiles.under(dir));
            if (results.severalArms()) {
                sideBySide(results, bad);
            } else {
                own(null, results, bad);
            }
        } catch (IOException e) {
            bad.add(e.getMessage());
        }
        bad.forEach(b -> err.println(label + ": " + b));
        if (bad.isEmpty()) {
            err.println(label + ": every probe's CPU from the cgroup, with its interval");
        }
        return bad.isEmpty() ? 0 : 1;
    }

    private void sideBySide(Results read, List<String> bad) throws IOException {
        for (Results.Member member : read.arms()) {
            if (member.cpuFrom() != CpuFrom.CGROUP) {
                bad.add(member.name() + ": CPU from " + member.cpuFrom() + ", not its cgroup");
            }
        }
        for (Across.Cross c : read.across().cross()) {
            String pair = c.probe() + " " + c.a() + "/" + c.b();
            err.println(String.format(Locale.ROOT, "%s: %s %.3f ± %s over %d rounds at %s req/s", label, pair, c.ratio(),
                    percent(c.ratioCi(), c.ratio()), c.rounds(), c.rateRps()));
            if (!Double.isFinite(c.ratioCi())) {
                bad.add(pair + ": no interval");
            }
        }
        for (Results.Member member : read.arms()) {
            Path own = member.results() == null ? null : Path.of(member.results(), ResultsJson.FILE);
            if (own == null || !Files.isRegularFile(own)) {
                bad.add(member.name() + ": no results of its own");
            } else {
                own(member.name(), ResultsFiles.read(own), bad);
            }
        }
    }

    /** One server's results: each probe's CPU from the cgroup, each ratio with an interval, the probes asked for. */
    private void own(String name, Results results, List<String> bad) {
        String who = name == null ? "" : name + " ";
        List<SpiceFigures.Summary> summaries = results.summary();
        for (SpiceFigures.Summary s : summaries) {
            SpiceFigures.Rounds r = s.rounds();
            double ratio = r.cpuRatio() == null ? Double.NaN : r.cpuRatio();
            double ci = r.cpuRatioCi() == null ? Double.NaN : r.cpuRatioCi();
            if (s.cpuSource() != SpiceFigures.CpuSource.CGROUP) {
                bad.add(who + s.probe() + ": CPU from " + s.cpuSource().id() + ", not the server's cgroup");
            }
            if (!s.probe().equals(results.baseline())) {
                err.println(String.format(Locale.ROOT, "%s: %s%s %.3f × static ± %s (%s)", label, who, s.probe(), ratio,
                        percent(ci, ratio), s.cpuSource().id()));
                if (!Double.isFinite(ci)) {
                    bad.add(who + s.probe() + ": no interval on its ratio to the static file");
                }
            }
        }
        for (String wanted : probes) {
            if (summaries.stream().noneMatch(s -> s.probe().equals(wanted) && s.rounds().measured())) {
                bad.add(who + wanted + ": not measured");
            }
        }
    }

    private static String percent(double ci, double ratio) {
        return Double.isFinite(ci) && ratio > 0 ? String.format(Locale.ROOT, "%.1f %%", 100 * ci / ratio) : "-";
    }
}
