package org.spice.bench.model;

import java.util.List;

/**
 * How a workload was warmed before the ladder measured it: unmeasured one-second slices, in rounds over every
 * workload, until each one's server CPU per request settled ({@link #RULE}) in the same round, or the bound was
 * reached.
 *
 * @param workload     the probe or mix
 * @param seconds      how long the warm-up of every workload took, all rounds together
 * @param settled      whether the CPU per request settled; a workload that did not is measured anyway, and flagged
 * @param cpuUsPerReq  the CPU per request of each slice, in order (the server's, or the machine's without its PIDs)
 */
public record SteadyState(String workload, double seconds, boolean settled, List<Double> cpuUsPerReq) {

    /** The rule, as results.json and the README state it. */
    public static final String RULE = "the server's CPU per request of 3 consecutive 1 s slices each within 5 % of"
            + " their mean";

    /** Slices that must agree. */
    public static final int SLICES = 3;

    /** How far each may be from their mean. */
    public static final double TOLERANCE = 0.05;

    public SteadyState {
        cpuUsPerReq = cpuUsPerReq == null ? List.of() : List.copyOf(cpuUsPerReq);
    }

    /** True when the last {@link #SLICES} values are each within {@link #TOLERANCE} of their mean. */
    public static boolean settled(List<Double> values) {
        if (values.size() < SLICES) {
            return false;
        }
        List<Double> last = values.subList(values.size() - SLICES, values.size());
        double mean = last.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
        return mean > 0 && last.stream().allMatch(v -> Math.abs(v - mean) <= TOLERANCE * mean);
    }
}
