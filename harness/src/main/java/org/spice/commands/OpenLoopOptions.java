package org.spice.commands;

import java.util.List;
import java.util.TreeSet;

import org.spice.bench.model.Arrivals;
import org.spice.bench.model.BenchSettings;
import org.spice.bench.model.CostPlan;
import org.spice.bench.model.LatencyPlan;
import org.spice.bench.model.OpenRate;
import org.spice.bench.model.Reference;
import org.spice.bench.model.Runner;
import org.spice.bench.model.Timing;
import org.spice.cli.Cli;

import picocli.CommandLine.Option;

/**
 * The options of the open loop: one rate in the ladder's place (--rate), the latency profile's rates, or the cost
 * curve's.
 */
final class OpenLoopOptions {

    /** The most a fraction of a peak may be: past twice the peak, a point measures only the queue it builds. */
    static final double MAX_FRACTION = 2;

    @Option(names = "--rate", paramLabel = "R", converter = Converters.Positive.class, description = "Open loop, in the"
            + " ladder's place: each probe at R requests per second for --duration, each request due on a schedule"
            + " whatever the server does, its latency taken from its due time (no coordinated omission).")
    Double rate;

    @Option(names = "--max-in-flight", paramLabel = "N", description = "Open loop: requests under way at most; past"
            + " them up to ten times as many wait, past those they are dropped and count as the timeout (default 1000).")
    int maxInFlight = 1000;

    @Option(names = "--arrivals", paramLabel = "HOW", converter = Converters.ArrivalsName.class, description = "How the"
            + " open loop's requests fall in time at its rate (the CPU rounds', --rate's, the latency and cost"
            + " profiles'): even, one every 1 / R s, as wrk2 and vegeta send them, or poisson, at random as many"
            + " independent clients send them, drawn from --seed (default even).")
    Arrivals arrivals = Arrivals.EVEN;

    @Option(names = "--common-rates", paramLabel = "LIST", split = ",", converter = Converters.Positive.class,
            description = "With --profile latency: the rates every probe runs at, as fractions of the slowest probe's"
                    + " peak in the ladder (default 0.25,0.5,0.75).")
    List<Double> common;

    @Option(names = "--curve", paramLabel = "LIST", split = ",", converter = Converters.Positive.class,
            description = "With --profile latency: each probe's own curve, as fractions of its peak (default"
                    + " 0.1,0.3,0.5,0.7,0.9,1.1,1.3; a curve ends once a point achieves less than half its rate).")
    List<Double> curve;

    @Option(names = "--cost-rates", paramLabel = "LIST", split = ",", converter = Converters.Positive.class,
            description = "With --profile cost: the rates each probe runs at, as fractions of its own peak in the ladder"
                    + " (default 0.1,0.25,0.5,0.75,0.9; the marginal cost's line from 0.25 up).")
    List<Double> costRates;

    @Option(names = "--cost-rounds", paramLabel = "N", description = "With --profile cost: rounds of a one-second slice"
            + " per probe and rate (default 6, the fewest with an interval; at least 3).")
    Integer costRounds;

    /** The single rate asked for, or null. */
    OpenRate open() {
        return rate == null ? null : new OpenRate(rate, maxInFlight);
    }

    /** The latency profile's plan (null unless the profile is latency), its rounds bounded by {@code cpu}'s options. */
    LatencyPlan latency(Cli.Checks check, Timing.Profile profile, CpuOptions cpu) {
        if (profile != Timing.Profile.LATENCY) {
            if (common != null || curve != null) {
                throw check.fail("--common-rates and --curve go with --profile latency");
            }
            return null;
        }
        if (cpu.timeS != null && cpu.timeS == 0) {
            throw check.fail("--cpu-time 0: the latency profile's rounds need time (--cpu-time bounds them; by default"
                    + " they take " + LatencyPlan.ROUNDS + " rounds)");
        }
        return new LatencyPlan(fractions(check, "--common-rates", common,
                LatencyPlan.FRACTIONS), fractions(check, "--curve", curve, LatencyPlan.CURVE),
                maxInFlight, cpu.timeS != null ? cpu.timeS : 0, cpu.precisionPct / 100);
    }

