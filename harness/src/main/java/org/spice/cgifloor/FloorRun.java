package org.spice.cgifloor;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.spice.bench.analysis.ResultsFiles;
import org.spice.bench.model.Results;
import org.spice.bench.report.CgiFloor;
import org.spice.bench.report.ReportWriter;

/**
 * The CGI floor, run: what starting the CGI program costs on its own, timed by the checkout's cgi-c/spawn-cost (or a
 * tool given), for the CGI probe linked dynamically and statically (or programs given), each made with make where
 * missing; then set against the server CPU per CGI request of each results directory, kept beside them (cgi-floor.json)
 * and drawn into their report. {@code spice cgi-floor} and {@code bench --cgi-floor} run it.
 *
 * @param tool     the timing tool; null for the checkout's
 * @param programs the programs to start, by label; empty for the checkout's probe, dynamic and static
 * @param spawns   spawns per method
 */
public record FloorRun(Path tool, Map<String, Path> programs, int spawns) {

    /** The checkout's tool and probe, 2,000 spawns a method. */
    public static FloorRun ofCheckout() {
        return new FloorRun(null, Map.of(), 2000);
    }

    /** Times the programs and splits each results directory's CGI figure; 0, or 1 where anything failed (said). */
    public int run(Path root, List<Path> resultDirs, PrintStream out, PrintStream err) {
        Path target = root.resolve("cgi-c/target");
        Path timer = tool;
        Map<String, Path> started = new LinkedHashMap<>(programs);
        try {
            if (timer == null) {
                made(root.resolve("cgi-c"), target.resolve("spawn-cost"), err, "could not build cgi-c/spawn-cost",
                        "OUT=" + target, "spawn-cost");
                timer = target.resolve("spawn-cost");
            }
            if (started.isEmpty()) {
                made(root.resolve("cgi-c"), target.resolve("spice"), err, "could not build the CGI probe", "OUT=" + target,
                        target.resolve("spice").toString());
                made(root.resolve("cgi-c"), target.resolve("static/spice"), err, "could not link the static CGI program"
                        + " (libc6-dev has libc.a)", "STATIC=1", "OUT=" + target.resolve("static"), "GENERATED="
                        + target.resolve("generated"), target.resolve("static/spice").toString());
                started.put("spice (dynamic)", target.resolve("spice"));
                started.put("spice (static)", target.resolve("static/spice"));
            }
        } catch (IOException e) {
            err.println("spice cgi-floor: " + e.getMessage());
            return 1;
        }
        Map<String, List<SpawnCost.Spawn>> measured = new LinkedHashMap<>();
        for (Map.Entry<String, Path> program : started.entrySet()) {
            try {
                measured.put(program.getKey(), SpawnCost.measure(timer, program.getValue(), spawns));
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

    /** FILE, made in DIR with make ARGS where it is not there yet; make's output to {@code err}. */
    private static void made(Path dir, Path file, PrintStream err, String failure, String... args) throws IOException {
        if (Files.isExecutable(file)) {
            return;
        }
        List<String> command = new ArrayList<>(List.of("make", "--no-print-directory", "-s", "-C", dir.toString()));
        command.addAll(List.of(args));
        Process make = new ProcessBuilder(command).redirectErrorStream(true).start();
        make.getInputStream().transferTo(err);
        try {
            if (make.waitFor() != 0) {
                throw new IOException(failure + ": see make's output above");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            make.destroy();
            throw new IOException("interrupted while make ran");
        }
    }
}
