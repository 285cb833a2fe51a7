package org.spice.bench.run;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;

import org.spice.bench.analysis.RoundFigures;
import org.spice.bench.figures.SpiceFigures;
import org.spice.bench.mix.Mix;
import org.spice.bench.model.BenchSettings;
import org.spice.bench.model.CpuPlan;
import org.spice.bench.model.CpuRounds;
import org.spice.bench.model.Failure;
import org.spice.bench.model.LoadEngine;
import org.spice.bench.model.Reference;
import org.spice.bench.model.SteadyState;
import org.spice.bench.model.Stop;
import org.spice.bench.proc.ServerCpu;

/**
 * The CPU rounds phase, right after the warm-up and at its load: every workload runs a one-second slice per round, in
 * an order shuffled per round from the seed, so that what drifts over the run (the machine, the JIT, the server's
 * memory) hits every probe alike and cancels in each probe's ratio to the static file, taken per round. A round's
 * slices follow each other under one load ({@link LoadEngine.Windowed#round}): the clients go from one probe to the
 * next without stopping, so no slice but the round's first begins on a server that was idle a moment before. Rounds go on
 * until every probe's figures are known to the precision asked ({@link RoundFigures#preciseEnough}) or the time bound
 * would be passed by one more round. The CPU figures of the results come from here; the ladder gives rates.
 */
public final class PairedRounds {

    private static final double SLICE_S = 1;
    /**
     * Each round's first workload runs this long before its slice, unmeasured: the load has stopped between two rounds
     * (between two slices of a round it does not), and a server's first moments under load again are not its steady
     * cost.
     */
    static final double LEAD_IN_S = 0.5;
    /** Mixes each seed's shuffles apart from the clients' draws, which use the seed itself. */
    private static final long SHUFFLE = 0x5DEECE66DL;

    private final BenchSettings settings;
    private final LoadEngine.Windowed engine;
    private final Stop stop;
    private final PrintStream err;
    private final Recorder recorder;
    private final ServerCpu serverCpu;
    /** The rounds' state: their one rate (null: closed loop), the rounds so far, the workloads still measured. */
    private RoundRate rate;
    private CpuRounds rounds;
    private List<Mix> running;
    private boolean readsJit;

    PairedRounds(BenchSettings settings, LoadEngine.Windowed engine, ServerCpu serverCpu, Stop stop, PrintStream err,
            Recorder recorder) {
        this.settings = settings;
        this.engine = engine;
        this.serverCpu = serverCpu;
        this.stop = stop;
        this.err = err;
        this.recorder = recorder;
    }

    /** Runs the rounds after a warm-up of {@code warmUpS} seconds; null, or why the run must stop. */
    Failure run(double warmUpS) throws InterruptedException, IOException {
        CpuPlan plan = settings.cpu();
        double boundS = plan.boundS(warmUpS);
        if (plan.openLoop()) {
            Failure unfound = findRate(plan);
            if (unfound != null) {
                return unfound;
            }
        }
        err.println(announce(plan, rate, warmUpS, boundS));
        rounds = new CpuRounds(plan.clients(), plan.precision(), boundS, RoundsLoop.IN_PROGRESS, List.of());
        rounds = rate == null ? rounds : rounds.offered(rate.rps(), rate.from(), rate.atClients());
        double firstS = (rate == null || rate.atClients().isEmpty() ? 1 : 2) * LEAD_IN_S
                + SLICE_S * order(settings.load().mixes(), settings.runner().seed(), 1).size();
        readsJit = serverCpu.readsJit();
        running = settings.load().mixes();
        return RoundsLoop.run(new Kind(), new RoundsLoop.Bound(boundS, firstS, "every probe", false), stop, err);
    }

