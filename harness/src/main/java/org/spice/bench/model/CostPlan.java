package org.spice.bench.model;

import java.util.List;

/**
 * The cost curve (--profile cost; bench.run.CostRounds): after the ladder, each probe open loop at {@code fractions}
 * of its own peak, a slice of {@code sliceS} per probe and rate in each of {@code rounds} shuffled rounds; the
 * marginal cost's line from {@code fitFrom} up.
 */
public record CostPlan(List<Double> fractions, double fitFrom, double sliceS, int rounds, int maxInFlight) {
    /**
     * From a tenth of the peak, where a request still finds the server asleep, to nine tenths, short of the
     * saturation that stops the curve.
     */
    public static final List<Double> FRACTIONS = List.of(0.1, 0.25, 0.5, 0.75, 0.9);
    /** The line from a quarter of the peak: below it each request pays a wake-up of its own. */
    public static final double FIT_FROM = 0.25;
    /** Rounds unless told otherwise: an interval's six. */
    public static final int ROUNDS = 6;
    /** A slice: the CPU rounds' second. */
    public static final double SLICE_S = 1;

    public CostPlan {
        fractions = List.copyOf(fractions);
    }
}

