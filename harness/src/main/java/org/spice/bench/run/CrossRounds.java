package org.spice.bench.run;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

import org.spice.bench.analysis.CrossFigures;
import org.spice.bench.analysis.RoundFigures;
import org.spice.bench.figures.CpuSources;
import org.spice.bench.mix.Mix;
import org.spice.bench.model.Across;
import org.spice.bench.model.CpuRounds;
import org.spice.bench.model.Failure;
import org.spice.bench.model.LoadEngine;
import org.spice.bench.model.Reference;
import org.spice.bench.model.StealLimit;
import org.spice.bench.model.Stop;

/**
 * The CPU rounds, of one server's probes or of servers side by side (one server is the case of one arm, its slices
 * naming no server): every round runs each server's workloads a one-second slice each (each server's static file √k
 * times beside its k probes), all servers' slices shuffled together, under one load that goes from slice to slice, and
 * so from server to server, without stopping; a probe far slower than the static file, CGI, is offered a rate of its
 * own in a part of the round apart, its server's static file beside it at that rate ({@link RateParts}). A slice's CPU
 * is its own server's, from its own cgroup. What drifts over the run (the machine above all) hits every probe and
 * server alike within a round and cancels in each ratio, taken per round. Rounds go on until every cross ratio and
 * every server's own ratios are within their aims, or the time bound; after the first {@link RoundFigures#MIN_ROUNDS}
 * a probe whose figures have reached their aim leaves the rounds, so that their time goes where the noise is.
 */
final class CrossRounds {

    /** What the rounds so far go to: each server's results and the side-by-side results. */
    interface Sink {
        void rounds(CpuRounds soFar) throws IOException;
    }

    private final List<Mix> arms;
    private final List<String> pairs;
    private final long seed;
    private final int clients;
    private final double precision;
    private final double boundS;
    private final CpuSources sourceOf;
    private final LoadEngine.Windowed engine;
    private final RoundRate rate;
    private final StealLimit stealLimit;
    private final boolean readsJit;
    private final Stop stop;
    private final PrintStream err;
    /** The rounds so far, and the arms the next one runs. */
    private CpuRounds rounds;
    private List<Mix> running;

    /**
     * @param arms every server's workloads, each {@link Mix#on} its server
     * @param pairs the comparisons named (--pairs), the only ones the rounds wait for; empty: every pair of arms; one
     *              server's, two probes each to take at one load
     * @param sourceOf the CPU figure that stands for a probe's cost on a server
     * @param rate the one rate every slice is offered, open loop; null: {@code clients} clients, closed loop
     * @param stealLimit the steal past which a slice is left out of the figures (null: none left out)
     */
    CrossRounds(List<Mix> arms, List<String> pairs, long seed, int clients, double precision, double boundS,
            CpuSources sourceOf, LoadEngine.Windowed engine, RoundRate rate, StealLimit stealLimit,
            boolean readsJit, Stop stop, PrintStream err) {
        this.arms = List.copyOf(arms);
        this.pairs = List.copyOf(pairs);
        this.seed = seed;
        this.clients = clients;
        this.precision = precision;
        this.boundS = boundS;
        this.sourceOf = sourceOf;
        this.engine = engine;
        this.rate = rate;
        this.stealLimit = stealLimit;
        this.readsJit = readsJit;
        this.stop = stop;
        this.err = err;
    }

    /** Runs the rounds, each given to {@code sink}, after {@code announce} (their first line); null, or why the run must stop. */
    Failure run(Sink sink, String announce) throws InterruptedException, IOException {
        err.println(announce);
        CpuRounds start = new CpuRounds(clients, precision, boundS, RoundsLoop.IN_PROGRESS, List.of(), servers(arms),
                pairs);
        rounds = (rate == null ? start : start.offered(rate.rps(), rate.from(), rate.far())).leavingOut(stealLimit);
        running = arms;
        List<Mix> first = order(running, 1);
        double firstS = PairedRounds.LEAD_IN_S * RateParts.count(first, rate, together())
                + RateParts.slices(first, rate, together());
        return RoundsLoop.run(new Kind(sink), new RoundsLoop.Bound(boundS, firstS, oneServer() ? "every probe"
                : "every ratio", false), stop, err);
    }

    /** The rounds side by side as {@link RoundsLoop} runs them: each round's figures go to the sink. */
    private final class Kind implements RoundsLoop.Kind {
        private final Sink sink;

        Kind(Sink sink) {
            this.sink = sink;
        }

        @Override
        public Failure round(int r) throws InterruptedException, IOException {
            LoadEngine.Round round = rate == null
                    ? engine.round(order(running, r), clients, PairedRounds.LEAD_IN_S, readsJit)
                    : RateParts.run(engine, order(running, r), rate, together(), seed, r, readsJit, stop);
            if (round.ends() == null && !stop.requested()) {
                rounds = rounds.with(new CpuRounds.Round(r, round.slices(), round.note()), RoundsLoop.IN_PROGRESS);
            }
            return round.ends();
        }

