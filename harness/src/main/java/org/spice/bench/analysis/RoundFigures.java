package org.spice.bench.analysis;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.spice.bench.figures.ArmRatio;
import org.spice.bench.figures.PairedRatio;
import org.spice.bench.figures.SpiceFigures;
import org.spice.bench.model.CpuRounds;
import org.spice.bench.model.CpuSlice;
import org.spice.bench.model.Reference;

/**
 * The figures of the CPU rounds, from their counts: each probe's ratio to the static file paired by round (the
 * Hodges-Lehmann estimate with Wilcoxon's interval), its CPU per request, the aim it had to reach and whether it did.
 */
public final class RoundFigures {

    /** A probe far from the static file's cost is known well enough at this many times the precision. */
    public static final double FAR_FACTOR = 2;
    /** Fewer rounds than this give no 95 % interval (see {@link PairedRatio#MIN_FOR_INTERVAL}). */
    public static final int MIN_ROUNDS = PairedRatio.MIN_FOR_INTERVAL;

    private RoundFigures() {
    }

    /**
     * A probe's figures from the rounds.
     *
     * @param cpuUsPerReq    its CPU per request, µs: the static file's over every counted round (their Hodges-Lehmann
     *                       estimate), and a probe's that times its paired ratio, so that one figure divided by the
     *                       other is the ratio printed beside them (a probe offered a rate of its own: the static file's
     *                       at that rate, times the ratio) (a probe leaves the rounds once its ratio is known,
     *                       and its own rounds' mean would be taken over fewer rounds than the static file's); without
     *                       the static file, the probe's own estimate
     * @param cpuUsPerReqCi  half its 95 % interval's width, µs: Wilcoxon's signed-rank interval, for a probe combined
     *                       with its ratio's (their relative half-widths in quadrature)
     * @param paired         its ratio to the static file, paired by round (static's own: 1 with no interval)
     * @param aim            the relative half-width it had to reach; NaN for the static file where probes are paired
     *                       with it: the reference has none (see {@link #of})
     * @param precise        whether it reached it (true where it had none)
     * @param staticUsPerReq the static file's CPU per request at the probe's rate, µs, which the ratio multiplies into
     *                       the probe's; NaN without the static file
     */
    public record Figures(String probe, double cpuUsPerReq, double cpuUsPerReqCi, PairedRatio paired, double aim,
            boolean precise, double staticUsPerReq) {

        /** Whether the figure had an aim to reach. */
        public boolean hasAim() {
            return !Double.isNaN(aim);
        }
    }

    /**
     * The relative half-width a probe's ratio to the static file must reach: {@code precision}, {@link #FAR_FACTOR}
     * times that for a probe that costs more than {@link #FAR_FACTOR} times the static file or less than its
     * 1 / {@link #FAR_FACTOR} (NaN: the precision).
     */
    public static double aim(double precision, double ratio) {
        return ratio > FAR_FACTOR || ratio < 1 / FAR_FACTOR ? FAR_FACTOR * precision : precision;
    }

    /**
     * Per probe (in the order they first ran), its figures, each CPU read from the source {@code sourceOf} names. A
     * probe's aim is on its ratio. The static file, where probes are paired with it, has no aim of its own: its CPU
     * per request moves with the machine from minute to minute (77 to 170 µs over one default bench's 33 rounds here,
     * its interval ±7.3 % after them), which each round's ratio cancels; waiting for it would measure the machine's
     * drift, not an interface. Alone, or a probe without it, aims at its own CPU per request.
     */
    public static Map<String, Figures> of(CpuRounds rounds, Function<String, SpiceFigures.CpuSource> sourceOf) {
        Map<String, double[]> cpu = new LinkedHashMap<>();
        for (CpuRounds.Round round : rounds.rounds()) {
            for (CpuSlice taken : round.slices()) {
                cpu.computeIfAbsent(taken.arm(), k -> series(rounds, k, sourceOf.apply(k)));
            }
        }
        boolean hasReference = cpu.containsKey(Reference.STATIC);
        boolean pairedWithIt = hasReference && cpu.size() > 1;
        Map<String, Figures> figures = new LinkedHashMap<>();
        cpu.forEach((probe, series) -> {
            boolean isReference = probe.equals(Reference.STATIC);
            double[] mean = PairedRatio.estimateAndRelativeCi(series);
            // the static file at the probe's own rate: at the rounds' one rate for most, at its own for a far probe
            double[] reference = hasReference ? referenceSeries(rounds, probe, sourceOf.apply(Reference.STATIC)) : null;
            double[] base = hasReference ? PairedRatio.estimateAndRelativeCi(reference) : null;
            PairedRatio paired = !hasReference ? PairedRatio.NONE : PairedRatio.of(series, reference);
            double aim;
            boolean precise;
            if (isReference && pairedWithIt) {
                aim = Double.NaN;
                precise = true;
            } else if (!hasReference || isReference) {
                aim = rounds.precision();
                precise = mean[1] <= aim;
            } else {
                aim = aim(rounds.precision(), paired.ratio());
                precise = paired.relativeCi() <= aim;
            }
            if (base != null && !isReference && paired.ratio() > 0) {
                mean = new double[] {base[0] * paired.ratio(), Math.hypot(base[1], paired.relativeCi())};
            }
            figures.put(probe, new Figures(probe, mean[0], mean[0] * mean[1], paired, aim, precise,
                    base == null ? Double.NaN : base[0]));
        });
        return figures;
    }

