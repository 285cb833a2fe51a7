package org.spice.bench.stats;

import java.util.List;

import org.HdrHistogram.Histogram;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Latency of one mix in milliseconds. The mean is exact (sum of nanoseconds / count); the percentiles
 * come from the merged HdrHistogram (3 significant digits); the maximum is exact.
 */
public record LatencySummary(@JsonProperty("mean") double meanMs, @JsonProperty("p50") double p50Ms,
        @JsonProperty("p90") double p90Ms, @JsonProperty("p99") double p99Ms, @JsonProperty("p999") double p999Ms,
        @JsonProperty("max") double maxMs) {

    public static final LatencySummary NONE = new LatencySummary(Double.NaN, Double.NaN, Double.NaN, Double.NaN,
            Double.NaN, Double.NaN);

    /** Merges the clients' histograms into one: percentiles of a mix are over all its requests, not averaged per client. */
    public static Histogram merge(List<Histogram> histograms) {
        Histogram merged = new Histogram(3);
        merged.setAutoResize(true);
        for (Histogram histogram : histograms) {
            merged.add(histogram);
        }
        return merged;
    }

    /** The summary of {@code merged}, with the exact sum of latencies in nanoseconds for the mean. */
    public static LatencySummary of(Histogram merged, long sumNanos) {
        long count = merged.getTotalCount();
        if (count == 0) {
            return NONE;
        }
        return new LatencySummary(sumNanos / (double) count / 1e6, ms(merged.getValueAtPercentile(50)),
                ms(merged.getValueAtPercentile(90)), ms(merged.getValueAtPercentile(99)),
                ms(merged.getValueAtPercentile(99.9)), ms(merged.getMaxValue()));
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }
}