    /**
     * The rounds' one offered rate: given (--cpu-rate R), or from a round at the client count before the rounds
     * (--cpu-rate auto, and one server's default); null, or why there is none.
     */
    private Failure findRate(CpuPlan plan) throws InterruptedException, IOException {
        LoadEngine.Round pace = plan.rateRps() != null ? null
                : engine.round(order(settings.load().mixes(), settings.runner().seed(), 0), plan.clients(), LEAD_IN_S, false);
        if (stop.requested()) {
            return stop.failure();
        }
        if (pace != null && pace.ends() != null) {
            return pace.ends();
        }
        rate = pace == null ? RoundRate.given(plan.rateRps()) : plan.farArmsApart()
                ? RoundRate.nearStatic(pace, plan.rateFraction(), plan.clients(), CpuPlan.NEAR)
                : RoundRate.auto(pace, plan.rateFraction(), plan.clients());
        return rate != null ? null : Failure.of(Failure.Kind.NO_ANSWER, "--cpu-rate auto: no workload was served in the"
                + " round that finds the rate");
    }

    /** The paired rounds as {@link RoundsLoop} runs them: their figures go to the recorder after every round. */
    private final class Kind implements RoundsLoop.Kind {
        @Override
        public Failure round(int r) throws InterruptedException, IOException {
            LoadEngine.Round round = PairedRounds.this.round(order(running, settings.runner().seed(), r), rate, r, readsJit);
            if (round.ends() == null && !stop.requested()) {
                rounds = rounds.with(new CpuRounds.Round(r, round.slices(), round.note()), RoundsLoop.IN_PROGRESS);
            }
            return round.ends();
        }

        @Override
        public String progress() {
            return PairedRounds.this.progress(rounds, running);
        }

        @Override
        public boolean precise() {
            return RoundFigures.preciseEnough(rounds, PairedRounds.this::cpuSource);
        }

        @Override
        public void record(String stoppedBy) throws IOException {
            recorder.rounds(rounds.stopped(stoppedBy));
        }

        @Override
        public void narrow() {
            List<Mix> next = stillRunning(rounds);
            for (Mix mix : running) {
                if (!next.contains(mix)) {
                    err.println(done(rounds, mix.name()));
                }
            }
            running = next;
        }
    }

    /**
     * Round {@code r}: {@code order}'s slices at the rounds' load. Where some arms run at the client count beside the
     * others' offered rate, they run as one part of the round, after the others in an odd round and before them in an
     * even one (each part with its own lead-in, the load changing between them), so that neither is always first.
     */
    private LoadEngine.Round round(List<Mix> order, RoundRate rate, int r, boolean readsJit)
            throws InterruptedException, IOException {
        int clients = settings.cpu().clients();
        if (rate == null) {
            return engine.round(order, clients, LEAD_IN_S, readsJit);
        }
        List<Mix> held = order.stream().filter(m -> !rate.atClients().contains(m.name())).toList();
        List<Mix> closed = order.stream().filter(m -> rate.atClients().contains(m.name())).toList();
        if (closed.isEmpty()) {
            return engine.openRound(held, rate.rps(), LEAD_IN_S, readsJit);
        }
        List<Part> parts = new ArrayList<>();
        if (!held.isEmpty()) {
            parts.add(() -> engine.openRound(held, rate.rps(), LEAD_IN_S, readsJit));
        }
        parts.add(() -> engine.round(closed, clients, LEAD_IN_S, readsJit));
        return inParts(parts, r, stop);
    }

    /** A part of a round: some of its slices, at one load. */
    interface Part {
        LoadEngine.Round run() throws InterruptedException, IOException;
    }

    /**
     * Round {@code r} run in {@code parts}, one after another, as listed in an odd round and in reverse in an even one
     * (so that no part is always first), until one ends the rounds or a stop is asked for: their slices as one round.
     */
    static LoadEngine.Round inParts(List<Part> parts, int r, Stop stop) throws InterruptedException, IOException {
        List<Part> order = new ArrayList<>(parts);
        if (r % 2 == 0) {
            Collections.reverse(order);
        }
        List<LoadEngine.Round> done = new ArrayList<>();
        for (Part part : order) {
            LoadEngine.Round ran = part.run();
            done.add(ran);
            if (ran.ends() != null || stop.requested()) {
                break;
            }
        }
        return LoadEngine.Round.joined(done);
    }

