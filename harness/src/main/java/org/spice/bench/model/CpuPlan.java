package org.spice.bench.model;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The CPU rounds: after the warm-up, every workload in rounds of one-second slices at {@code clients}, the order
 * shuffled per round from the seed, until every probe's ratio to static is known within {@code precision} (a
 * fraction: 0.05 is ±5 %) or their time bound has passed: {@code timeS}, or where {@code withWarmUpS} is set (the
 * default) what the warm-up left of it, at least {@link #LEAST_S} and at most {@code timeS}; {@code timeS} 0 runs none.
 * With {@code rateRps} (--cpu-rate R) or {@code rateFraction} (--cpu-rate auto: that share of the slowest arm's
 * rate at {@code clients}) every slice runs open loop at one offered rate instead, the same for every arm. With
 * {@code farApart} (the default) the rate is that share of the slowest arm's near the static file's speed (at least
 * {@link #NEAR} of it), and the arms slower than that run apart, each far probe at that share of its own rate (side
 * by side, of its slowest server's, the same on every server), the static file's slices beside it at that rate. With
 * {@code pairs} (one server, --pairs cgi/fastcgi) the faster probe of each pair runs slices at the slower one's rate
 * too, so that their ratio is taken at one load.
 */
public record CpuPlan(@JsonProperty("cpu_clients") int clients, @JsonProperty("cpu_precision") double precision,
        @JsonProperty("cpu_time_s") double timeS,
        @JsonProperty("cpu_time_with_warm_up_s") @JsonInclude(JsonInclude.Include.NON_NULL) Double withWarmUpS,
        @JsonProperty("cpu_rate_rps") @JsonInclude(JsonInclude.Include.NON_NULL) Double rateRps,
        @JsonProperty("cpu_rate_fraction") @JsonInclude(JsonInclude.Include.NON_NULL) Double rateFraction,
        @JsonProperty("cpu_far_apart") @JsonInclude(JsonInclude.Include.NON_NULL) Boolean farApart,
        @JsonProperty("cpu_pairs") @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> pairs) {

    public CpuPlan {
        pairs = pairs == null ? List.of() : List.copyOf(pairs);
    }

    /**
     * The share of the slowest arm's rate at {@link #CLIENTS} clients that --cpu-rate auto offers every arm: low
     * enough that every arm holds it with room (no queue builds, the open loop keeps its schedule), high enough
     * that a server is busy as under load.
     */
    public static final double AUTO_FRACTION = 0.5;

    /**
     * An arm whose rate at {@link #CLIENTS} clients is under this share of the static file's is far from it: one
     * rate for both would be a share of the far arm's, where the static file's CPU per request is not what it is
     * under load (at CGI's 270 req/s here, embedded static 250-2,900 µs a slice with the hypervisor's steal, against
     * 84 at 8 clients: docs/measurements.md, "One load"). Measured here at 8 clients against the static file: servlet,
     * JSP and module 0.95-1.08, SSI 0.43-0.50, CGI 0.04; at a half, SSI fell on either side from run to run.
     */
    public static final double NEAR = 2.0 / 3;
    /** {@link #NEAR} in words, for the options' help (an annotation takes constants only). */
    public static final String NEAR_WORDS = "two thirds";

    /** Rounds at {@code clients} clients, closed loop. */
    public CpuPlan(int clients, double precision, double timeS, Double withWarmUpS) {
        this(clients, precision, timeS, withWarmUpS, null, null, null, List.of());
    }

    /** Rounds at one offered rate ({@code rateRps}, or {@code rateFraction} of the slowest arm's) for every arm. */
    public CpuPlan(int clients, double precision, double timeS, Double withWarmUpS, Double rateRps,
            Double rateFraction) {
        this(clients, precision, timeS, withWarmUpS, rateRps, rateFraction, null, List.of());
    }

    /**
     * The plan whose one server's rounds also take each of {@code probePairs} ("cgi/fastcgi") at one load: the faster
     * probe's slices run in the slower one's part of the round too, at its rate (servers side by side name theirs in
     * the run, not here).
     */
    public CpuPlan withPairs(List<String> probePairs) {
        return new CpuPlan(clients, precision, timeS, withWarmUpS, rateRps, rateFraction, farApart, probePairs);
    }

    /** Whether arms far slower than the static file run apart from the one rate the others hold. */
    public boolean farArmsApart() {
        return Boolean.TRUE.equals(farApart);
    }

    /** Whether the rounds run open loop, every arm at one offered rate. */
    public boolean openLoop() {
        return rateRps != null || rateFraction != null;
    }

    /**
     * The load of the rounds unless told otherwise: 8 clients. Measured here (2 cores, loopback): the static file's
     * per-slice CPU spread was 5–7 % at 8 clients against about 10 % at 64, and at 8 the client is not the limit.
     */
    public static final int CLIENTS = 8;
    public static final double PRECISION = 0.05;
    /**
     * The least time the default bound leaves the rounds after a long warm-up, seconds: the first {@link
     * CpuRounds#MIN_ROUNDS} rounds of the default six probes take 36 s, and a few more make an interval.
     */
    public static final double LEAST_S = 60;

    /** The rounds' time bound, seconds, once the warm-up (its idle reading included) has taken {@code warmUpS}. */
    public double boundS(double warmUpS) {
        return withWarmUpS == null ? timeS : Math.min(timeS, Math.max(LEAST_S, withWarmUpS - warmUpS));
    }
}