    /** The cost curve's plan (null unless the profile is cost). */
    CostPlan cost(Cli.Checks check, Timing.Profile profile) {
        if (profile != Timing.Profile.COST) {
            if (costRates != null || costRounds != null) {
                throw check.fail("--cost-rates and --cost-rounds go with --profile cost");
            }
            return null;
        }
        List<Double> fractions = fractions(check, "--cost-rates", costRates, CostPlan.FRACTIONS);
        if (fractions.size() < 2) {
            throw check.fail("--cost-rates: give at least two fractions of the peak, or no line can be drawn");
        }
        int rounds = costRounds != null ? costRounds : CostPlan.ROUNDS;
        if (rounds < 3 || rounds > 1000) {
            throw check.fail("--cost-rounds takes a whole number from 3 (an interval needs the spread of at least"
                    + " three) to 1000, not " + rounds);
        }
        return new CostPlan(fractions, CostPlan.FIT_FROM, CostPlan.SLICE_S,
                rounds, maxInFlight);
    }

    /** Random arrivals pace SPICE's own open loop: something in the run must run one. */
    private void checkArrivals(Cli.Checks check, BenchSettings settings, boolean profile) {
        if (arrivals == Arrivals.EVEN) {
            return;
        }
        if (settings.runner().engine() != Runner.Engine.EVENT_LOOP) {
            throw check.fail("--arrivals " + arrivals + " paces SPICE's own open loop: JMeter's open model spaces its"
                    + " arrivals evenly");
        }
        if (rate == null && !profile && !settings.cpuRoundsRun()) {
            throw check.fail("--arrivals " + arrivals + " paces the open loop, and this run has none: it goes with the"
                    + " CPU rounds (--cpu-time above 0), --rate, or --profile latency or cost");
        }
    }

    private static List<Double> fractions(Cli.Checks check, String option, List<Double> given, List<Double> otherwise) {
        if (given == null) {
            return otherwise;
        }
        TreeSet<Double> sorted = new TreeSet<>(given);
        if (sorted.last() > MAX_FRACTION) {
            throw check.fail(option + " takes fractions of a peak above 0 and at most " + MAX_FRACTION + ", not " + given);
        }
        return List.copyOf(sorted);
    }

    /** The open loop's rules: what it runs (probes, one server, once, on its own engine) and its bounds. */
    void check(Cli.Checks check, BenchSettings settings, boolean sideBySide) {
        if (maxInFlight < 1 || maxInFlight > 100_000) {
            throw check.fail("--max-in-flight takes a whole number from 1 to 100000, not " + maxInFlight);
        }
        boolean profile = settings.latency() != null || settings.cost() != null;
        checkArrivals(check, settings, profile);
        if (rate == null && !profile) {
            return;
        }
        String what = settings.cost() != null ? "--profile cost" : profile ? "--profile latency" : "--rate";
        if (rate != null && profile) {
            throw check.fail("--rate runs each probe at one rate in the ladder's place; " + what + " finds its"
                    + " rates from the ladder: one or the other");
        }
        if (rate != null && rate > 1_000_000) {
            throw check.fail("--rate: at most 1000000 requests per second, not " + rate);
        }
        if (sideBySide || settings.load().repeat() > 1 || settings.flood() != null
                || settings.load().mixes().stream().anyMatch(m -> !m.isProbe())) {
            throw check.fail(what + " runs probes open loop on one server, once: not with several servers or"
                    + " protocols, --profile overload, --repeat or mixes");
        }
        if (profile && settings.runner().engine() != Runner.Engine.EVENT_LOOP) {
            throw check.fail(what + " runs on SPICE's own engine: its rounds of short slices would each start"
                    + " a JMeter (--engine jmeter takes --rate, one probe at a time)");
        }
        if (settings.runner().engine() == Runner.Engine.JMETER && (settings.target().keepAlive() || maxInFlight != 1000)) {
            throw check.fail("--rate with --engine jmeter: JMeter's open model starts a thread per arrival, a"
                    + " connection each, with no cap: not with --keepalive or --max-in-flight");
        }
        if (settings.latency() != null && settings.load().mixes().stream().noneMatch(m -> m.name().equals(Reference.STATIC))) {
            throw check.fail("--profile latency takes every probe's latency against the static file's: add static to"
                    + " --probes");
        }
    }
}
