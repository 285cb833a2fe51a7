package org.spice.bench.run;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.HdrHistogram.Histogram;
import org.spice.bench.analysis.LatencyFigures;
import org.spice.bench.engine.OpenLoop;
import org.spice.bench.mix.Mix;
import org.spice.bench.model.BenchSettings;
import org.spice.bench.model.Failure;
import org.spice.bench.model.LatencyPlan;
import org.spice.bench.model.LatencyProfile;
import org.spice.bench.model.LoadEngine;
import org.spice.bench.model.OpenLoopRun;
import org.spice.bench.model.RunRecord;
import org.spice.bench.model.Stop;
import org.spice.bench.report.LatencyTable;
import org.spice.bench.report.OpenLoopTable;

/**
 * The latency profile, after the ladder has found each probe's peak: every probe open loop at the same offered
 * rates, fractions of the slowest probe's peak so that every probe holds them, in rounds of one slice per probe and
 * rate, shuffled per round as the CPU rounds are ({@link PairedRounds#arranged}), so that each probe's latency at a
 * rate is paired with the static file's at that rate in the same round; then each probe along its own curve, from a
 * tenth of its peak to past it. The server's CPU is read around every slice and point.
 */
final class LatencyRounds {

    /** An interval needs six rounds ({@link org.spice.bench.figures.PairedRatio#MIN_FOR_INTERVAL}). */
    static final int MIN_ROUNDS = 6;
    /** A curve stops past its knee: once a point achieved less than this share of what it offered. */
    static final double KNEE = 0.5;

    private final BenchSettings settings;
    private final LatencyPlan plan;
    private final LoadEngine engine;
    private final Stop stop;
    private final PrintStream err;
    private final Recorder recorder;
    private final List<LatencyProfile.Slice> slices = new ArrayList<>();
    private final Map<String, Histogram> pooled = new HashMap<>();
    private final List<OpenLoopRun> curves = new ArrayList<>();

    LatencyRounds(BenchSettings settings, LoadEngine engine, Stop stop, PrintStream err, Recorder recorder) {
        this.settings = settings;
        this.plan = settings.latency();
        this.engine = engine;
        this.stop = stop;
        this.err = err;
        this.recorder = recorder;
    }

    /** @return null when the rounds and every curve ran, else why the run was cut short */
    Failure run() throws InterruptedException, IOException {
        Map<String, LatencyProfile.Peak> peaks = peaks(recorder.runs(), settings.load().mixes());
        if (peaks.size() < settings.load().mixes().size()) {
            return Failure.of(Failure.Kind.OTHER, "the latency profile needs every probe's peak, and the ladder"
                    + " measured none for " + settings.load().mixes().stream().map(Mix::name).filter(n -> !peaks.containsKey(n))
                    .toList());
        }
        LatencyProfile.Peak slowest = peaks.values().stream()
                .min((a, b) -> Double.compare(a.peakRps(), b.peakRps())).orElseThrow();
        List<Double> rates = plan.fractions().stream().map(f -> (double) Math.max(1, Math.round(f * slowest.peakRps())))
                .distinct().toList();
        Profile profile = new Profile(List.copyOf(peaks.values()), slowest, rates);
        err.println(String.format(Locale.ROOT, "latency rounds: every probe open loop at %s req/s (%s of %s's peak,"
                + " %.0f req/s), %s s slices, until every ratio to static is within ±%.0f %%, at most %s",
                rates.stream().map(r -> String.format(Locale.ROOT, "%.0f", r)).toList(), plan.fractions(),
                slowest.probe(), slowest.peakRps(), fmt(settings.timing().durationS()), 100 * plan.precision(), plan.timeS() > 0
                        ? fmt(plan.timeS()) + " s (--cpu-time)" : LatencyPlan.ROUNDS + " rounds' time"));
        Failure cut = rounds(profile);
        if (cut == null) {
            cut = curves(profile);
        }
        return cut;
    }

    /** The slices of every round, until the ratios are precise enough or the time bound is near. */
    private Failure rounds(Profile profile) throws InterruptedException, IOException {
        List<Cell> cells = new ArrayList<>();
        for (double rate : profile.rates) {
            for (Mix mix : settings.load().mixes()) {
                cells.add(new Cell(mix, rate));
            }
        }
        double firstS = cells.size() * (settings.timing().durationS() + OpenLoop.LEAD_MS / 1e3);
        return RoundsLoop.run(new Kind(profile, cells), new RoundsLoop.Bound(plan.boundS(firstS * 1.05), firstS,
                "every ratio", true), stop, err);
    }

    /** A probe at one of the common rates: one slice of a round. */
    private record Cell(Mix mix, double rate) {
    }