    /** The CPU figure that stands for {@code probe}'s cost, from where the run reads the server's CPU. */
    private SpiceFigures.CpuSource cpuSource(String probe) {
        return Preflight.cpuFrom(settings.server(), serverCpu).sourceFor(settings.server().name(), probe);
    }

    /** The rounds' first line: their load, and their time bound with where it comes from. */
    static String announce(CpuPlan plan, RoundRate rate, double warmUpS, double boundS) {
        String why = plan.withWarmUpS() == null ? "--cpu-time"
                : boundS >= plan.timeS() ? "the default bound; --cpu-time sets another"
                : boundS <= CpuPlan.LEAST_S ? "the least the rounds take: the warm-up, its idle measurement"
                        + " included, took " + fmt(warmUpS) + " s of the " + fmt(plan.withWarmUpS()) + " s the two share"
                : "what the warm-up, its idle measurement included, left of the " + fmt(plan.withWarmUpS())
                        + " s the two share: it took " + fmt(warmUpS) + " s";
        return String.format(Locale.ROOT, "cpu rounds at %s: until every probe is within its precision, at most"
                + " %s s (%s)", RoundRate.load(rate, plan.clients()), fmt(boundS), why);
    }

    /**
     * The workloads the next round runs: every one for the first {@link RoundFigures#MIN_ROUNDS} counted rounds; then the static
     * file, which every probe is paired with, and the probes whose figures have not yet reached their precision, so
     * that the rounds' time goes where the noise is (JSP's 100 pages spread more than a servlet's one buffer).
     */
    private List<Mix> stillRunning(CpuRounds rounds) {
        if (rounds.counted() < RoundFigures.MIN_ROUNDS
                || settings.load().mixes().stream().noneMatch(m -> m.name().equals(Reference.STATIC))) {
            return settings.load().mixes();
        }
        Map<String, RoundFigures.Figures> figures = RoundFigures.of(rounds, this::cpuSource);
        return settings.load().mixes().stream().filter(m -> m.name().equals(Reference.STATIC) || figures.get(m.name()) == null
                || !figures.get(m.name()).precise()).toList();
    }

    /**
     * Round {@code round}'s order, the same for the same seed and round: the workloads shuffled in an odd round, and
     * the next (even) round runs them in reverse, so that every workload is first as often as last over each pair
     * of rounds. The first slice of a round costs more: measured with the same file under two names (A/A), the one
     * that always ran first cost 1.09 × the other. The shuffle's generator is seeded through SplittableRandom's mix,
     * because java.util.Random's first draw barely changes between seeds one apart: seeded with seed × c + round, a
     * two-workload round had put the same workload first in every round. The static file runs
     * {@link #staticSlices} slices of the round.
     */
    static List<Mix> order(List<Mix> mixes, long seed, int round) {
        return arranged(withStaticSlices(mixes), seed, round);
    }

    /** {@code mixes} with the static file (if among them) {@link #staticSlices} times. */
    static List<Mix> withStaticSlices(List<Mix> mixes) {
        List<Mix> slices = new ArrayList<>(mixes);
        mixes.stream().filter(m -> m.name().equals(Reference.STATIC)).findFirst().ifPresent(
                reference -> slices.addAll(Collections.nCopies(staticSlices(mixes.size() - 1) - 1, reference)));
        return slices;
    }

    /** {@code slices} shuffled for an odd round from the seed, and the even round after it in reverse (see {@link #order}). */
    public static <T> List<T> arranged(List<T> slices, long seed, int round) {
        int odd = round % 2 == 1 ? round : round - 1;
        List<T> order = new ArrayList<>(slices);
        Collections.shuffle(order, new Random(new SplittableRandom(seed * SHUFFLE + odd).nextLong()));
        if (round != odd) {
            Collections.reverse(order);
        }
        return order;
    }

