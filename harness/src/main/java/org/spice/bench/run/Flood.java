package org.spice.bench.run;

import java.io.IOException;
import java.io.PrintStream;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.spice.bench.analysis.Summaries;
import org.spice.bench.engine.ClientLimits;
import org.spice.bench.figures.Counts;
import org.spice.bench.figures.SpiceFigures;
import org.spice.bench.mix.Mix;
import org.spice.bench.model.BenchSettings;
import org.spice.bench.model.CpuFrom;
import org.spice.bench.model.Failure;
import org.spice.bench.model.FloodPlan;
import org.spice.bench.model.LoadEngine;
import org.spice.bench.model.Overload;
import org.spice.bench.model.Reference;
import org.spice.bench.model.RunRecord;
import org.spice.bench.model.Stop;
import org.spice.page.CanonicalPage;
import org.spice.page.Probe;
import org.spice.verify.Verifier;

/**
 * The flood phase, the overload profile after its ladder: each workload at its peak's client count, then at 2, 4, 8 and 16 times it
 * (capped by what this machine allows), then watched at the peak's count until it runs within 10 % of its rate
 * before the flood and answers the page byte for byte. Through it all, {@link FloodWatch} reads what could hold either
 * side back, and each step and check keeps its readings. One workload's flood and recovery end before the next one's
 * begins, so each starts from a server that has come back (or is said not to have).
 */
final class Flood {

    /** How long the recovery is watched at most, in windows of {@link #CHECK_S}. */
    static final double RECOVERY_LIMIT_S = 60;
    static final double CHECK_S = Overload.CHECK_S;
    /** The checks before the flood whose median rate those after it are held to. */
    static final int BASELINE_CHECKS = 3;

    private final BenchSettings settings;
    private final LoadEngine.Windowed engine;
    private final Stop stop;
    private final PrintStream err;
    private final Recorder recorder;
    private final Verifier verifier;
    private final List<Overload> done = new ArrayList<>();

    Flood(BenchSettings settings, LoadEngine.Windowed engine, Stop stop, PrintStream err, Recorder recorder) {
        this.settings = settings;
        this.engine = engine;
        this.stop = stop;
        this.err = err;
        this.recorder = recorder;
        this.verifier = new Verifier(settings.target().http(), CanonicalPage.of((int) settings.load().bytes()), LocalDate.now(),
                settings.target().timeoutMillis());
    }

    /** What the phase has measured so far. */
    List<Overload> done() {
        return List.copyOf(done);
    }

    /** Floods every workload in turn, past the peaks the ladder found; returns null, or why the phase was cut short. */
    Failure run() throws InterruptedException, IOException {
        recorder.note(rule());
        recorder.note(READINGS);
        List<RunRecord> ladder = recorder.runs();
        ClientLimits.Most most = ClientLimits.most(settings.target().keepAlive());
        FloodPlan flood = settings.flood();
        try (FloodWatch watch = new FloodWatch(settings.target().http().port(), scoreboard())) {
            return flood(ladder, most, flood, watch);
        }
    }

    /** httpd's scoreboard address, where the server is httpd; null for the others. */
    private java.net.InetSocketAddress scoreboard() {
        return settings.server().name().startsWith("apache") ? settings.target().http().address() : null;
    }

    private Failure flood(List<RunRecord> ladder, ClientLimits.Most most, FloodPlan flood, FloodWatch watch)
            throws InterruptedException, IOException {
        for (Mix mix : settings.load().mixes()) {
            Peak peak = peak(mix.name(), ladder);
            if (peak == null) {
                recorder.note("overload: " + mix.name() + " had no mix that counted in the ladder, so no peak to go past");
                continue;
            }
            List<Overload.Check> baseline = checks(mix, peak.clients(), BASELINE_CHECKS, watch, System.nanoTime(), null);
            List<Overload.Step> steps = new ArrayList<>();
            List<Integer> multiples = new ArrayList<>(List.of(1));
            multiples.addAll(flood.multiples());
            int previous = 0;
            for (int multiple : multiples) {
                long asked = (long) peak.clients() * multiple;
                int clients = (int) Math.min(asked, most.clients());
                String capped = clients < asked ? String.format(Locale.ROOT, "%d × %d = %d clients asked for; %s",
                        multiple, peak.clients(), asked, most.because()) : null;
                if (clients <= previous) {
                    recorder.note("overload: " + mix.name() + " at " + multiple + " × not run: " + capped);
                    continue;
                }
                previous = clients;
                stop.rest(flood.pauseS());
                if (stop.requested()) {
                    return stop.failure();
                }
                FloodWatch.Mark from = watch.mark();
                RunRecord run = engine.run(mix, clients, 0, flood.rampUpS(), flood.windowS(), flood.rampDownS());
                steps.add(new Overload.Step(multiple, clients, capped, run, watch.over(from, watch.mark(), run.serverCpuS())));
                recorder.flooded(steps.get(steps.size() - 1), with(new Overload(mix.name(), peak.clients(), peak.from(), steps, null)));
                if (stop.requested()) {
                    return stop.failure();
                }
                if (run.failed() && run.failureKind().endsFlood()) {
                    done.add(new Overload(mix.name(), peak.clients(), peak.from(), steps, null));
                    return run.failure();
                }
            }
            Overload.Recovery recovery = recovery(mix, peak.clients(), baseline, watch);
            done.add(new Overload(mix.name(), peak.clients(), peak.from(), steps, recovery));
            recorder.flooded(null, done());
            err.println(said(done.get(done.size() - 1)));
        }
        return null;
    }

