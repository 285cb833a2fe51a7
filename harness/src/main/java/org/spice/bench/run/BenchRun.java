package org.spice.bench.run;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.spice.bench.model.BenchSettings;
import org.spice.bench.model.CpuRounds;
import org.spice.bench.model.Failure;
import org.spice.bench.model.LoadEngine;
import org.spice.bench.model.Stop;
import org.spice.bench.report.ReportWriter;

/**
 * Every bench run, of one server or of several side by side, through one setup: under a {@link Stop} that a signal
 * sets, each server passes its {@link Preflight} (options that need the machine, the server reachable, where its CPU
 * is read), gets a {@link Recorder} that owns its results directory and its engine; then the run's {@link Phases}
 * (warm-up, CPU rounds, each server's ladder or open loop and the profiles asked for); last each recorder's finish
 * (results.json, runs.csv, report.html) and, side by side, the servers' one answer ({@link SideBySide}). results.json
 * is rewritten after every mix, so a crash loses at most the mix in progress. Exit 0 only if every mix succeeded;
 * SIGINT and SIGTERM end the mix under way, write what was measured, marked partial, and exit 130 or 143.
 */
public final class BenchRun {

    /**
     * One server of the run: the name its slices carry (side by side), which server it is (scripts/spice's name; a
     * deployment's, its name), its settings as a bench of it alone would have, and notes its results carry from
     * before the run (the probes a target does not serve).
     */
    public record Instance(String name, String server, BenchSettings settings, List<String> notes) {

        public Instance {
            notes = List.copyOf(notes);
        }

        public Instance(String name, String server, BenchSettings settings) {
            this(name, server, settings, List.of());
        }
    }

    private final List<Instance> instances;
    private final SideBySide.Plan together;
    private final PrintStream out;
    private final PrintStream err;
    private final List<Path> dirs = new ArrayList<>();
    private SideBySide side;

    private BenchRun(List<Instance> instances, SideBySide.Plan together, PrintStream out, PrintStream err) {
        this.instances = List.copyOf(instances);
        this.together = together;
        this.out = out;
        this.err = err;
    }

    /** A run of one server whose results carry {@code notes} from before it (which probes a target lacks). */
    public static BenchRun alone(BenchSettings settings, List<String> notes, PrintStream out, PrintStream err) {
        return new BenchRun(List.of(new Instance(settings.server().name(), settings.server().name(), settings, notes)),
                null, out, err);
    }

    /** A run of {@code instances} side by side, as {@code plan} says. */
    public static BenchRun sideBySide(List<Instance> instances, SideBySide.Plan plan, PrintStream out,
            PrintStream err) {
        return new BenchRun(instances, plan, out, err);
    }

    /** The (first) server's results directory, once the run has made it (null before, or if it could not). */
    public Path dir() {
        return dirs.isEmpty() ? null : dirs.get(0);
    }

    /** Each server's results directory, once made. */
    public List<Path> dirs() {
        return List.copyOf(dirs);
    }

    /** Side by side, the rounds of this start as far as they ran; null if none did (and for one server). */
    public CpuRounds crossRounds() {
        return side == null ? null : side.crossRounds();
    }

    /** @return the exit status */
    public int run() {
        // Every server's checks first, before the signals are watched: a Ctrl-C there ends the JVM (its servers
        // stopped by the plan's hook), and a refusal leaves no results directory behind.
        List<Preflight.Ready> readies = new ArrayList<>();
        for (Instance instance : instances) {
            try {
                readies.add(Preflight.check(instance.settings(), err));
            } catch (Preflight.Refused refused) {
                return refused(instance, refused);
            }
        }
        Stop stop = new Stop();
        try (Signals signals = Signals.watch(stop, err)) {
            List<Phases.Member> members = new ArrayList<>();
            for (int i = 0; i < instances.size(); i++) {
                Instance instance = instances.get(i);
                Preflight.Ready ready = readies.get(i);
                Recorder recorder;
                try {
                    recorder = Recorder.open(instance.settings(), ready, err);
                } catch (Preflight.Refused refused) {
                    return refused(instance, refused);
                }
                instance.notes().forEach(recorder::note);
                dirs.add(recorder.dir());
                LoadEngine engine = Engines.start(instance.settings(), ready.tls(), ready.serverCpu(), recorder.dir(),
                        stop, err);
                recorder.engine(engine);
                members.add(new Phases.Member(instance.settings(), ready, recorder, engine));
            }
            Phases.Rounds rounds;
            if (together == null) {
                rounds = warmUpS -> roundsAlone(members.get(0), warmUpS, stop, err);
            } else {
                side = new SideBySide(instances, together, dirs, err);
                rounds = warmUpS -> side.rounds(members, warmUpS, stop);
            }
            Failure cut = Phases.run(members, rounds, together == null || together.last(), stop, err);
            int status = finish(members, cut);
            return signals.status() != 0 ? signals.status() : status;
        }
    }

    /** Why {@code instance} cannot be measured, said (with its name side by side); the exit status it gives. */
    private int refused(Instance instance, Preflight.Refused refused) {
        err.println("spice bench: " + (together == null ? "" : instance.name() + ": ") + refused.getMessage());
        return refused.status();
    }

    /** The CPU rounds of one server alone: paired rounds where its engine runs slices, else a note why not. */
    static Failure roundsAlone(Phases.Member m, double warmUpS, Stop stop, PrintStream err)
            throws InterruptedException, IOException {
        BenchSettings settings = m.settings();
        if (settings.cpuRoundsRun() && m.engine() instanceof LoadEngine.Windowed windowed) {
            return new PairedRounds(PairedRounds.alone(settings, windowed, m.ready().serverCpu(), m.recorder().idle()),
                    settings.cpu(), settings.runner().seed(), stop, err).run(warmUpS, m.recorder()::rounds);
        }
        if (settings.latency() != null) {
            m.recorder().note("no CPU rounds at one load: the latency profile reads the server's CPU per request at"
                    + " each of its rates");
        } else if (settings.cpu().timeS() > 0) {
            m.recorder().note("no CPU rounds: the " + settings.runner().engine() + " engine runs no slices, so the CPU"
                    + " figures are the ladder's, each probe at its own peak");
        }
        return null;
    }

    /**
     * Each server's last write; one server prints its answer, servers side by side print their one answer (the
     * earlier starts of --restarts print nothing but their progress).
     */
    private int finish(List<Phases.Member> members, Failure cut) {
        if (together == null) {
            return members.get(0).recorder().finish(cut, out);
        }
        int status = 0;
        PrintStream where = together.last() ? out : new PrintStream(OutputStream.nullOutputStream());
        for (Phases.Member m : members) {
            status = Math.max(status, m.recorder().finish(cut, where, false));
        }
        if (side.written() != null && together.last()) {
            try {
                out.print(ReportWriter.write(together.dir(), side.written()));
                out.println("side by side: " + together.dir().resolve(ReportWriter.PAGE).toAbsolutePath()
                        + " (results.json beside it)");
            } catch (IOException e) {
                err.println("spice bench: cannot write " + together.dir().resolve(ReportWriter.PAGE) + ": "
                        + e.getMessage());
                status = Math.max(status, 1);
            }
        }
        return status;
    }
}