    /**
     * The static file's slices in a round beside {@code others} probes: √others, rounded (at least one). Every ratio
     * is paired with the static file, so its noise is in each of them; with k probes against one reference, the
     * reference's share that makes the ratios most precise for the time is √k of a probe's (Dunnett's allocation).
     * The 1 s slices' noise here is the machine's, and white: the spread of successive slices' difference grows
     * only from 0.078 at one second apart to 0.085 at five (wrk, one probe at a time, 57 slices each). With six
     * workloads, two static slices in a round of seven make a ratio's variance 3/4 of one in six slices for 7/6 of
     * the time (the same precision in 7/8 of it), and halve the static file's own.
     */
    static int staticSlices(int others) {
        return Math.max(1, (int) Math.round(Math.sqrt(others)));
    }

    /**
     * One line per round on stderr: the estimates so far of the probes that ran in it (static's CPU, each other's
     * ratio), with their intervals once there are enough rounds; a round left out says so and why.
     */
    String progress(CpuRounds rounds, List<Mix> ran) {
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "cpu round %d at %s",
                rounds.rounds().size(), rounds.load()));
        String note = rounds.rounds().get(rounds.rounds().size() - 1).generatorNote();
        if (note != null) {
            line.append(" (").append(note).append(')');
        }
        if (rounds.rounds().get(rounds.rounds().size() - 1).jitBusy()) {
            return line.append(String.format(Locale.ROOT, ": left out, the server's JIT was compiling through it (over"
                    + " %.0f %% of its CPU); %s", 100 * SteadyState.JIT_QUIET, rounds.counted() == 0 ? "no round counted yet"
                            : rounds.counted() + " counted so far")).toString();
        }
        Map<String, RoundFigures.Figures> figures = RoundFigures.of(rounds, this::cpuSource);
        List<String> parts = new ArrayList<>();
        for (Mix mix : ran) {
            RoundFigures.Figures f = figures.get(mix.name());
            if (f != null && !parts.contains(mix.name())) {
                parts.add(figure(mix.name(), f));
            }
        }
        return line.append(String.format(Locale.ROOT, ", %d counted, so far: ", rounds.counted()))
                .append(String.join(", ", parts)).toString();
    }

    /** The line of a probe that leaves the rounds, its figure known to its aim: that figure, once. */
    String done(CpuRounds rounds, String probe) {
        RoundFigures.Figures f = RoundFigures.of(rounds, this::cpuSource).get(probe);
        return String.format(Locale.ROOT, "cpu rounds: %s done after %d rounds, its ratio within its aim (±%s %%): %s",
                probe, f.paired().rounds(), fmt(100 * f.aim()), figure(probe, f));
    }

    /** "static 88.1 µs ± 4.2 %", "servlet 0.934 × ± 3.9 %"; no interval before there are enough rounds. */
    private static String figure(String probe, RoundFigures.Figures f) {
        boolean reference = probe.equals(Reference.STATIC);
        if (Double.isNaN(reference ? f.cpuUsPerReq() : f.paired().ratio())) {
            return probe + " not measured yet";
        }
        double relative = reference ? f.cpuUsPerReqCi() / f.cpuUsPerReq() : f.paired().relativeCi();
        String value = reference ? String.format(Locale.ROOT, "%.1f µs", f.cpuUsPerReq())
                : String.format(Locale.ROOT, "%.3f ×", f.paired().ratio());
        return probe + " " + value + (Double.isNaN(relative) ? "" : " ± " + pct(relative));
    }

    private static String pct(double relative) {
        return Double.isNaN(relative) ? "-" : String.format(Locale.ROOT, "%.1f %%", 100 * relative);
    }

    private static String fmt(double seconds) {
        return String.format(Locale.ROOT, "%.0f", seconds);
    }
}
