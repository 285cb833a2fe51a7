package org.spice.bench.figures;

import org.HdrHistogram.Histogram;

/**
 * The open loop's figures from its histograms (nanoseconds), one way for SPICE's own open loop and for every tool's
 * imported one: the percentiles in milliseconds, and the rule that says when a run's figures are the generator's.
 */
public final class OpenFigures {

    /**
     * A run whose generator came to its due requests later than this at the 99.9th percentile, milliseconds, measured
     * the generator, not the server.
     */
    public static final double LAG_LIMIT_MS = 1.0;

    private OpenFigures() {
    }

    /** An empty histogram of nanoseconds, three significant digits, that grows as it needs. */
    public static Histogram histogram() {
        Histogram h = new Histogram(3);
        h.setAutoResize(true);
        return h;
    }

    /** {@code h}'s {@code percentile}, milliseconds; NaN for an empty histogram. */
    public static double ms(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(percentile) / 1e6;
    }

    /** {@code h}'s largest value, milliseconds; NaN for an empty histogram. */
    public static double maxMs(Histogram h) {
        return h.getTotalCount() == 0 ? Double.NaN : h.getMaxValue() / 1e6;
    }

    /** A lag's {@code percentile}, milliseconds: 0 where no request was due. */
    public static double lagMs(Histogram lag, double percentile) {
        return lag.getTotalCount() == 0 ? 0 : lag.getValueAtPercentile(percentile) / 1e6;
    }

    /** A lag's largest value, milliseconds: 0 where no request was due. */
    public static double lagMaxMs(Histogram lag) {
        return lag.getTotalCount() == 0 ? 0 : lag.getMaxValue() / 1e6;
    }
}
