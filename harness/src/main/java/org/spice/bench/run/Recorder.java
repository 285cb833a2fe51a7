package org.spice.bench.run;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.spice.bench.analysis.ResultsFiles;
import org.spice.bench.figures.Counts;
import org.spice.bench.model.BenchSettings;
import org.spice.bench.model.CostCurve;
import org.spice.bench.model.CpuRounds;
import org.spice.bench.model.Failure;
import org.spice.bench.model.IdleCpu;
import org.spice.bench.model.LatencyProfile;
import org.spice.bench.model.LoadEngine;
import org.spice.bench.model.OpenLoopRun;
import org.spice.bench.model.Overload;
import org.spice.bench.model.Results;
import org.spice.bench.model.RunRecord;
import org.spice.bench.model.SteadyState;
import org.spice.bench.report.OpenLoopTable;
import org.spice.bench.report.ReportWriter;

/**
 * What a run has measured and what it has to say, and the one writer of its results directory: every phase hands
 * its runs, warm-up and flood here; results.json is rewritten after each (marked partial until the end), and the
 * finish writes the report and the table. A progress line on stderr per mix, with the warnings it raises.
 */
public final class Recorder {

    private static final String IN_PROGRESS = "run in progress";

    private final BenchSettings settings;
    private final Preflight.Ready ready;
    private final PrintStream err;
    private final Path dir;
    private final String startedAt = OffsetDateTime.now().withNano(0).toString();
    private final List<RunRecord> runs = new ArrayList<>();
    private final List<String> notes;
    private List<SteadyState> steadyState = List.of();
    private IdleCpu idle;
    private List<Overload> overload = List.of();
    private CpuRounds cpuRounds;
    private final List<OpenLoopRun> openLoop = new ArrayList<>();
    private LatencyProfile latencyProfile;
    private CostCurve costCurve;
    private LoadEngine engine;
    /** What the finish wrote, its figures concluded. */
    private Results finished;

    private Recorder(BenchSettings settings, Preflight.Ready ready, PrintStream err, Path dir) {
        this.settings = settings;
        this.ready = ready;
        this.err = err;
        this.dir = dir;
        this.notes = new ArrayList<>(ready.notes());
    }

    /** A recorder writing into a new results/TIME directory under --out. */
    static Recorder open(BenchSettings settings, Preflight.Ready ready, PrintStream err) throws Preflight.Refused {
        try {
            return new Recorder(settings, ready, err, resultsDir(settings.runner().outDir()));
        } catch (IOException e) {
            throw new Preflight.Refused(1, "--out: cannot create a results directory in " + settings.runner().outDir() + ": "
                    + e.getMessage());
        }
    }

    Path dir() {
        return dir;
    }

    /** The engine whose notes join the results (which JMeter engine ran how many clients). */
    void engine(LoadEngine value) {
        engine = value;
    }

    synchronized void note(String note) {
        notes.add(note);
    }

    /** The server's CPU at idle, measured before the warm-up; null before it was. */
    synchronized IdleCpu idle() {
        return idle;
    }

    synchronized void warmedUp(IdleCpu idleCpu, List<SteadyState> steady) {
        idle = idleCpu;
        steadyState = List.copyOf(steady);
    }

    /** The ladder's runs so far. */
    synchronized List<RunRecord> runs() {
        return List.copyOf(runs);
    }

    /** A mix measured: kept, said on stderr (after {@code at}), and written. */
    void measured(String at, RunRecord run) throws IOException {
        synchronized (this) {
            runs.add(run);
        }
        progress(at, run);
        save(true, IN_PROGRESS);
    }

    /** The CPU rounds so far. */
    void rounds(CpuRounds soFar) throws IOException {
        synchronized (this) {
            cpuRounds = soFar;
        }
        save(true, IN_PROGRESS);
    }

    /** A probe run open loop at a rate: kept, said on stderr, and written. */
    void openLoop(OpenLoopRun run) throws IOException {
        synchronized (this) {
            openLoop.add(run);
            if (run.generatorLimited()) {
                notes.add(run.probe() + " at " + run.offeredRps() + " req/s: " + run.generatorNote());
            }
        }
        err.println(OpenLoopTable.progress(run));
        save(true, IN_PROGRESS);
    }

    /** The latency profile so far, after a round or a curve's point: kept and written. */
    void latencyProfile(LatencyProfile soFar) throws IOException {
        synchronized (this) {
            latencyProfile = soFar;
        }
        save(true, IN_PROGRESS);
    }

