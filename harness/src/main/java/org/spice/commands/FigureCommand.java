package org.spice.commands;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.spice.bench.model.Results;
import org.spice.bench.model.ResultsJson;
import org.spice.bench.model.RunRecord;
import org.spice.cli.Cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code spice figure DIR --probe P --clients N NAME}: one figure of one mix of a results directory, alone on
 * one line, for scripts (the last repeat's where there are several). NAME: requests or rate_rps.
 */
@Command(name = "figure", hidden = true, description = "One figure of one mix, alone on a line: requests or rate_rps.")
public final class FigureCommand extends Cli.Printing implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "DIR")
    Path dir;

    @Parameters(index = "1", paramLabel = "NAME")
    String name;

    @Option(names = "--probe", required = true, paramLabel = "PROBE")
    String probe;

    @Option(names = "--clients", required = true, paramLabel = "N")
    int clients;

    @Override
    public Integer call() {
        if (!name.equals("requests") && !name.equals("rate_rps")) {
            throw new Cli.Checks(spec).fail("NAME: requests or rate_rps, not \"" + name + "\"");
        }
        Results results;
        try {
            results = ResultsJson.readResults(dir);
        } catch (IOException e) {
            err.println("spice figure: " + e.getMessage());
            return 1;
        }
        RunRecord run = results.runs().stream().filter(r -> r.probe().equals(probe) && r.clients() == clients)
                .reduce((a, b) -> b).orElse(null);
        if (run == null) {
            err.println("spice figure: no " + probe + " mix at " + clients + " clients in " + dir);
            return 1;
        }
        out.println(name.equals("requests") ? Long.toString(run.requests()) : String.format(Locale.ROOT, "%.1f", run.rateRps()));
        return 0;
    }
}
