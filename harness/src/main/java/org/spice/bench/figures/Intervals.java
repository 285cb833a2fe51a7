package org.spice.bench.figures;

import java.util.Arrays;

import org.apache.commons.statistics.distribution.TDistribution;

/**
 * 95 % confidence intervals of SPICE's figures, as half-widths (the figure is mean ± half-width). A figure
 * measured over a window is the mean of its one-second slices, taken as batch means: half-width =
 * t(0.975, n − 1) × s / √n over the slices' values (Student's t, n slices), widened by the drift between windows
 * that slices cannot see ({@link #ofWindows}). Over three or more repeats the repeats are the batches. With fewer
 * than two values there is no interval: NaN, never a made-up one.
 */
public final class Intervals {

    /** The confidence level of every interval SPICE prints. */
    public static final double LEVEL = 0.95;

    private Intervals() {
    }

    /** Student's t quantile for a two-sided {@link #LEVEL} interval with {@code df} degrees of freedom. */
    public static double t(int df) {
        return TDistribution.of(df).inverseCumulativeProbability(1 - (1 - LEVEL) / 2);
    }

    /** The half-width of the interval of the mean of {@code values} (NaN ones left out); NaN under two values. */
    public static double halfWidth(double[] values) {
        long n = Arrays.stream(values).filter(Double::isFinite).count();
        return n < 2 ? Double.NaN : t((int) n - 1) * sd(values) / Math.sqrt(n);
    }

    /** The sample standard deviation of {@code values} (NaN and infinite ones left out); NaN under two values. */
    public static double sd(double[] values) {
        double[] x = Arrays.stream(values).filter(Double::isFinite).toArray();
        int n = x.length;
        if (n < 2) {
            return Double.NaN;
        }
        double mean = Arrays.stream(x).average().orElse(Double.NaN);
        double squares = 0;
        for (double v : x) {
            squares += (v - mean) * (v - mean);
        }
        return Math.sqrt(squares / (n - 1));
    }

    /**
     * How far one window's figure moves from one window to the next, relative, as the half-width of a
     * {@link #LEVEL} interval: the slices of a window see the noise inside it but not the drift between windows
     * (another process, the CPU's clock, the server's memory). Measured here on a shared 2-core machine: static
     * measured twice in one run, one window after the other, at 83 ± 7 and 97 ± 5 µs per request (17 % apart);
     * Jetty's three repeats drifting 10-30 % alike. Repeats taken as batches see that drift themselves.
     */
    public static final double BETWEEN_WINDOWS = 0.10;

    /**
     * The half-width of a figure measured in too few windows for them to be batches: the interval of its one-second
     * slices (batch means) and {@link #BETWEEN_WINDOWS} of the figure, added in quadrature. NaN under two slices.
     */
    public static double ofWindows(double[] slices) {
        double withinWindows = halfWidth(slices);
        if (Double.isNaN(withinWindows)) {
            return Double.NaN;
        }
        double mean = Arrays.stream(slices).filter(v -> !Double.isNaN(v) && !Double.isInfinite(v)).average().orElse(0);
        return Math.hypot(withinWindows, BETWEEN_WINDOWS * Math.abs(mean));
    }

    /**
     * The half-width of a ratio a / b from the half-widths of a and b, by first-order propagation of their
     * relative errors (independent measurements): (a / b) × √((Δa / a)² + (Δb / b)²).
     */
    public static double ratioHalfWidth(double a, double aHalfWidth, double b, double bHalfWidth) {
        if (!(a > 0) || !(b > 0)) {
            return Double.NaN;
        }
        double relative = Math.hypot(aHalfWidth / a, bHalfWidth / b);
        return a / b * relative;
    }

}
