package org.spice.bench.figures;

import java.util.Arrays;

/**
 * An ordinary least-squares line y = intercept + slope × x, with r² and the {@link Intervals#LEVEL} intervals of
 * both coefficients (Student's t with n − 2 degrees of freedom on the residuals). With two points the line passes
 * through both and nothing is left to estimate the scatter from: the intervals and r² are NaN, never made up.
 */
public record LinearFit(int n, double intercept, double interceptCi, double slope, double slopeCi, double rSquared) {

    /** The fit of {@code y} against {@code x} (same length, at least two distinct x); NaN points are left out. */
    public static LinearFit of(double[] x, double[] y) {
        if (x.length != y.length) {
            throw new IllegalArgumentException("x and y differ in length: " + x.length + " and " + y.length);
        }
        int[] kept = java.util.stream.IntStream.range(0, x.length)
                .filter(i -> Double.isFinite(x[i]) && Double.isFinite(y[i])).toArray();
        int n = kept.length;
        double meanX = Arrays.stream(kept).mapToDouble(i -> x[i]).average().orElse(Double.NaN);
        double meanY = Arrays.stream(kept).mapToDouble(i -> y[i]).average().orElse(Double.NaN);
        double sxx = 0;
        double sxy = 0;
        double syy = 0;
        for (int i : kept) {
            sxx += (x[i] - meanX) * (x[i] - meanX);
            sxy += (x[i] - meanX) * (y[i] - meanY);
            syy += (y[i] - meanY) * (y[i] - meanY);
        }
        if (n < 2 || sxx == 0) {
            return new LinearFit(n, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
        }
        double slope = sxy / sxx;
        double intercept = meanY - slope * meanX;
        if (n == 2) {
            return new LinearFit(n, intercept, Double.NaN, slope, Double.NaN, Double.NaN);
        }
        double residuals = 0;
        for (int i : kept) {
            double r = y[i] - (intercept + slope * x[i]);
            residuals += r * r;
        }
        double s2 = residuals / (n - 2);
        double t = Intervals.t(n - 2);
        double sumX2 = Arrays.stream(kept).mapToDouble(i -> x[i] * x[i]).sum();
        double slopeCi = t * Math.sqrt(s2 / sxx);
        double interceptCi = t * Math.sqrt(s2 * sumX2 / (n * sxx));
        double rSquared = syy == 0 ? 1 : 1 - residuals / syy;
        return new LinearFit(n, intercept, interceptCi, slope, slopeCi, rSquared);
    }

    /** The line's value at {@code x}. */
    public double at(double x) {
        return intercept + slope * x;
    }
}
