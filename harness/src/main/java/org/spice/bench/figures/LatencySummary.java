package org.spice.bench.figures;

import java.util.ArrayList;
import java.util.List;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * Latency of one mix in milliseconds. The mean is exact (sum of nanoseconds / count); the percentiles
 * come from the merged HdrHistogram (3 significant digits); the maximum is exact.
 *
 * @param distribution the percentile distribution, HdrHistogram's: points from 0 to 100 %, denser towards
 *                     the tail (empty when the run did not keep one); in JSON each is [percentile, ms]
 */
public record LatencySummary(@JsonProperty("mean") double meanMs, @JsonProperty("p50") double p50Ms,
        @JsonProperty("p90") double p90Ms, @JsonProperty("p99") double p99Ms, @JsonProperty("p999") double p999Ms,
        @JsonProperty("max") double maxMs, @JsonProperty("distribution") List<Percentile> distribution) {

    /** One point of the distribution: this percentile of the requests took at most {@code ms}. */
    @JsonFormat(shape = JsonFormat.Shape.ARRAY)
    @JsonPropertyOrder({"percentile", "ms"})
    public record Percentile(double percentile, double ms) {
    }

    public static final LatencySummary NONE = new LatencySummary(Double.NaN, Double.NaN, Double.NaN, Double.NaN,
            Double.NaN, Double.NaN);

    /** Points per halving of the distance to 100 %, as HdrHistogram's own percentile output prints (5). */
    private static final int TICKS_PER_HALF = 5;

    public LatencySummary {
        distribution = distribution == null ? List.of() : distribution;
    }

    /** A summary without a distribution (imported figures, old results). */
    public LatencySummary(double meanMs, double p50Ms, double p90Ms, double p99Ms, double p999Ms, double maxMs) {
        this(meanMs, p50Ms, p90Ms, p99Ms, p999Ms, maxMs, List.of());
    }

    /**
     * A summary from a tool's own percentiles (no per-request log): {@code points} as {percentile, ms} pairs,
     * the tool's mean and maximum; p50/p90/p99/p99.9 where the tool gives them, NaN where not.
     */
    public static LatencySummary ofPercentiles(List<Percentile> points, double meanMs, double maxMs) {
        java.util.Map<Double, Double> at = new java.util.HashMap<>();
        points.forEach(p -> at.put(p.percentile(), p.ms()));
        List<Percentile> curve = new java.util.ArrayList<>(points);
        curve.add(new Percentile(100, maxMs));
        return new LatencySummary(meanMs, at.getOrDefault(50.0, Double.NaN), at.getOrDefault(90.0, Double.NaN),
                at.getOrDefault(99.0, Double.NaN), at.getOrDefault(99.9, Double.NaN), maxMs, curve);
    }

    /** The summary of {@code merged}, with the exact sum of latencies in nanoseconds for the mean. */
    public static LatencySummary of(Histogram merged, long sumNanos) {
        long count = merged.getTotalCount();
        if (count == 0) {
            return NONE;
        }
        return new LatencySummary(sumNanos / (double) count / 1e6, ms(merged.getValueAtPercentile(50)),
                ms(merged.getValueAtPercentile(90)), ms(merged.getValueAtPercentile(99)),
                ms(merged.getValueAtPercentile(99.9)), ms(merged.getMaxValue()), distribution(merged));
    }

    /** HdrHistogram's percentile distribution of {@code histogram} (nanoseconds) as {percentile, ms} pairs. */
    public static List<Percentile> distribution(Histogram histogram) {
        List<Percentile> points = new ArrayList<>();
        for (HistogramIterationValue v : histogram.percentiles(TICKS_PER_HALF)) {
            points.add(new Percentile(v.getPercentileLevelIteratedTo(), ms(histogram.highestEquivalentValue(v.getValueIteratedTo()))));
        }
        return points;
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }
}
