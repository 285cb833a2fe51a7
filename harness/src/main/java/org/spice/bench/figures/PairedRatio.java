package org.spice.bench.figures;

import java.util.Arrays;

/**
 * A probe's CPU per request against the static file's, taken in pairs: in each round both ran one after the other at
 * the same load, so what drifts from round to round hits both alike and cancels in their ratio. The figure is the
 * Hodges-Lehmann estimate of the rounds' log-ratios (the median of their pairwise means), and its 95 % interval is
 * the distribution-free one that goes with it, from Wilcoxon's signed-rank statistic, exact for the number of rounds.
 * Why not the mean with Student's t: on this machine a slice is now and then hit by something else on the machine
 * (one of 14 static slices at 88 µs among 58-68); that one slice widened the t interval of static's CPU from ±2.6 to
 * ±6.4 %, where the Hodges-Lehmann estimate moves by a fraction of a percent and, under normal noise, is as efficient
 * as the mean to within 5 %.
 *
 * @param ratio  the probe's CPU / the static file's, exp of the Hodges-Lehmann estimate of the log-ratios
 * @param low    its 95 % interval's lower end, in the ratio's unit (NaN under {@link #MIN_FOR_INTERVAL} rounds):
 *               not ratio − {@link #ratioCi()}, as the interval is taken on the log-ratios and so leans up (one slow
 *               round of six puts the upper end far off, not the lower)
 * @param high   its upper end
 * @param rounds the rounds where both were measured
 */
public record PairedRatio(double ratio, double low, double high, int rounds) {

    public static final PairedRatio NONE = new PairedRatio(Double.NaN, Double.NaN, Double.NaN, 0);

    /** Fewer values than this have no 95 % signed-rank interval: with 5, the most extreme outcome has p = 1/32 > 0.025. */
    public static final int MIN_FOR_INTERVAL = 6;

    /**
     * The paired figures of {@code probe} against {@code reference}, value i of both from round i; a round where
     * either was not measured (NaN, or not above 0) is left out.
     */
    public static PairedRatio of(double[] probe, double[] reference) {
        double[] logs = logRatios(probe, reference);
        if (logs.length == 0) {
            return NONE;
        }
        double[] estimate = hodgesLehmann(logs);
        return new PairedRatio(Math.exp(estimate[0]), Math.exp(estimate[1]), Math.exp(estimate[2]), logs.length);
    }

    /** The ratio and its interval's ends, as {@link Judge} reads them. */
    public Judge.Interval interval() {
        return new Judge.Interval(ratio, low, high);
    }

    /**
     * The interval's larger half, in the ratio's unit (NaN without one): the ± that is printed and judged, never one
     * that understates an interval that leans.
     */
    public double ratioCi() {
        return interval().largerHalf();
    }

    /** The reference against the probe: the reciprocal ratio, its interval's ends swapped, over the same rounds. */
    public PairedRatio inverse() {
        Judge.Interval inverse = interval().inverse();
        return new PairedRatio(inverse.estimate(), inverse.low(), inverse.high(), rounds);
    }

    /** The static file's CPU / the probe's (SPICE's CPU efficiency): 1 / ratio. */
    public double efficiency() {
        return 1 / ratio;
    }

    /** The larger half of its interval: the ratio's interval inverted. */
    public double efficiencyCi() {
        return interval().inverse().largerHalf();
    }

    /** log(probe_i / reference_i) for every round where both were measured (above 0), in round order. */
    public static double[] logRatios(double[] probe, double[] reference) {
        int n = Math.min(probe.length, reference.length);
        double[] logs = new double[n];
        int kept = 0;
        for (int i = 0; i < n; i++) {
            if (probe[i] > 0 && reference[i] > 0) {
                logs[kept++] = Math.log(probe[i] / reference[i]);
            }
        }
        return Arrays.copyOf(logs, kept);
    }

    /** The interval's larger half relative to the ratio (0.04 is ±4 %); NaN without one. */
    public double relativeCi() {
        return interval().relativeHalf();
    }

    /** Whether the interval holds 1 ({@link Judge}): the probe costs what the static file costs, as far as the rounds can tell. */
    public boolean holdsOne() {
        return Judge.holdsOne(interval());
    }

    /**
     * A figure measured once per round (values not above 0 left out): its Hodges-Lehmann estimate and its interval's
     * larger half relative to it; NaN where there is no value, or too few for an interval.
     */
    public static double[] estimateAndRelativeCi(double[] values) {
        double[] x = Arrays.stream(values).filter(v -> v > 0).toArray();
        if (x.length == 0) {
            return new double[] {Double.NaN, Double.NaN};
        }
        double[] estimate = hodgesLehmann(x);
        return new double[] {estimate[0], new Judge.Interval(estimate[0], estimate[1], estimate[2]).relativeHalf()};
    }

    /**
     * The Hodges-Lehmann estimate of {@code x}'s location (the median of the n(n+1)/2 Walsh averages (x_i + x_j) / 2,
     * i ≤ j) and its 95 % interval [W_(k+1), W_(M−k)] among the sorted averages, k the largest count with
     * P(T ≤ k) ≤ 0.025 for Wilcoxon's signed-rank statistic T on n values (exact). NaN bounds under
     * {@link #MIN_FOR_INTERVAL} values.
     */
    static double[] hodgesLehmann(double[] x) {
        int n = x.length;
        double[] walsh = new double[n * (n + 1) / 2];
        int m = 0;
        for (int i = 0; i < n; i++) {
            for (int j = i; j < n; j++) {
                walsh[m++] = (x[i] + x[j]) / 2;
            }
        }
        Arrays.sort(walsh);
        double median = m % 2 == 1 ? walsh[m / 2] : (walsh[m / 2 - 1] + walsh[m / 2]) / 2;
        int k = signedRankCritical(n, (1 - Intervals.LEVEL) / 2);
        if (k < 0) {
            return new double[] {median, Double.NaN, Double.NaN};
        }
        return new double[] {median, walsh[k], walsh[m - 1 - k]};
    }

    /** The largest k with P(T ≤ k) ≤ {@code tail} for the signed-rank statistic of n values; −1 if there is none. */
    static int signedRankCritical(int n, double tail) {
        int most = n * (n + 1) / 2;
        double[] p = new double[most + 1];
        p[0] = 1;
        for (int rank = 1; rank <= n; rank++) {
            for (int t = most; t >= 0; t--) {
                p[t] = (p[t] + (t >= rank ? p[t - rank] : 0)) / 2;
            }
        }
        double cumulative = 0;
        int k = -1;
        for (int t = 0; t <= most; t++) {
            cumulative += p[t];
            if (cumulative > tail + 1e-12) {
                break;
            }
            k = t;
        }
        return k;
    }
}
