package org.spice.bench.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.spice.bench.figures.Intervals;
import org.spice.bench.figures.SpiceFigures;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * The CPU rounds as measured (results.json {@code cpu_rounds}): after the warm-up, round after round, every workload
 * ran one slice at the same client count (the static file, which every probe is paired with, √k of them beside k
 * probes), in an order shuffled per round. Only counts are kept; every figure is computed from them
 * (bench.analysis.RoundFigures).
 *
 * @param clients   the one load of every slice
 * @param precision the interval the rounds aimed at, relative (0.05: ±5 %), twice that for a probe that costs more
 *                  than twice the static file
 * @param timeBoundS the most the rounds could last
 * @param stopped   why they stopped: the precision reached, the time bound, or the run cut short
 * @param rounds    each round's slices, in the order they ran
 * @param arms      where arms ran side by side: their names ({@link CpuSlice#server}), in the order they were named (the
 *                  first of a pair is the numerator of its ratios); empty for one server's rounds
 * @param pairs     the comparisons asked for by name (--pairs: "a/b" or "probe@a/probe@b"), the only ones their
 *                  figures make and wait for; empty: every pair of arms (bench.analysis.CrossFigures)
 * @param offeredRps where the rounds ran open loop (--cpu-rate), the one rate every slice was offered; null where they
 *                  ran {@code clients} clients, closed loop, each arm at its own rate
 * @param rateFrom  how that rate was chosen (the option, or the slowest arm's rate it is a share of); null closed loop
 * @param atClients where the rounds ran open loop, the arms that could not hold that rate (a probe far slower than the
 *                  static file: CGI's whole rate is under the in-process probes' half) and ran at {@code clients}
 *                  clients instead, closed loop, each at its own rate, still paired round by round with the static
 *                  file at the offered rate; empty where every arm was offered the rate
 * @param farOfferedRps where servers ran side by side open loop, the arms offered a rate of their own (a probe far
 *                  slower than the static file, on each server: CGI at half its slowest server's rate), that rate by
 *                  arm; empty where every arm but those {@code atClients} was offered {@code offeredRps}
 */
@JsonPropertyOrder({"clients", "offered_rps", "rate_from", "at_clients", "far_offered_rps", "steal_limit", "precision",
    "time_bound_s", "stopped", "arms", "pairs", "rounds"})
public record CpuRounds(int clients, double precision, double timeBoundS, String stopped, List<Round> rounds,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> arms,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> pairs,
        @JsonInclude(JsonInclude.Include.NON_NULL) Double offeredRps,
        @JsonInclude(JsonInclude.Include.NON_NULL) String rateFrom,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> atClients,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, Double> farOfferedRps,
        @JsonInclude(JsonInclude.Include.NON_NULL) StealLimit stealLimit) {

    /** Whether these are the rounds of several arms side by side: named, or their slices naming their arm. */
    public boolean ofSeveralArms() {
        return !arms.isEmpty() || rounds.stream().flatMap(r -> r.slices().stream()).anyMatch(t -> t.server() != null);
    }

    /**
     * An open-loop slice whose loop came later than this to its requests at the 99th percentile (5 % of a slice) is
     * marked or left out: a request counts in the slice it was due in, and sent that late its cost falls partly in the
     * next. The latency figures' limit (1 ms at p99.9) is not the CPU's: on this machine's two cores, beside a server
     * using one, the loop's lag at 5,600 req/s was 5-10 ms at p99, the scheduler's time slices, and shifts a slice's
     * CPU by under 1 %.
     */
    public static final double LAG_LIMIT_MS = 50;

    /** How a rate was taken: offered by an open loop, or achieved by clients that sent as fast as they were answered. */
    public static final String OFFERED = "offered";
    public static final String ACHIEVED = "achieved";

    public CpuRounds {
        rounds = List.copyOf(rounds);
        arms = arms == null ? List.of() : List.copyOf(arms);
        pairs = pairs == null ? List.of() : List.copyOf(pairs);
        atClients = atClients == null ? List.of() : List.copyOf(atClients);
        farOfferedRps = farOfferedRps == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(farOfferedRps));
        // results.json's reader makes a missing number NaN: closed-loop rounds have no offered rate
        offeredRps = offeredRps == null || offeredRps.isNaN() ? null : offeredRps;
    }

    /** Rounds at a client count, closed loop. */
    public CpuRounds(int clients, double precision, double timeBoundS, String stopped, List<Round> rounds,
            List<String> arms, List<String> pairs) {
        this(clients, precision, timeBoundS, stopped, rounds, arms, pairs, null, null, List.of());
    }

    /** Rounds at one offered rate, but for the arms {@code atClients}. */
    public CpuRounds(int clients, double precision, double timeBoundS, String stopped, List<Round> rounds,
            List<String> arms, List<String> pairs, Double offeredRps, String rateFrom, List<String> atClients) {
        this(clients, precision, timeBoundS, stopped, rounds, arms, pairs, offeredRps, rateFrom, atClients, Map.of(), null);
    }

    /** These rounds, every slice offered {@code rps} a second, open loop, chosen as {@code from} says. */
    public CpuRounds offered(double rps, String from) {
        return offered(rps, from, List.of());
    }

    /** These rounds offered {@code rps} a second, open loop, but for the arms {@code atClients}, closed loop. */
    public CpuRounds offered(double rps, String from, List<String> atClients) {
        return new CpuRounds(clients, precision, timeBoundS, stopped, rounds, arms, pairs, rps, from, atClients, Map.of(),
                stealLimit);
    }

    /** These rounds offered {@code rps} a second, open loop, but for the arms {@code far}, each offered its own rate. */
    public CpuRounds offered(double rps, String from, Map<String, Double> far) {
        return new CpuRounds(clients, precision, timeBoundS, stopped, rounds, arms, pairs, rps, from, List.of(), far,
                stealLimit);
    }

    /** These rounds, their slices that the hypervisor took more of than {@code limit} left out of every figure. */
    public CpuRounds leavingOut(StealLimit limit) {
        return new CpuRounds(clients, precision, timeBoundS, stopped, rounds, arms, pairs, offeredRps, rateFrom,
                atClients, farOfferedRps, limit);
    }

    /** How {@link #stopped} begins where the rounds ran out of time before every figure reached its precision. */
    public static final String AT_TIME_BOUND = "the time bound";
    /** How {@link #stopped} ends where every figure reached its precision ("every ratio within its precision"). */
    public static final String REACHED_AIM = " within its precision";

    /** Whether the rounds stopped at their time bound, some figure still wider than {@link #precision}. */
    @JsonIgnore
    public boolean stoppedAtTimeBound() {
        return stopped != null && stopped.startsWith(AT_TIME_BOUND);
    }

    /** Whether the rounds went on until every figure reached {@link #precision}. */
    @JsonIgnore
    public boolean reachedAim() {
        return stopped != null && !stoppedAtTimeBound() && stopped.endsWith(REACHED_AIM);
    }

    /** Whether every arm was offered the one rate {@link #offeredRps}. */
    @JsonIgnore
    public boolean oneRate() {
        return openLoop() && atClients.isEmpty() && farOfferedRps.isEmpty();
    }

    /** Whether the rounds ran open loop, at one offered rate (all but the arms {@link #atClients}). */
    @JsonIgnore
    public boolean openLoop() {
        return offeredRps != null;
    }

    /** Whether {@code arm} was offered the rounds' one rate, open loop (not closed loop at a client count). */
    public boolean offeredTo(String arm) {
        return openLoop() && !atClients.contains(arm);
    }

    /**
     * The rounds' load, as the answer says it: "5,600 req/s offered" open loop, or "8 clients", or with arms at a
     * client count "5,600 req/s offered, cgi and shtml at 8 clients", or with arms at rates of their own "5,600 req/s
     * offered, 170 to a/cgi and b/cgi".
     */
    @JsonIgnore
    public String load() {
        String offered = String.format(Locale.ROOT, "%,.0f req/s offered", offeredRps);
        if (!openLoop()) {
            return clients + " clients";
        }
        if (!atClients.isEmpty()) {
            return offered + ", " + String.join(" and ", atClients) + " at " + clients + " clients";
        }
        return offered + farLoads(farOfferedRps, ", ");
    }

    /**
     * The rates of arms offered one of their own, each after {@code separator}, the arms of one rate together:
     * ", 170 to a/cgi and b/cgi, 2,300 to a/shtml and b/shtml"; empty for none.
     */
    public static String farLoads(Map<String, Double> far, String separator) {
        Map<Double, List<String>> byRate = new LinkedHashMap<>();
        far.forEach((arm, rps) -> byRate.computeIfAbsent(rps, r -> new ArrayList<>()).add(arm));
        StringBuilder load = new StringBuilder();
        byRate.forEach((rps, arms) -> load.append(String.format(Locale.ROOT, "%s%,.0f to %s", separator, rps,
                String.join(" and ", arms))));
        return load.toString();
    }

    /** {@link #OFFERED} or {@link #ACHIEVED}: what {@link #rateRps} is of {@code arm}. */
    public String rateKind(String arm) {
        return offeredTo(arm) ? OFFERED : ACHIEVED;
    }

    /** What {@link #rateRps} is of every arm where all were measured alike, else "offered or achieved". */
    @JsonIgnore
    public String rateKind() {
        return !openLoop() ? ACHIEVED : atClients.isEmpty() ? OFFERED : OFFERED + " or " + ACHIEVED;
    }

    /**
     * The rate {@code arm} ran at in the rounds, requests a second: the offered rate, open loop; closed loop, its
     * slices' successes over their time in the counted rounds (NaN where none).
     */
    public double rateRps(String arm) {
        if (offeredTo(arm)) {
            return farOfferedRps.getOrDefault(arm, offeredRps);
        }
        long requests = 0;
        double seconds = 0;
        for (CpuSlice taken : countedSlices(arm)) {
            requests += taken.requests();
            seconds += taken.durationS();
        }
        return seconds > 0 ? requests / seconds : Double.NaN;
    }

    /** {@code arm}'s slices in the counted rounds (those the JIT did not compile through). */
    public List<CpuSlice> countedSlices(String arm) {
        return rounds.stream().filter(r -> !r.jitBusy()).flatMap(r -> r.slices().stream())
                .filter(t -> t.arm().equals(arm)).toList();
    }

    /**
     * How far {@code arm}'s request rate moved against {@code base}'s from one counted round to the next: the standard
     * deviation of the log of their ratio, over the rounds where both answered (NaN in fewer than two). Closed loop a
     * slice's rate is whatever the machine let the clients reach, and a server's CPU per request moves with its rate,
     * so this spread passes into the CPU ratio's (here 0.20-0.26 of the rate made 0.14-0.19 of the ratio's, an open
     * loop's rounds 0.03-0.05: docs/measurements.md, "One load").
     */
    public double rateRatioSpread(String arm, String base) {
        List<Double> logs = new ArrayList<>();
        for (Round round : rounds) {
            double a = round.rate(arm);
            double b = round.rate(base);
            if (!round.jitBusy() && a > 0 && b > 0) {
                logs.add(Math.log(a / b));
            }
        }
        return Intervals.sd(logs.stream().mapToDouble(Double::doubleValue).toArray());
    }

    /** One server's rounds. */
    public CpuRounds(int clients, double precision, double timeBoundS, String stopped, List<Round> rounds) {
        this(clients, precision, timeBoundS, stopped, rounds, List.of(), List.of());
    }

    /** Arms side by side, every pair of them compared. */
    public CpuRounds(int clients, double precision, double timeBoundS, String stopped, List<Round> rounds,
            List<String> arms) {
        this(clients, precision, timeBoundS, stopped, rounds, arms, List.of());
    }

    /**
     * One round: each workload's slices, in the round's order; where an open loop fell behind its schedule in it, what
     * its generator said (its slices were offered less than the rate, late).
     */
    @JsonPropertyOrder({"round", "generator_note", "slices"})
    public record Round(int round, List<CpuSlice> slices,
            @JsonInclude(JsonInclude.Include.NON_NULL) String generatorNote) {
        public Round {
            slices = List.copyOf(slices);
        }

        public Round(int round, List<CpuSlice> slices) {
            this(round, slices, null);
        }

        /**
         * The probe's (or arm's: {@link CpuSlice#arm}) CPU per request in this round from {@code source}, µs: over all its slices (the static file runs
         * more than one beside three probes or more); NaN where it did not run, a request failed or nothing was measured.
         */
        public double cpuUsPerReq(String probe, SpiceFigures.CpuSource source) {
            return cpuUsPerReq(probe, source, null, null);
        }

        /**
         * As {@link #cpuUsPerReq(String, SpiceFigures.CpuSource)}, over the arm's slices offered {@code atRps} (null:
         * any) that {@code steal} does not leave out (null: none left out).
         */
        public double cpuUsPerReq(String probe, SpiceFigures.CpuSource source, Double atRps, StealLimit steal) {
            double cpu = 0;
            long requests = 0;
            for (CpuSlice taken : slices) {
                if (taken.arm().equals(probe) && taken.ranAt(atRps) && (steal == null || !steal.leavesOut(taken))) {
                    if (Double.isNaN(taken.cpuUsPerReq(source))) {
                        return Double.NaN;
                    }
                    cpu += taken.cpuS(source);
                    requests += taken.requests();
                }
            }
            return requests > 0 ? cpu * 1e6 / requests : Double.NaN;
        }

        /** The successes a second of {@code arm}'s slices in this round; 0 where it did not run or none succeeded. */
        public double rate(String arm) {
            long requests = 0;
            double seconds = 0;
            for (CpuSlice taken : slices) {
                if (taken.arm().equals(arm)) {
                    requests += taken.requests();
                    seconds += taken.durationS();
                }
            }
            return seconds > 0 ? requests / seconds : 0;
        }

        /**
         * Whether the server's JIT compiled through this round ({@link SteadyState#JIT_QUIET}): its slices then carry
         * a one-off compilation and code not in its final tier, and the figures leave the round out.
         */
        @JsonIgnore
        public boolean jitBusy() {
            double jit = 0;
            double server = 0;
            for (CpuSlice taken : slices) {
                if (Double.isNaN(taken.jitCpuS())) {
                    return false;   // not read: a server with no JVM, or results from before it was
                }
                jit += taken.jitCpuS();
                server += taken.serverCpuS();
            }
            return SteadyState.share(jit, server) > SteadyState.JIT_QUIET;
        }
    }

    /**
     * The rate {@code arm} was offered: its own where it had one ({@link #farOfferedRps}), else the rounds' one rate;
     * null where it ran at the client count, closed loop.
     */
    public Double offeredRpsOf(String arm) {
        return farOfferedRps.containsKey(arm) ? farOfferedRps.get(arm) : offeredTo(arm) ? offeredRps : null;
    }

    /**
     * The arm {@code arm}'s ratio is taken against: its server's static file ("a/cgi": "a/static"), in the slices
     * offered {@code arm}'s own rate (see {@link #offeredRpsOf}).
     */
    public static String referenceOf(String arm) {
        int slash = arm.lastIndexOf('/');
        return slash < 0 ? Reference.STATIC : arm.substring(0, slash + 1) + Reference.STATIC;
    }

    /** The slices the hypervisor took too much of ({@link #stealLimit}), left out of every figure. */
    @JsonProperty("slices_left_out_for_steal")
    public int leftOutForSteal() {
        return stealLimit == null ? 0 : (int) rounds.stream().flatMap(r -> r.slices().stream())
                .filter(stealLimit::leavesOut).count();
    }

    /**
     * What the last round's progress line adds when the hypervisor took too much of some of its slices: "; 2 of 2
     * slices left out, the hypervisor taking over 10 % of a CPU through each"; empty when none was.
     */
    @JsonIgnore
    public String lastRoundSteal() {
        if (stealLimit == null || rounds.isEmpty()) {
            return "";
        }
        List<CpuSlice> slices = rounds.get(rounds.size() - 1).slices();
        long out = slices.stream().filter(stealLimit::leavesOut).count();
        return out == 0 ? "" : String.format(Locale.ROOT, "; %d of %d slices left out, the hypervisor taking"
                + " over %.0f %% of a CPU through each", out, slices.size(), 100 * stealLimit.share());
    }

    /** The rounds with one more. */
    public CpuRounds with(Round round, String why) {
        List<Round> all = new ArrayList<>(rounds);
        all.add(round);
        return new CpuRounds(clients, precision, timeBoundS, why, all, arms, pairs, offeredRps, rateFrom, atClients,
                farOfferedRps, stealLimit);
    }

    /** These rounds, stopped for {@code why}. */
    public CpuRounds stopped(String why) {
        return new CpuRounds(clients, precision, timeBoundS, why, rounds, arms, pairs, offeredRps, rateFrom, atClients,
                farOfferedRps, stealLimit);
    }

    /**
     * The rounds of one server that ran side by side with others ({@code server} as its slices name it): its slices
     * alone, as if it had been measured by itself, for its own figures (each probe against its own static file),
     * the rates of its arms by their probes' names.
     */
    public CpuRounds of(String server) {
        List<Round> own = new ArrayList<>();
        for (Round round : rounds) {
            own.add(new Round(round.round(), round.slices().stream().filter(t -> server.equals(t.server()))
                    .map(CpuSlice::alone).toList(), round.generatorNote()));
        }
        String prefix = server + "/";
        Map<String, Double> far = new LinkedHashMap<>();
        farOfferedRps.forEach((arm, rps) -> {
            if (arm.startsWith(prefix)) {
                far.put(arm.substring(prefix.length()), rps);
            }
        });
        List<String> closed = atClients.stream().filter(a -> a.startsWith(prefix)).map(a -> a.substring(prefix.length()))
                .toList();
        return new CpuRounds(clients, precision, timeBoundS, stopped, own, List.of(), List.of(), offeredRps, rateFrom,
                closed, far, stealLimit);
    }

    /** The rounds the figures count: all but those the JIT compiled through. */
    @JsonIgnore
    public int counted() {
        return (int) rounds.stream().filter(r -> !r.jitBusy()).count();
    }
}
