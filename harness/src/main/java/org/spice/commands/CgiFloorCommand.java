package org.spice.commands;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import org.spice.bench.analysis.ResultsFiles;
import org.spice.bench.model.Results;
import org.spice.bench.report.CgiFloor;
import org.spice.bench.report.ReportWriter;
import org.spice.cgifloor.SpawnCost;
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

    @Option(names = "--spawn-cost", required = true, paramLabel = "TOOL", description = "cgi-c/spawn-cost, built by scripts/spice.")
    Path tool;

    @Option(names = "--program", required = true, paramLabel = "LABEL=PATH", description = "A CGI program to start; repeatable.")
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
        Map<String, List<SpawnCost.Spawn>> measured = new LinkedHashMap<>();
        for (Map.Entry<String, Path> program : programs.entrySet()) {
            try {
                measured.put(program.getKey(), SpawnCost.measure(tool, program.getValue(), spawns));
            } catch (IOException e) {
                err.println("spice cgi-floor: cannot time " + program.getValue() + ": " + e.getMessage());
                return 1;
            }
        }
        out.print(SpawnCost.table(measured));
        for (Path dir : resultDirs) {
            try {
                Results results = ResultsFiles.read(dir);
                out.print(SpawnCost.split(results, measured));
                // Kept beside the results, and the report drawn again with the CGI bar split.
                Path resultsDir = Files.isDirectory(dir) ? dir : dir.toAbsolutePath().getParent();
                CgiFloor floor = SpawnCost.floor(measured);
                if (floor != null) {
                    floor.write(resultsDir);
                    ReportWriter.write(resultsDir, results);
                }
            } catch (IOException e) {
                err.println("spice cgi-floor: " + e.getMessage());
                return 1;
            }
        }
        return 0;
    }
}
