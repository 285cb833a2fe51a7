package org.spice.bench.model;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.spice.bench.figures.PairedRatio;
import org.spice.bench.figures.SpiceFigures;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * The CPU rounds as measured (results.json {@code cpu_rounds}): after the warm-up, round after round, every workload
 * ran one slice at the same client count (the static file, which every probe is paired with, √k of them beside k
 * probes), in an order shuffled per round. Only counts are kept; every figure is computed from them
 * ({@link #figures}).
 *
 * @param clients   the one load of every slice
 * @param precision the interval the rounds aimed at, relative (0.05: ±5 %), twice that for a probe that costs more
 *                  than twice the static file
 * @param timeBoundS the most the rounds could last
 * @param stopped   why they stopped: the precision reached, the time bound, or the run cut short
 * @param rounds    each round's slices, in the order they ran
 */
@JsonPropertyOrder({"clients", "precision", "time_bound_s", "stopped", "rounds"})
public record CpuRounds(int clients, double precision, double timeBoundS, String stopped, List<Round> rounds) {

    /** A probe far from the static file's cost is known well enough at this many times the precision. */
    public static final double FAR_FACTOR = 2;
    /** Fewer rounds than this give no 95 % interval (see {@link PairedRatio#MIN_FOR_INTERVAL}). */
    public static final int MIN_ROUNDS = PairedRatio.MIN_FOR_INTERVAL;

    public CpuRounds {
        rounds = List.copyOf(rounds);
    }

    /** One round: each workload's slices, in the round's order. */
    public record Round(int round, List<Taken> slices) {
        public Round {
            slices = List.copyOf(slices);
        }

        /**
         * The probe's CPU per request in this round from {@code source}, µs: over all its slices (the static file runs
         * more than one beside three probes or more); NaN where it did not run, a request failed or nothing was measured.
         */
        double cpuUsPerReq(String probe, SpiceFigures.CpuSource source) {
            double cpu = 0;
            long requests = 0;
            for (Taken taken : slices) {
                if (taken.probe().equals(probe)) {
                    if (Double.isNaN(taken.cpuUsPerReq(source))) {
                        return Double.NaN;
                    }
                    cpu += taken.cpuS(source);
                    requests += taken.requests();
                }
            }
            return requests > 0 ? cpu * 1e6 / requests : Double.NaN;
        }

        /**
         * Whether the server's JIT compiled through this round ({@link SteadyState#JIT_QUIET}): its slices then carry
         * a one-off compilation and code not in its final tier, and the figures leave the round out.
         */
        @JsonIgnore
        public boolean jitBusy() {
            double jit = 0;
            double server = 0;
            for (Taken taken : slices) {
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
     * One workload's slice in a round: its counts and the CPU read at its edges (seconds), with what the server's JIT
     * compiler threads took of it (NaN where none was read: no JVM, or results from before it was).
     */
    @JsonPropertyOrder({"probe", "requests", "errors", "duration_s", "server_cpu_s", "machine_cpu_s", "client_cpu_s",
        "jit_cpu_s"})
    public record Taken(String probe, long requests, long errors, double durationS, double serverCpuS, double machineCpuS,
            double clientCpuS, double jitCpuS) {

        /** CPU per request from {@code source}, µs; NaN where a request failed or nothing was measured. */
        double cpuUsPerReq(SpiceFigures.CpuSource source) {
            return requests > 0 && errors == 0 ? cpuS(source) * 1e6 / requests : Double.NaN;
        }

        /** The slice's CPU seconds from {@code source}: the machine's, or the server's. */
        double cpuS(SpiceFigures.CpuSource source) {
            return source == SpiceFigures.CpuSource.MACHINE ? machineCpuS : serverCpuS;
        }
    }

    /**
     * A probe's figures from the rounds.
     *
     * @param cpuUsPerReq    its CPU per request, µs: the static file's over every counted round (their Hodges-Lehmann
     *                       estimate), and a probe's that times its paired ratio, so that one figure divided by the
     *                       other is the ratio printed beside them (a probe leaves the rounds once its ratio is known,
     *                       and its own rounds' mean would be taken over fewer rounds than the static file's); without
     *                       the static file, the probe's own estimate
     * @param cpuUsPerReqCi  half its 95 % interval's width, µs: Wilcoxon's signed-rank interval, for a probe combined
     *                       with its ratio's (their relative half-widths in quadrature)
     * @param paired         its ratio to the static file, paired by round (static's own: 1 with no interval)
     * @param aim            the relative half-width it had to reach
     * @param precise        whether it reached it
     */
    public record Figures(String probe, double cpuUsPerReq, double cpuUsPerReqCi, PairedRatio paired, double aim,
            boolean precise) {
    }

    /**
     * The relative half-width a figure whose ratio to the static file is {@code ratio} must reach: the precision asked,
     * {@link #FAR_FACTOR} times that for a probe that costs more than {@link #FAR_FACTOR} times the static file or less
     * than its 1 / {@link #FAR_FACTOR} (NaN, as for the static file itself: the precision).
     */
    public double aim(double ratio) {
        return ratio > FAR_FACTOR || ratio < 1 / FAR_FACTOR ? FAR_FACTOR * precision : precision;
    }

    /** The rounds with one more. */
    public CpuRounds with(Round round, String why) {
        List<Round> all = new ArrayList<>(rounds);
        all.add(round);
        return new CpuRounds(clients, precision, timeBoundS, why, all);
    }

    /** These rounds, stopped for {@code why}. */
    public CpuRounds stopped(String why) {
        return new CpuRounds(clients, precision, timeBoundS, why, rounds);
    }

    /** Per probe (in the order they first ran), its figures, each CPU read from the source {@code sourceOf} names. */
    public Map<String, Figures> figures(Function<String, SpiceFigures.CpuSource> sourceOf) {
        Map<String, double[]> cpu = new LinkedHashMap<>();
        for (int r = 0; r < rounds.size(); r++) {
            for (Taken taken : rounds.get(r).slices()) {
                cpu.computeIfAbsent(taken.probe(), k -> series(k, sourceOf.apply(k)));
            }
        }
        double[] reference = cpu.get(Summaries.STATIC);
        double[] base = reference == null ? null : PairedRatio.estimateAndRelativeCi(reference);
        Map<String, Figures> figures = new LinkedHashMap<>();
        cpu.forEach((probe, series) -> {
            double[] mean = PairedRatio.estimateAndRelativeCi(series);
            PairedRatio paired = reference == null ? PairedRatio.NONE : PairedRatio.of(series, reference);
            double aim = aim(paired.ratio());
            // The static file is known by its own interval, every other probe by its ratio's: the ratio is the figure.
            boolean precise = probe.equals(Summaries.STATIC) ? mean[1] <= aim : paired.relativeCi() <= aim;
            if (base != null && !probe.equals(Summaries.STATIC) && paired.ratio() > 0) {
                mean = new double[] {base[0] * paired.ratio(), Math.hypot(base[1], paired.relativeCi())};
            }
            figures.put(probe, new Figures(probe, mean[0], mean[0] * mean[1], paired, aim, precise));
        });
        return figures;
    }

    /**
     * A probe's CPU per request in each round (NaN where it did not run or failed), from {@code source}; from the
     * machine's figure where the server's was never read (no processes given), as the ladder's summary does.
     */
    private double[] series(String probe, SpiceFigures.CpuSource source) {
        double[] series = new double[rounds.size()];
        for (SpiceFigures.CpuSource each : source == SpiceFigures.CpuSource.MACHINE ? List.of(source)
                : List.of(source, SpiceFigures.CpuSource.MACHINE)) {
            boolean any = false;
            for (int r = 0; r < rounds.size(); r++) {
                series[r] = Double.NaN;
                if (rounds.get(r).jitBusy()) {
                    continue;
                }
                series[r] = rounds.get(r).cpuUsPerReq(probe, each);
                any |= !Double.isNaN(series[r]);
            }
            if (any) {
                break;
            }
        }
        return series;
    }

    /** Whether every probe's figures reached their aim, from {@link #MIN_ROUNDS} counted rounds on. */
    @JsonIgnore
    public boolean preciseEnough(Function<String, SpiceFigures.CpuSource> sourceOf) {
        return counted() >= MIN_ROUNDS && figures(sourceOf).values().stream().allMatch(Figures::precise);
    }

    /** The rounds the figures count: all but those the JIT compiled through. */
    @JsonIgnore
    public int counted() {
        return (int) rounds.stream().filter(r -> !r.jitBusy()).count();
    }
}
