package org.spice.bench.model;

import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * The cost curve (results.json {@code cost_curve}; {@code --profile cost}, bench.run.CostRounds): each probe open loop
 * at fractions of its own peak, a slice per probe and rate in every round, the server's CPU read around each slice;
 * then per probe and rate the CPU per request with its interval over the rounds, and the marginal cost, the CPU of one
 * more request: the slope of the server's CPU seconds a second against the requests a second.
 *
 * @param fractions  the rates, as fractions of each probe's peak in the ladder
 * @param fitFrom    the marginal cost's line is fitted from this fraction up, over the rates held
 * @param sliceS     one probe at one rate in a round, seconds
 * @param rounds     rounds run
 * @param stoppedBy  why the rounds stopped
 * @param points     per probe and rate, the CPU per request over the rounds
 * @param marginals  per probe, the CPU of one more request
 * @param slices     every slice, in the order they ran
 */
@JsonPropertyOrder({"fractions", "fit_from", "slice_s", "rounds", "stopped_by", "marginals", "points", "slices"})
public record CostCurve(List<Double> fractions, double fitFrom, double sliceS, int rounds, String stoppedBy,
        List<Point> points, List<Marginal> marginals, List<Slice> slices) {

    public CostCurve {
        fractions = List.copyOf(fractions);
        points = points == null ? List.of() : List.copyOf(points);
        marginals = marginals == null ? List.of() : List.copyOf(marginals);
        slices = slices == null ? List.of() : List.copyOf(slices);
    }

    /**
     * One probe at one rate in one round.
     *
     * @param spanS       from the schedule's start to its last answer, seconds: what the rates and CPU are per
     * @param serverCpuS  the server's CPU over the slice, seconds
     * @param lagP99Ms    how late the open loop was at its 99th percentile
     */
    @JsonPropertyOrder({"round", "probe", "fraction", "offered_rps", "achieved_rps", "succeeded", "failed", "span_s",
        "server_cpu_s", "lag_p99_ms"})
    public record Slice(int round, String probe, double fraction, double offeredRps, double achievedRps, long succeeded,
            long failed, double spanS, double serverCpuS, double lagP99Ms) {

        /** The server's CPU per request, µs; NaN with nothing answered. */
        public double cpuUsPerReq() {
            return succeeded > 0 ? serverCpuS * 1e6 / succeeded : Double.NaN;
        }

        /** The server's CPU seconds a second. */
        public double cpuLoad() {
            return spanS > 0 ? serverCpuS / spanS : Double.NaN;
        }
    }

    /**
     * A probe at one rate over every round.
     *
     * @param rounds         the slices that count (few failures, the generator on time: {@code CostFigures.counts})
     * @param held           at least half of them achieved {@code CostFigures.HELD} of the offered rate: else the
     *                       server or the machine is saturated and the point is left out of the line
     * @param cpuUsPerReq    server CPU per request, the rounds' mean, µs
     * @param cpuUsPerReqCi  its 95 % interval's half-width (Student's t over the rounds)
     */
    @JsonPropertyOrder({"probe", "fraction", "offered_rps", "achieved_rps", "rounds", "held", "cpu_us_per_req",
        "cpu_us_per_req_ci"})
    public record Point(String probe, double fraction, double offeredRps, double achievedRps, int rounds, boolean held,
            double cpuUsPerReq, double cpuUsPerReqCi) {
    }

    /**
     * A probe's marginal cost: in each round, the least-squares slope of its CPU seconds a second against its achieved
     * requests a second over the held rates from {@code fitFrom} up; the mean over rounds with its interval.
     *
     * @param fromRps        the lowest rate of the line
     * @param toRps          the highest rate of the line
     * @param marginalUs     the CPU of one more request, µs
     * @param marginalUsCi   its 95 % interval's half-width
     * @param atZeroMsPerS   the line's CPU at 0 req/s, milliseconds a second: an extrapolation, the server's idle
     *                       CPU only if the curve stays straight below the line's lowest rate
     * @param atZeroMsPerSCi its interval's half-width
     * @param bendUs         round by round, the slope over the line's first two rates less that over its last two,
     *                       the rounds' mean, µs (NaN with two rates)
     * @param bendUsCi       its 95 % interval's half-width
     * @param shape          straight, bends, unknown (the rounds cannot tell) or untested (two rates)
     * @param segments       the slope between each two neighbouring held rates, the lowest included
     */
    @JsonPropertyOrder({"probe", "from_rps", "to_rps", "marginal_us", "marginal_us_ci", "at_zero_ms_per_s",
        "at_zero_ms_per_s_ci", "bend_us", "bend_us_ci", "shape", "segments"})
    public record Marginal(String probe, double fromRps, double toRps, double marginalUs, double marginalUsCi,
            double atZeroMsPerS, double atZeroMsPerSCi, double bendUs, double bendUsCi, Shape shape,
            List<Segment> segments) {

        public Marginal {
            segments = List.copyOf(segments);
        }
    }

    /** Whether a marginal cost's line holds over its rates ({@code CostFigures.shape}). */
    public enum Shape {
        STRAIGHT, BENDS, UNKNOWN, UNTESTED;

        @JsonValue
        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The slope between two neighbouring rates, µs a request, over the rounds (mean and half-width). */
    @JsonPropertyOrder({"from_rps", "to_rps", "slope_us", "slope_us_ci"})
    public record Segment(double fromRps, double toRps, double slopeUs, double slopeUsCi) {
    }
}