    /** The cost curve so far, after a round: kept and written. */
    void costCurve(CostCurve soFar) throws IOException {
        synchronized (this) {
            costCurve = soFar;
        }
        save(true, IN_PROGRESS);
    }

    /** The flood so far, after one of its steps ({@code step} null: a workload's recovery). */
    void flooded(Overload.Step step, List<Overload> soFar) throws IOException {
        synchronized (this) {
            overload = List.copyOf(soFar);
        }
        if (step != null) {
            progress("[overload " + step.multiple() + " ×]", step.run());
        }
        save(true, IN_PROGRESS);
    }

    /** The last write: results.json (partial if {@code cut}), the report, the table; returns the exit status. */
    int finish(Failure cut, PrintStream out) {
        return finish(cut, out, true);
    }

    /**
     * The last write, as {@link #finish(Failure, PrintStream)}; with {@code answer} false the report's text is not
     * printed, only where the results are (a server side by side: the one answer is the servers' together).
     */
    int finish(Failure cut, PrintStream out, boolean answer) {
        boolean failed;
        synchronized (this) {
            failed = runs.stream().anyMatch(RunRecord::failed);
        }
        try {
            Results results = save(cut != null, cut == null ? null : cut.reason());
            finished = results;
            String report = ReportWriter.write(dir, results);
            if (answer) {
                out.print(report);
            }
            out.println("results: " + dir.toAbsolutePath());
        } catch (IOException | RuntimeException e) {
            err.println("spice bench: cannot write the results in " + dir + ": " + e);
            return 1;
        }
        if (cut != null) {
            err.println("spice bench: run cut short: " + cut.reason());
        }
        return cut != null || failed ? 1 : 0;
    }

    /** The results the finish wrote; null before it. */
    Results finished() {
        return finished;
    }

    /** Writes results.json as it stands; {@code partial} with why (a run still in progress is partial). */
    private Results save(boolean partial, String why) throws IOException {
        Results results;
        synchronized (this) {
            List<String> all = new ArrayList<>(notes);
            if (engine != null) {
                all.addAll(engine.notes());
            }
            results = new Results(settings.target().http().toString(), settings.server().name(), settings.load().bytes(), ready.recorded(),
                    startedAt, OffsetDateTime.now().withNano(0).toString(), partial, partial ? why : null, all, steadyState,
                    idle, List.copyOf(runs), overload, cpuRounds, List.copyOf(openLoop),
                    latencyProfile, costCurve);
        }
        return ResultsFiles.write(dir, results);
    }

    private void progress(String at, RunRecord r) {
        String line = String.format(Locale.ROOT, "%s %s %s%s: %.1f req/s, mean %.3f ms,"
                + " p99 %.3f ms, %d errors, Jain %.3f, Little %.2f, client %.2f cores, %s µs/req client, %s µs/req server",
                at, r.probe(), Counts.clients(r.clients()), r.repeat() > 0 ? ", repeat " + r.repeat() : "", r.rateRps(),
                r.latency().meanMs(), r.latency().p99Ms(), r.errorTotal(), r.fairnessJain(), r.littleRatio(),
                r.clientCpuCores(), fmt(r.clientCpuUsPerReq()), fmt(r.serverCpuUsPerReq()));
        err.println(line + (r.failed() ? "  FAILED: " + r.reason() : ""));
        if (r.clientSaturated()) {
            String warning = String.format(Locale.ROOT, "warning: the client used %.2f cores during %s at %s:"
                    + " the client, not the server, may be the limit there", r.clientCpuCores(), r.probe(), Counts.clients(r.clients()));
            err.println(warning);
            note(warning);
        }
        if (r.expectedBodyBytes() >= 0 && r.requests() > 0 && r.bytesPerResponse() != r.expectedBodyBytes()) {
            note("check failed: " + r.probe() + " at " + Counts.clients(r.clients()) + ": bytes per response "
                    + r.bytesPerResponse() + " is not the body size " + r.expectedBodyBytes());
        }
    }

    private static Path resultsDir(Path outDir) throws IOException {
        String stamp = stamp();
        Path candidate = outDir.resolve(stamp);
        for (int i = 2; Files.exists(candidate); i++) {
            candidate = outDir.resolve(stamp + "-" + i);
        }
        return Files.createDirectories(candidate);
    }

    private static String fmt(double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.1f", value);
    }

    /** The time a results folder is named by: yyyyMMdd-HHmmss, now. */
    public static String stamp() {
        return LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT));
    }
}