    /** The latency rounds as {@link RoundsLoop} runs them: the profile goes to the recorder after every round. */
    private final class Kind implements RoundsLoop.Kind {
        private final Profile profile;
        private final List<Cell> cells;
        /** The round under way or last run, and its figures once it has run. */
        private int round;
        private List<LatencyProfile.AtRate> figures = List.of();

        Kind(Profile profile, List<Cell> cells) {
            this.profile = profile;
            this.cells = cells;
        }

        @Override
        public Failure round(int r) throws InterruptedException {
            round = r;
            for (Cell cell : PairedRounds.arranged(cells, settings.runner().seed(), r)) {
                slices.add(LatencyProfile.Slice.of(r, slice(cell.mix(), cell.rate())));
                if (stop.requested()) {
                    return null;
                }
            }
            figures = profile.figures(r);
            return null;
        }

        @Override
        public String progress() {
            return LatencyTable.progress(round, figures);
        }

        @Override
        public boolean precise() {
            return round >= MIN_ROUNDS && LatencyFigures.preciseEnough(figures, plan.precision());
        }

        @Override
        public void record(String stoppedBy) throws IOException {
            profile.recorded(round, stoppedBy);
        }
    }

    /** One probe at one rate for a slice, the server's CPU read around it, its latencies pooled. */
    private OpenLoopRun slice(Mix mix, double rate) throws InterruptedException {
        LoadEngine.Open open = engine.open(mix, rate, plan.maxInFlight(), settings.timing().durationS());
        pooled.merge(LatencyFigures.key(mix.name(), rate), open.latencies(), (a, b) -> {
            a.add(b);
            return a;
        });
        return open.run();
    }

    /** Each probe from a tenth of its peak to past it, a point per fraction, until it is well past its knee. */
    private Failure curves(Profile profile) throws InterruptedException, IOException {
        for (Mix mix : settings.load().mixes()) {
            double peak = profile.peaks.stream().filter(p -> p.probe().equals(mix.name())).findFirst().orElseThrow()
                    .peakRps();
            for (double fraction : plan.curve()) {
                OpenLoopRun point = engine.open(mix, Math.max(1, Math.round(fraction * peak)), plan.maxInFlight(),
                        settings.timing().durationS()).run();
                curves.add(point);
                err.println("[curve " + fmt(fraction) + " × peak] " + OpenLoopTable.progress(point));
                profile.recorded(profile.rounds, profile.stoppedBy);
                if (stop.requested()) {
                    return stop.failure();
                }
                if (point.achievedRps() < KNEE * point.offeredRps()) {
                    err.println("[curve] " + mix.name() + " achieved " + fmt(point.achievedRps()) + " of "
                            + fmt(point.offeredRps()) + " req/s: past its knee, its curve ends here");
                    break;
                }
            }
        }
        return null;
    }

    /**
     * Each probe's peak in the ladder (its highest rate of a run that did not fail), in the mixes' order; a probe
     * without one is left out.
     */
    static Map<String, LatencyProfile.Peak> peaks(List<RunRecord> runs, List<Mix> mixes) {
        Map<String, LatencyProfile.Peak> peaks = new LinkedHashMap<>();
        for (Mix mix : mixes) {
            runs.stream().filter(r -> r.probe().equals(mix.name()) && !r.failed() && r.rateRps() > 0)
                    .max((a, b) -> Double.compare(a.rateRps(), b.rateRps()))
                    .ifPresent(r -> peaks.put(mix.name(), new LatencyProfile.Peak(mix.name(), r.rateRps(), r.clients())));
        }
        return peaks;
    }

    /** The profile as it stands: what it was run at, and the rounds so far. */
    private final class Profile {
        final List<LatencyProfile.Peak> peaks;
        final LatencyProfile.Peak slowest;
        final List<Double> rates;
        int rounds;
        String stoppedBy = "in progress";

        Profile(List<LatencyProfile.Peak> peaks, LatencyProfile.Peak slowest, List<Double> rates) {
            this.peaks = peaks;
            this.slowest = slowest;
            this.rates = rates;
        }

        List<LatencyProfile.AtRate> figures(int upTo) {
            return LatencyFigures.of(slices, pooled, settings.load().mixes().stream().map(Mix::name).toList(), rates,
                    slowest.peakRps(), upTo);
        }

        /** Hands the profile after {@code upTo} rounds to the recorder; null, for the rounds' loop to return. */
        Failure recorded(int upTo, String why) throws IOException {
            rounds = upTo;
            stoppedBy = why;
            recorder.latencyProfile(new LatencyProfile(peaks, slowest.probe(), plan.fractions(), rates,
                    settings.timing().durationS(), plan.maxInFlight(), upTo, why, figures(upTo), slices, curves));
            return null;
        }
    }

    private static String fmt(double value) {
        return value == Math.rint(value) ? String.format(Locale.ROOT, "%.0f", value)
                : String.format(Locale.ROOT, "%.2f", value);
    }
}
