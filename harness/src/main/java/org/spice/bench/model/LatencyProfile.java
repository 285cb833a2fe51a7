package org.spice.bench.model;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * The latency profile (results.json {@code latency_profile}; bench.run.LatencyRounds): every probe open loop at the
 * same offered rates, fractions of the slowest probe's peak, in paired rounds, so that a probe's latency at a rate
 * comes as a ratio to the static file's at that rate in the same round; then each probe along its own curve.
 *
 * @param peaks        each probe's peak rate in the ladder, closed loop: what its curve's fractions are of
 * @param slowest      the probe of the lowest peak, whose fractions the common rates are
 * @param fractions    the common rates as fractions of the slowest probe's peak
 * @param rates        the common rates, requests per second
 * @param sliceS       one probe at one rate in a round, seconds
 * @param maxInFlight  requests under way at most in a slice or a curve's point
 * @param rounds       rounds run
 * @param stoppedBy    why the rounds stopped (or "in progress")
 * @param common       per rate and probe, the figures of every round
 * @param slices       each slice's own figures, in the order they ran
 * @param curves       each probe along its own curve, its points in order of offered rate
 */
@JsonPropertyOrder({"peaks", "slowest", "fractions", "rates", "slice_s", "max_in_flight", "rounds", "stopped_by",
    "common", "curves", "slices"})
public record LatencyProfile(List<Peak> peaks, String slowest, List<Double> fractions, List<Double> rates, double sliceS,
        int maxInFlight, int rounds, String stoppedBy, List<AtRate> common, List<Slice> slices,
        List<OpenLoopRun> curves) {

    public LatencyProfile {
        peaks = peaks == null ? List.of() : List.copyOf(peaks);
        fractions = fractions == null ? List.of() : List.copyOf(fractions);
        rates = rates == null ? List.of() : List.copyOf(rates);
        common = common == null ? List.of() : List.copyOf(common);
        slices = slices == null ? List.of() : List.copyOf(slices);
        curves = curves == null ? List.of() : List.copyOf(curves);
    }

    /** A probe's peak in the ladder: its highest rate, at that many clients. */
    public record Peak(String probe, double peakRps, int clients) {
    }

    /**
     * One probe in one slice of a round, open loop at a common rate.
     *
     * @param failed   errors, timeouts and dropped requests
     */
    @JsonPropertyOrder({"round", "probe", "offered_rps", "achieved_rps", "p50_ms", "p99_ms", "server_cpu_us_per_req",
        "failed", "generator_lag_p999_ms", "generator_limited"})
    public record Slice(int round, String probe, double offeredRps, double achievedRps, double p50Ms, double p99Ms,
            double serverCpuUsPerReq, long failed, double generatorLagP999Ms, boolean generatorLimited) {

        /** The slice of round {@code round} that {@code run} measured. */
        public static Slice of(int round, OpenLoopRun run) {
            return new Slice(round, run.probe(), run.offeredRps(), run.achievedRps(), run.p50Ms(), run.p99Ms(),
                    run.serverCpuUsPerReq(), run.errors() + run.timeouts() + run.dropped(), run.generatorLagP999Ms(),
                    run.generatorLimited());
        }
    }

    /**
     * A probe at a common rate over every round: the percentiles of all its slices' requests together, and per
     * round the ratio of its p50, p99 and server CPU per request to the static file's in the same round (the
     * Hodges-Lehmann estimate and its 95 % interval's half-width, as the CPU rounds' ratios; NaN for the static file
     * itself and under six rounds).
     *
     * @param fraction               the rate as a fraction of the slowest probe's peak
     * @param achievedRps            successes per second, the slices' mean
     * @param failed                 errors, timeouts and drops in all its slices
     * @param generatorLimitedSlices slices the generator was late in (lag p99.9 above 1 ms) or dropped in
     * @param cpuUsPerReq            server CPU per request, the Hodges-Lehmann estimate over its slices
     * @param latencyHistogram       every slice's latencies together, HdrHistogram compressed, base64, nanoseconds
     */
    @JsonPropertyOrder({"probe", "offered_rps", "fraction", "slices", "achieved_rps", "p50_ms", "p90_ms", "p99_ms",
        "p999_ms", "max_ms", "failed", "generator_limited_slices", "p50_ratio", "p50_ratio_ci", "p99_ratio",
        "p99_ratio_ci", "cpu_us_per_req", "cpu_ratio", "cpu_ratio_ci", "latency_histogram"})
    public record AtRate(String probe, double offeredRps, double fraction, int slices, double achievedRps, double p50Ms,
            double p90Ms, double p99Ms, double p999Ms, double maxMs, long failed, int generatorLimitedSlices,
            double p50Ratio, double p50RatioCi, double p99Ratio, double p99RatioCi, double cpuUsPerReq, double cpuRatio,
            double cpuRatioCi, @JsonInclude(JsonInclude.Include.NON_NULL) String latencyHistogram) {
    }
}
