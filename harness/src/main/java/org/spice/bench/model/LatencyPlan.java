package org.spice.bench.model;

import java.util.List;

/**
 * The latency profile (--profile latency; bench.run.LatencyRounds): after the ladder, every probe open loop at the
 * same rates, {@code fractions} of the slowest probe's peak, in paired rounds of slices of the duration for at most
 * {@code timeS} (0: {@link #ROUNDS} rounds) or until every ratio to static is within {@code precision}; then each probe along its own curve,
 * {@code curve} fractions of its own peak.
 */
public record LatencyPlan(List<Double> fractions, List<Double> curve, int maxInFlight, double timeS,
        double precision) {
    /** Common rates unless told otherwise: a quarter, half and three quarters of the slowest probe's peak. */
    public static final List<Double> FRACTIONS = List.of(0.25, 0.5, 0.75);
    /** Each probe's curve unless told otherwise: from a tenth of its peak to past it. */
    public static final List<Double> CURVE = List.of(0.1, 0.3, 0.5, 0.7, 0.9, 1.1, 1.3);
    /**
     * The rounds unless --cpu-time bounds them: an interval's six and two more (the default six probes at three
     * rates in 2 s slices take 36 s a round, so some 300 s).
     */
    public static final int ROUNDS = 8;

    /** The rounds' time bound, seconds, for rounds of {@code roundS}: --cpu-time, else {@link #ROUNDS} rounds. */
    public double boundS(double roundS) {
        return timeS > 0 ? timeS : ROUNDS * roundS;
    }

    public LatencyPlan {
        fractions = List.copyOf(fractions);
        curve = List.copyOf(curve);
    }
}

