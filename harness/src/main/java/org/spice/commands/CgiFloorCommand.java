package org.spice.commands;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import org.spice.bench.plan.PlanCommands;
import org.spice.cgifloor.FloorRun;
import org.spice.cli.Cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code spice cgi-floor --spawn-cost TOOL --program LABEL=PATH... [--spawns N] [RESULTS_DIR...]}: what
 * starting the CGI program costs on its own (cgi-c/spawn-cost, fork+exec and posix_spawn), set against
 * the server CPU per CGI request that bench measured, so the report can say how much of a CGI request
 * is process creation and how much is the server's CGI plumbing.
 */
@Command(name = "cgi-floor", sortOptions = false, mixinStandardHelpOptions = true,
        description = "What starting the CGI program costs without a server (fork+exec and posix_spawn, dynamic and"
                + " static binary), set against the server CPU per CGI request of each given bench result.")
public final class CgiFloorCommand extends Cli.Printing implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--spawn-cost", paramLabel = "TOOL", description = "The timing tool (default: the checkout's"
            + " cgi-c/spawn-cost, built with make where missing).")
    Path tool;

    @Option(names = "--program", paramLabel = "LABEL=PATH", description = "A CGI program to start; repeatable (default:"
            + " the CGI probe linked dynamically and statically, cgi-c/target/spice and static/spice, built where missing).")
    Map<String, Path> programs = new LinkedHashMap<>();

    @Option(names = "--spawns", paramLabel = "N", description = "Spawns per method (default 2000).")
    int spawns = 2000;

    @Parameters(paramLabel = "RESULTS_DIR", arity = "0..*", description = "bench results with a cgi run.")
    List<Path> resultDirs = new ArrayList<>();

    @Override
    public Integer call() {
        if (spawns < 1 || spawns > 1_000_000) {
            throw new Cli.Checks(spec).fail("--spawns takes a whole number from 1 to 1000000, not " + spawns);
        }
        return new FloorRun(tool, programs, spawns).run(PlanCommands.projectRoot(), resultDirs, out, err);
    }
}
