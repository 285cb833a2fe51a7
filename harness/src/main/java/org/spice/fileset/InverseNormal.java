package org.spice.fileset;

/**
 * The inverse of the standard normal CDF, Φ⁻¹(p), by Peter Acklam's rational approximation (relative error
 * below 1.2e-9 over (0, 1), ample for choosing file sizes). The WebBench generator needs it to place 6,000
 * files at the quantiles of a log-normal size distribution.
 *
 * <p>Only arithmetic and {@link StrictMath}: the results, and therefore the fileset, are the same bits on
 * every JVM and CPU ({@link Math}'s intrinsics may differ in the last place, which could move a rounding).
 */
final class InverseNormal {

    // Acklam's published coefficients: central region numerator (A) and denominator (B), tails (C, D).
    private static final double[] A = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
            1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00};
    private static final double[] B = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
            6.680131188771972e+01, -1.328068155288572e+01};
    private static final double[] C = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
            -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00};
    private static final double[] D = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
            3.754408661907416e+00};
    private static final double LOW = 0.02425;

    private InverseNormal() {
    }

    /** Φ⁻¹(p) for 0 &lt; p &lt; 1. */
    static double of(double p) {
        if (!(p > 0 && p < 1)) {
            throw new IllegalArgumentException("p must be strictly between 0 and 1, not " + p);
        }
        if (p < LOW) {
            return tail(p);
        }
        if (p > 1 - LOW) {
            return -tail(1 - p);   // the upper tail mirrors the lower one
        }
        double q = p - 0.5;
        double r = q * q;
        double num = (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q;
        double den = ((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1;
        return num / den;
    }

    /** The lower tail, p &lt; LOW: a rational function of sqrt(-2 ln p). */
    private static double tail(double p) {
        double q = StrictMath.sqrt(-2 * StrictMath.log(p));
        double num = ((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5];
        double den = (((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1;
        return num / den;
    }
}
