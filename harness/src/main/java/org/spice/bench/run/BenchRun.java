package org.spice.bench.run;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

import org.spice.bench.model.BenchSettings;
import org.spice.bench.model.Failure;
import org.spice.bench.model.LoadEngine;
import org.spice.bench.model.Stop;

/**
 * One bench run of one server, as its phases: {@link Preflight} (options that need the machine, the server reachable,
 * where its CPU is read), then a {@link Recorder} that owns the results directory, then under a {@link Stop} that a
 * signal sets: {@link WarmUp} (idle, then every workload until steady), {@link PairedRounds} (the CPU figures: every
 * workload in rounds at one load, paired with the static file), {@link Ladder} (every workload at every client
 * count; with --rate, {@link OpenRates} instead: each probe open loop at that rate), {@link LatencyRounds} (with
 * --profile latency: every probe open loop at common rates, paired, and along its curve), {@link CostRounds} (with
 * --profile cost: each probe's CPU along its rates, its marginal cost), {@link Flood} (past the
 * peak, with --profile overload), and last the recorder's finish (results.json,
 * runs.csv, report.html, the table). results.json is rewritten after every mix, so a crash loses at most the mix in
 * progress. Exit 0 only if every mix succeeded; SIGINT and SIGTERM end the mix under way, write what was measured,
 * marked partial, and exit 130 or 143.
 */
public final class BenchRun {

    private final BenchSettings settings;
    private final List<String> notes;
    private final PrintStream out;
    private final PrintStream err;
    private Path dir;

    public BenchRun(BenchSettings settings, PrintStream out, PrintStream err) {
        this(settings, List.of(), out, err);
    }

    /** A run whose results carry {@code notes} from before it (which probes a target lacks) beside its own. */
    public BenchRun(BenchSettings settings, List<String> notes, PrintStream out, PrintStream err) {
        this.settings = settings;
        this.notes = List.copyOf(notes);
        this.out = out;
        this.err = err;
    }

    /** The results directory, once the run has made it (null before, or if it could not). */
    public Path dir() {
        return dir;
    }

    /** @return the exit status */
    public int run() {
        Preflight.Ready ready;
        Recorder recorder;
        try {
            ready = Preflight.check(settings, err);
            recorder = Recorder.open(settings, ready, err);
        } catch (Preflight.Refused refused) {
            err.println("spice bench: " + refused.getMessage());
            return refused.status();
        }
        dir = recorder.dir();
        notes.forEach(recorder::note);
        Stop stop = new Stop();
        try (Signals signals = Signals.watch(stop, err)) {
            LoadEngine engine = Engines.start(settings, ready.tls(), ready.serverCpu(), dir, stop, err);
            recorder.engine(engine);
            int status = recorder.finish(phases(engine, ready, stop, recorder), out);
            return signals.status() != 0 ? signals.status() : status;
        }
    }

    /** Warm-up, CPU rounds, ladder, flood: null when all of them ran, else why the run was cut short. */
    private Failure phases(LoadEngine engine, Preflight.Ready ready, Stop stop, Recorder recorder) {
        try {
            long began = System.nanoTime();
            Failure cut = new WarmUp(engine, stop, err).run(settings, ready.serverCpu(), recorder);
            if (cut == null && settings.cpuRoundsRun() && engine instanceof LoadEngine.Windowed windowed) {
                cut = new PairedRounds(settings, windowed, ready.serverCpu(), stop, err, recorder)
                        .run(Math.ceil((System.nanoTime() - began) / 1e9));
            } else if (cut == null && settings.latency() != null) {
                recorder.note("no CPU rounds at one load: the latency profile reads the server's CPU per request at"
                        + " each of its rates");
            } else if (cut == null && settings.cpu().timeS() > 0) {
                recorder.note("no CPU rounds: the " + settings.runner().engine() + " engine runs no slices, so the CPU figures"
                        + " are the ladder's, each probe at its own peak");
            }
            if (cut == null && settings.open() != null) {
                cut = new OpenRates(settings, ready, engine, stop, recorder).run();
            } else if (cut == null) {
                cut = new Ladder(settings, engine, stop, recorder).run();
            }
            if (cut == null && settings.cost() != null) {
                cut = new CostRounds(settings, ready, stop, err, recorder).run();
            }
            if (cut == null && settings.latency() != null) {
                cut = new LatencyRounds(settings, ready, stop, err, recorder).run();
            }
            if (cut == null && settings.flood() != null && engine instanceof LoadEngine.Windowed windowed) {
                cut = new Flood(settings, windowed, stop, err, recorder).run();
            }
            return cut;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Failure.of(Failure.Kind.INTERRUPTED, "interrupted");
        } catch (IOException e) {
            return Failure.of(Failure.Kind.OTHER, "cannot write " + recorder.dir() + ": " + e.getMessage());
        } catch (OutOfMemoryError e) {
            return Failure.of(Failure.Kind.CLIENT_LIMIT, "out of memory in the client (" + e.getMessage() + "): give the"
                    + " JVM more heap (JAVA_TOOL_OPTIONS=-Xmx...) or run fewer clients");
        }
    }
}