    /**
     * Every other pair of the rounds' probes, paired by round: each probe against each one that first ran after it, the
     * static file left out (each probe's ratio to it is its own figure), each arm's slices at its own rate; but at one
     * load where the faster one also ran slices at the slower one's rate (--pairs), both from their slices there.
     */
    public static List<ArmRatio> pairs(CpuRounds rounds, Function<String, SpiceFigures.CpuSource> sourceOf) {
        List<String> arms = new ArrayList<>();
        for (CpuRounds.Round round : rounds.rounds()) {
            for (CpuSlice taken : round.slices()) {
                if (!taken.arm().equals(CpuRounds.referenceOf(taken.arm())) && !arms.contains(taken.arm())) {
                    arms.add(taken.arm());
                }
            }
        }
        List<ArmRatio> pairs = new ArrayList<>();
        for (int i = 0; i < arms.size(); i++) {
            String a = arms.get(i);
            for (int j = i + 1; j < arms.size(); j++) {
                String b = arms.get(j);
                Double at = oneLoad(rounds, a, b, sourceOf);
                pairs.add(ArmRatio.of(a, b, PairedRatio.of(series(rounds, a, at != null ? at : rounds.offeredRpsOf(a),
                        sourceOf.apply(a)), series(rounds, b, at != null ? at : rounds.offeredRpsOf(b),
                        sourceOf.apply(b))), at));
            }
        }
        return pairs;
    }

    /**
     * The one rate {@code a} and {@code b} were both offered where their own differ: the slower one's, if the faster
     * one ran slices at it too; else null (the same rate, closed loop, or never at one).
     */
    static Double oneLoad(CpuRounds rounds, String a, String b, Function<String, SpiceFigures.CpuSource> sourceOf) {
        Double atA = rounds.offeredRpsOf(a);
        Double atB = rounds.offeredRpsOf(b);
        if (atA == null || atB == null || atA.equals(atB)) {
            return null;
        }
        double slower = Math.min(atA, atB);
        String faster = atA < atB ? b : a;
        return Arrays.stream(series(rounds, faster, slower, sourceOf.apply(faster))).anyMatch(v -> !Double.isNaN(v))
                ? slower : null;
    }

    /** Whether every probe's figures reached their aim, from {@link #MIN_ROUNDS} counted rounds on. */
    public static boolean preciseEnough(CpuRounds rounds, Function<String, SpiceFigures.CpuSource> sourceOf) {
        return rounds.counted() >= MIN_ROUNDS && of(rounds, sourceOf).values().stream().allMatch(Figures::precise);
    }

    /**
     * A probe's CPU per request in each round (NaN where it did not run or failed, or the JIT compiled through the
     * round), from {@code source}; from the machine's figure where the server's was never read (no processes given),
     * as the ladder's summary does.
     */
    public static double[] series(CpuRounds rounds, String probe, SpiceFigures.CpuSource source) {
        return series(rounds, probe, rounds.offeredRpsOf(probe), source);
    }

    /**
     * The series {@code arm}'s ratio is paired with: its server's static file ({@link CpuRounds#referenceOf}) in the
     * slices offered {@code arm}'s rate, from {@code source}. A probe too slow for the rounds' rate ran at one of its
     * own, and the static file ran slices at that rate beside it, so that both arms of its ratio are at one load.
     */
    public static double[] referenceSeries(CpuRounds rounds, String arm, SpiceFigures.CpuSource source) {
        return series(rounds, CpuRounds.referenceOf(arm), rounds.offeredRpsOf(arm), source);
    }

    /** {@code probe}'s series over its slices offered {@code atRps} (null: any), as {@link #series(CpuRounds, String, SpiceFigures.CpuSource)}. */
    static double[] series(CpuRounds rounds, String probe, Double atRps, SpiceFigures.CpuSource source) {
        List<CpuRounds.Round> all = rounds.rounds();
        double[] series = new double[all.size()];
        for (SpiceFigures.CpuSource each : source == SpiceFigures.CpuSource.MACHINE ? List.of(source)
                : List.of(source, SpiceFigures.CpuSource.MACHINE)) {
            boolean any = false;
            for (int r = 0; r < all.size(); r++) {
                series[r] = Double.NaN;
                if (all.get(r).jitBusy()) {
                    continue;
                }
                series[r] = all.get(r).cpuUsPerReq(probe, each, atRps, rounds.stealLimit());
                any |= !Double.isNaN(series[r]);
            }
            if (any) {
                break;
            }
        }
        return series;
    }
}
