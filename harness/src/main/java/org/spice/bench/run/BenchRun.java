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
 * One bench run of one server: {@link Preflight} (options that need the machine, the server reachable, where its CPU
 * is read), then a {@link Recorder} that owns the results directory, then under a {@link Stop} that a signal sets the
 * run's {@link Phases} (warm-up, CPU rounds, ladder or open loop, the profiles asked for), and last the recorder's
 * finish (results.json, runs.csv, report.html, the table). results.json is rewritten after every mix, so a crash loses
 * at most the mix in progress. Exit 0 only if every mix succeeded; SIGINT and SIGTERM end the mix under way, write
 * what was measured, marked partial, and exit 130 or 143.
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
            Failure cut = Phases.run(List.of(new Phases.Member(settings, ready, recorder, engine)),
                    warmUpS -> rounds(warmUpS, engine, ready, stop, recorder), true, stop, err);
            int status = recorder.finish(cut, out);
            return signals.status() != 0 ? signals.status() : status;
        }
    }

    /** The CPU rounds of one server ({@link Phases}' rounds): paired rounds where its engine runs slices, else a note. */
    private Failure rounds(double warmUpS, LoadEngine engine, Preflight.Ready ready, Stop stop, Recorder recorder)
            throws InterruptedException, IOException {
        if (settings.cpuRoundsRun() && engine instanceof LoadEngine.Windowed windowed) {
            return new PairedRounds(settings, windowed, ready.serverCpu(), stop, err, recorder).run(warmUpS);
        }
        if (settings.latency() != null) {
            recorder.note("no CPU rounds at one load: the latency profile reads the server's CPU per request at"
                    + " each of its rates");
        } else if (settings.cpu().timeS() > 0) {
            recorder.note("no CPU rounds: the " + settings.runner().engine() + " engine runs no slices, so the CPU figures"
                    + " are the ladder's, each probe at its own peak");
        }
        return null;
    }
}