        @Override
        public String progress() {
            return oneServer() ? OneServerLines.progress(rounds, running, sourceOf) : CrossRounds.this.progress(rounds);
        }

        @Override
        public boolean precise() {
            return oneServer() ? RoundFigures.preciseEnough(rounds, probe -> sourceOf.of(null, probe))
                    : CrossFigures.preciseEnough(rounds, sourceOf);
        }

        @Override
        public void record(String stoppedBy) throws IOException {
            sink.rounds(rounds.stopped(stoppedBy));
        }

        @Override
        public void narrow() {
            List<Mix> next = stillRunning(rounds);
            if (oneServer()) {
                running.stream().filter(m -> !next.contains(m)).forEach(m -> err.println(OneServerLines.done(rounds,
                        m.name(), sourceOf)));
            }
            running = next;
        }
    }

    /**
     * Round {@code round}'s slices: each server's workloads with its static file √k times, all shuffled together from
     * the seed (the even round the odd one reversed, as within a server).
     */
    List<Mix> order(List<Mix> running, int round) {
        return order(running, seed, round);
    }

    /** Round {@code round}'s slices of {@code running} for {@code seed} (see {@link #order(List, int)}). */
    static List<Mix> order(List<Mix> running, long seed, int round) {
        List<Mix> slices = new ArrayList<>();
        for (String server : running.stream().map(Mix::server).distinct().toList()) {
            slices.addAll(PairedRounds.withStaticSlices(running.stream().filter(m -> Objects.equals(server, m.server()))
                    .toList()));
        }
        return PairedRounds.arranged(slices, seed, round);
    }

    /**
     * The arms the next round runs: all of them for the first {@link RoundFigures#MIN_ROUNDS} counted rounds; then
     * every server's static file, and a probe's arms on every server while one of its ratios (across servers, or to a
     * server's static file) has not reached its aim.
     */
    private List<Mix> stillRunning(CpuRounds rounds) {
        if (rounds.counted() < RoundFigures.MIN_ROUNDS) {
            return arms;
        }
        List<String> open = new ArrayList<>();
        CrossFigures.of(rounds, sourceOf).stream().filter(c -> !c.precise()).forEach(c -> {
            open.add(c.probe());
            open.add(c.probeOfB());
        });
        for (String server : oneServer() ? java.util.Collections.<String>singletonList(null) : CrossFigures.servers(rounds)) {
            RoundFigures.of(server == null ? rounds : rounds.of(server), probe -> sourceOf.of(server, probe)).values()
                    .stream().filter(f -> !f.precise()).forEach(f -> open.add(f.probe()));
        }
        // a probe paired with one still running stays beside it: their ratio is taken in the slower one's part
        for (String pair : together()) {
            String[] ab = pair.split("/", 2);
            if (open.contains(ab[0]) || open.contains(ab[1])) {
                open.addAll(List.of(ab));
            }
        }
        return arms.stream().filter(m -> m.name().equals(Reference.STATIC) || open.contains(m.name())).toList();
    }

    /** One server's probes to be compared at one load (--pairs cgi/fastcgi); none side by side, whose pairs are arms'. */
    private List<String> together() {
        return oneServer() ? pairs : List.of();
    }

    /** One line per round: each cross ratio so far, with its interval once there are enough rounds. */
    private String progress(CpuRounds rounds) {
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "cpu round %d side by side",
                rounds.rounds().size()));
        String note = rounds.rounds().get(rounds.rounds().size() - 1).generatorNote();
        if (note != null) {
            line.append(" (").append(note).append(')');
        }
        if (rounds.rounds().get(rounds.rounds().size() - 1).jitBusy()) {
            return line.append(": left out, a server's JIT was compiling through it").toString();
        }
        line.append(String.format(Locale.ROOT, ", %d counted, so far:", rounds.counted()));
        for (Across.Cross c : CrossFigures.of(rounds, sourceOf)) {
            line.append(String.format(Locale.ROOT, " %s %s/%s %.3f", c.label(), c.a(), c.b(), c.ratio()));
            if (!Double.isNaN(c.relativeCiOfRatio())) {
                line.append(String.format(Locale.ROOT, " ± %.1f %%", 100 * c.relativeCiOfRatio()));
            }
            line.append(';');
        }
        return line.substring(0, line.length() - 1) + rounds.lastRoundSteal();
    }

    /** The servers (or server and protocol) the arms name, in order; none for one server's probes. */
    static List<String> servers(List<Mix> arms) {
        return arms.stream().map(Mix::server).filter(Objects::nonNull).distinct().toList();
    }

    /** Whether the arms are one server's probes (their slices name no server). */
    private boolean oneServer() {
        return servers(arms).isEmpty();
    }
}
