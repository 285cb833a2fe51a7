package org.spice.bench.model;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * How a workload was warmed before the ladder measured it: unmeasured one-second slices, in rounds over every
 * workload, until each one's server CPU per request settled ({@link #RULE}) in the same round, or the bound was
 * reached.
 *
 * @param workload     the probe or mix
 * @param seconds      how long the warm-up of every workload took, all rounds together
 * @param settled      whether the CPU per request settled; a workload that did not is measured anyway, and flagged
 * @param cpuUsPerReq  the CPU per request of each slice, in order (the server's, or the machine's without its PIDs)
 * @param jitShare     per slice, the share of the server's CPU its JVMs' JIT compiler threads took (none read: empty)
 */
public record SteadyState(String workload, double seconds, boolean settled, List<Double> cpuUsPerReq,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Double> jitShare) {

    /** The rule, as results.json and the README state it. */
    public static final String RULE = "the server's CPU per request of 3 consecutive 1 s slices each within 5 % of"
            + " their mean, or no longer falling (their mean at least 95 % of the 3 before), and on a JVM its JIT compiler"
            + " threads under 3 % of the server's CPU in the last 2 of them and each JSP page called 5,000 times (C2's"
            + " threshold) × the server's CompileThresholdScaling for the pages";

    /** A JVM's JIT is quiet when its compiler threads take at most this share of the server's CPU. */
    public static final double JIT_QUIET = 0.03;

    /** Slices whose JIT must have been quiet. */
    public static final int JIT_SLICES = 2;

    /** Slices that must agree. */
    public static final int SLICES = 3;

    /** How far each may be from their mean. */
    public static final double TOLERANCE = 0.05;

    public SteadyState {
        cpuUsPerReq = cpuUsPerReq == null ? List.of() : List.copyOf(cpuUsPerReq);
        jitShare = jitShare == null ? List.of() : List.copyOf(jitShare);
    }

    /** The JIT's share of the server's CPU: {@code jitS} of {@code serverS}; all of it where the server used none. */
    public static double share(double jitS, double serverS) {
        return serverS > 0 ? jitS / serverS : jitS > 0 ? 1 : 0;
    }

    /**
     * True when the last {@link #JIT_SLICES} of {@code shares} are each at most {@link #JIT_QUIET}; true with no share
     * read at all (NaN: no JVM, or a server elsewhere), where the CPU rule alone decides.
     */
    public static boolean jitQuiet(List<Double> shares) {
        if (shares.stream().allMatch(v -> Double.isNaN(v))) {
            return true;
        }
        return shares.size() >= JIT_SLICES
                && shares.subList(shares.size() - JIT_SLICES, shares.size()).stream().allMatch(v -> v <= JIT_QUIET);
    }

    /**
     * True when the last {@link #SLICES} values are each within {@link #TOLERANCE} of their mean, or their mean is no
     * longer falling: at least 1 − {@link #TOLERANCE} of the mean of the {@link #SLICES} before them. Warming makes the
     * CPU per request fall; once it has stopped falling, what is left is noise. The band alone waited on luck where a
     * second's noise is as wide as the band: one-second slices spread by 8-13 % here, so three of them fell within 5 %
     * of their mean about once in five to twelve tries, and a settled probe warmed on for 10 to 20 more slices (static
     * 63-84 µs over 17 slices, its JIT quiet from the third).
     */
    public static boolean settled(List<Double> values) {
        if (values.size() < SLICES) {
            return false;
        }
        List<Double> last = values.subList(values.size() - SLICES, values.size());
        double mean = mean(last);
        boolean band = mean > 0 && last.stream().allMatch(v -> Math.abs(v - mean) <= TOLERANCE * mean);
        return band || values.size() >= 2 * SLICES && mean > 0
                && mean >= (1 - TOLERANCE) * mean(values.subList(values.size() - 2 * SLICES, values.size() - SLICES));
    }

    private static double mean(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
    }
}
