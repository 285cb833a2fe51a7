package org.spice.bench.run;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.SplittableRandom;

import org.spice.bench.figures.CpuSources;
import org.spice.bench.mix.Mix;
import org.spice.bench.model.BenchSettings;
import org.spice.bench.model.CpuFrom;
import org.spice.bench.model.CpuPlan;
import org.spice.bench.model.Failure;
import org.spice.bench.model.IdleCpu;
import org.spice.bench.model.LoadEngine;
import org.spice.bench.model.Reference;
import org.spice.bench.model.StealLimit;
import org.spice.bench.model.Stop;
import org.spice.bench.proc.ServerCpu;

/**
 * The CPU rounds phase of every run, one server's or several side by side, right after the warm-up and at its load:
 * every workload runs a one-second slice per round, in an order shuffled per round from the seed, so that what drifts
 * over the run (the machine, the JIT, the server's memory) hits every probe alike and cancels in each probe's ratio to
 * the static file, taken per round. A round's slices follow each other under one load ({@link
 * LoadEngine.Windowed#round}): the clients go from one probe to the next without stopping, so no slice but the round's
 * first begins on a server that was idle a moment before. One server's rounds run on its own engine; servers side by
 * side share one engine that reads each server's CPU at every slice's edge ({@link CrossRounds}). One rule for every
 * run decides the first round and the time bound ({@link #leadRound}, {@link #boundS}). Rounds go on until every
 * figure is known to the precision asked or the time bound would be passed by one more round. The CPU figures of the
 * results come from here; the ladder gives rates.
 */
public final class PairedRounds {

    /**
     * Each round's first workload runs this long before its slice, unmeasured: the load has stopped between two rounds
     * (between two slices of a round it does not), and a server's first moments under load again are not its steady
     * cost.
     */
    static final double LEAD_IN_S = 0.5;
    /** Mixes each seed's shuffles apart from the clients' draws, which use the seed itself. */
    private static final long SHUFFLE = 0x5DEECE66DL;

    /** What the rounds run on: the arms' workloads, the engine, and what stands for each arm's CPU. */
    record Arms(List<Mix> mixes, LoadEngine.Windowed engine, CpuSources sourceOf, StealLimit stealLimit,
            boolean readsJit, List<String> pairs, int servers) {
    }

    private final Arms arms;
    private final CpuPlan plan;
    private final long seed;
    private final Stop stop;
    private final PrintStream err;

    PairedRounds(Arms arms, CpuPlan plan, long seed, Stop stop, PrintStream err) {
        this.arms = arms;
        this.plan = plan;
        this.seed = seed;
        this.stop = stop;
        this.err = err;
    }

    /** One server's arms: its workloads on its own engine, its CPU where its settings read it. */
    static Arms alone(BenchSettings settings, LoadEngine.Windowed engine, ServerCpu serverCpu, IdleCpu idle) {
        CpuFrom from = Preflight.cpuFrom(settings.server(), serverCpu);
        return new Arms(settings.load().mixes(), engine, (arm, probe) -> from.sourceFor(settings.server().name(), probe),
                stealLimit(idle), serverCpu.readsJit(), settings.cpu().pairs(), 1);
    }

    /**
     * Runs the rounds after a warm-up of {@code warmUpS} seconds, each round's figures to {@code sink}; null, or why
     * the run must stop.
     */
    Failure run(double warmUpS, CrossRounds.Sink sink) throws InterruptedException, IOException {
        int armCount = Math.max(1, CrossRounds.servers(arms.mixes()).size());
        double boundS = boundS(plan, warmUpS, arms.servers(), armCount);
        LoadEngine.Round lead = null;
        if (leadRound(plan, arms.servers(), armCount)) {
            lead = arms.engine().round(CrossRounds.order(arms.mixes(), seed, 0), plan.clients(), LEAD_IN_S, false);
            if (stop.requested() || lead.ends() != null) {
                return stop.requested() ? stop.failure() : lead.ends();
            }
        }
        RoundRate rate = RoundRate.of(plan, lead);
        if (plan.openLoop() && rate == null) {
            return Failure.of(Failure.Kind.NO_ANSWER, "--cpu-rate auto: no workload was served in the round that finds"
                    + " the rate");
        }
        CrossRounds rounds = new CrossRounds(arms.mixes(), arms.pairs(), seed, plan.clients(), plan.precision(), boundS,
                arms.sourceOf(), arms.engine(), rate, arms.stealLimit(), arms.readsJit(), stop, err);
        return rounds.run(sink, announce(plan, rate, warmUpS, boundS, arms.servers(), armCount));
    }

    /**
     * Whether the rounds begin with a round unmeasured: where the rate must be found (--cpu-rate auto takes it from
     * that round's rates), and where a server has been idle since its warm-up (side by side, every server warmed
     * before the last; a server's other protocols, warmed after it). One server alone at a given rate goes from its
     * warm-up straight into the rounds at their load.
     */
    static boolean leadRound(CpuPlan plan, int servers, int arms) {
        return plan.openLoop() && plan.rateRps() == null || servers > 1 || arms > 1;
    }

    /**
     * The rounds' time bound: each arm's share is what one server alone would have ({@link CpuPlan#boundS}, given its
     * share of the warm-up), so N arms get N times one server's.
     */
    static double boundS(CpuPlan plan, double warmUpS, int servers, int arms) {
        return arms * plan.boundS(warmUpS / Math.max(1, servers));
    }

    /** The steal past which a slice is left out, from the machine's at idle (null: its idle never measured). */
    static StealLimit stealLimit(IdleCpu idle) {
        return idle == null ? null : StealLimit.above(idle.stealCores());
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

    /** The rounds' first line: their load, their arms, and their time bound with where it comes from. */
    static String announce(CpuPlan plan, RoundRate rate, double warmUpS, double boundS, int servers, int arms) {
        double shareS = warmUpS / Math.max(1, servers);
        double eachS = boundS / arms;
        String why = plan.withWarmUpS() == null ? "--cpu-time"
                : eachS >= plan.timeS() ? "the default bound; --cpu-time sets another"
                : eachS <= CpuPlan.LEAST_S ? "the least the rounds take: the warm-up, its idle measurement"
                        + " included, took " + fmt(shareS) + " s of the " + fmt(plan.withWarmUpS()) + " s the two share"
                : "what the warm-up, its idle measurement included, left of the " + fmt(plan.withWarmUpS())
                        + " s the two share: it took " + fmt(shareS) + " s";
        String each = arms > 1 ? arms + " arms side by side, " + fmt(eachS) + " s each: " : "";
        return String.format(Locale.ROOT, "cpu rounds at %s: until every %s is within its precision, at most"
                + " %s s (%s%s)", RoundRate.load(rate, plan.clients()), arms > 1 ? "ratio" : "probe", fmt(boundS), each,
                why);
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

    private static String fmt(double seconds) {
        return String.format(Locale.ROOT, "%.0f", seconds);
    }
}