    private List<Overload> with(Overload current) {
        List<Overload> all = new ArrayList<>(done);
        all.add(current);
        return all;
    }

    /** A workload's peak client count and where it came from. */
    record Peak(int clients, String from) {
    }

    /** The given peak, else the ladder's useful peak (fair and within the latency bound), else its highest rate. */
    Peak peak(String workload, List<RunRecord> ladder) {
        if (settings.flood().peakClients() > 0) {
            return new Peak(settings.flood().peakClients(), "given (--peak-clients)");
        }
        List<RunRecord> own = ladder.stream().filter(r -> r.probe().equals(workload)).toList();
        SpiceFigures.Summary summary = Summaries.of(own, settings.load().latencyBoundMs(), Reference.STATIC, settings.server().name(),
                CpuFrom.PROC).stream().filter(s -> s.probe().equals(workload)).findFirst().orElse(null);
        if (summary == null || summary.failed()) {
            return null;
        }
        if (summary.usefulPeakClients() > 0) {
            return new Peak(summary.usefulPeakClients(), String.format(Locale.ROOT, "the ladder's useful peak (Jain's index"
                    + " ≥ %.2f, mean latency ≤ %.0f ms)", SpiceFigures.FAIR, settings.load().latencyBoundMs()));
        }
        return new Peak(summary.peakClients(), "the ladder's highest rate (no mix was fair and within the latency bound)");
    }

    /**
     * Right after the largest step: a GET checked byte for byte, then a window at the peak's clients, again and again,
     * until a window runs within 10 % of the same checks' rate before the flood, failing no more than they did, with
     * an exact page, or the limit.
     */
    private Overload.Recovery recovery(Mix mix, int clients, List<Overload.Check> baseline, FloodWatch watch)
            throws InterruptedException {
        Overload before = new Overload(mix.name(), clients, null, List.of(), new Overload.Recovery(RECOVERY_LIMIT_S,
                baseline, List.of()));
        return new Overload.Recovery(RECOVERY_LIMIT_S, baseline, checks(mix, clients, Integer.MAX_VALUE, watch,
                System.nanoTime(), before::recovered));
    }

    /**
     * Checks, one after another, until {@code enough} of them ran, one counts as {@code done}, the limit or a stop:
     * each a GET compared byte for byte (a probe's), then a one-second window at {@code clients} with its readings.
     */
    private List<Overload.Check> checks(Mix mix, int clients, int enough, FloodWatch watch, long since,
            java.util.function.Predicate<Overload.Check> done) throws InterruptedException {
        Probe probe = mix.isProbe() ? Probe.byId(mix.name()) : null;
        List<Overload.Check> checks = new ArrayList<>();
        while (!stop.requested() && checks.size() < enough && seconds(since) < RECOVERY_LIMIT_S) {
            FloodWatch.Mark from = watch.mark();
            String notExact = probe == null ? null : verifier.exactGet(probe);
            double exactAt = seconds(since);
            RunRecord window = engine.slice(mix, clients, CHECK_S);
            Overload.Check check = new Overload.Check(exactAt, notExact, seconds(since), window.requests(),
                    window.errorTotal(), window.durationS(), watch.over(from, watch.mark(), window.serverCpuS()));
            checks.add(check);
            if (done != null && done.test(check)) {
                break;
            }
        }
        return checks;
    }

    /** How the flood was run, for the results' notes. */
    private String rule() {
        FloodPlan flood = settings.flood();
        return String.format(Locale.ROOT, "overload: each workload at its peak's client count, then at %s times it"
                + " (capped by this machine's limits), each step %.1f s of ramp-up, a %.1f s window and %.1f s of"
                + " ramp-down; retention is a step's rate over the 1 × step's, left out where the engine or this client's"
                + " own limits set the pace; recovery is the time from the end of the largest step until a %.0f s window"
                + " at the peak's clients runs within %.0f %% of the median of %d such windows before the flood, failing no"
                + " larger share of its requests than the worst of them, and a GET answers the page byte for byte (watched for %.0f s at most); a request still"
                + " under way when a step ends is reset, not left to the server's kernel to complete",
                flood.multiples(), flood.rampUpS(), flood.windowS(), flood.rampDownS(), CHECK_S,
                100 * Overload.RECOVERED_WITHIN, BASELINE_CHECKS, RECOVERY_LIMIT_S);
    }

    /** What each window's readings are, for the results' notes. */
    static final String READINGS = "overload readings, every step and check: this machine's sockets to and from the"
            + " server's port by state (the most in any reading, one each 0.5 s), the longest accept queue, the handshakes"
            + " the full accept queue dropped and the SYNs answered with cookies (the machine's TcpExt counters over the"
            + " window), httpd's scoreboard (busy workers, processes stopping), the server's CPU; held_by names those"
            + " near their limit";

    /** One line on stderr per workload flooded. */
    static String said(Overload o) {
        StringBuilder line = new StringBuilder("overload: " + o.probe() + ", peak " + Counts.clients(o.peakClients()) + ":");
        o.retention().forEach((multiple, retention) -> line.append(' ').append(multiple).append(" × ")
                .append(retention == null ? "excluded" : String.format(Locale.ROOT, "%.0f %%", 100 * retention)));
        double back = o.recoveredAfterS();
        line.append(Double.isNaN(back) ? String.format(Locale.ROOT, "; did not recover in %.0f s", RECOVERY_LIMIT_S)
                : String.format(Locale.ROOT, "; back within %.0f %% after %.1f s", 100 * Overload.RECOVERED_WITHIN, back));
        return line.toString();
    }

    private static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }
}
