package org.spice.bench.model;

import java.util.List;

/**
 * The overload profile's flood: each workload at its peak's client count, then at these multiples of it.
 *
 * @param peakClients the peak's client count for every workload, or 0 to take each one's from the ladder
 * @param timing      each step's ramp-up, window, ramp-down and the pause before it, seconds
 */
public record FloodPlan(int peakClients, List<Integer> multiples, List<Double> timing) {
    /** The multiples past the peak: 2, 4, 8 and 16 times its clients. */
    public static final List<Integer> MULTIPLES = List.of(2, 4, 8, 16);

    /**
     * A step's timing unless told otherwise. Thousands of clients connect at once, and a SYN the full accept queue
     * drops is sent again 1 s, then 3 s later: 3 s of ramp-up let the closed loop settle, a 5 s window averages
     * over those retransmissions, and 2 s of pause let the server close what the last step left.
     */
    public static final List<Double> TIMING = List.of(3.0, 5.0, 1.0, 2.0);

    public double rampUpS() {
        return timing.get(0);
    }

    public double windowS() {
        return timing.get(1);
    }

    public double rampDownS() {
        return timing.get(2);
    }

    public double pauseS() {
        return timing.get(3);
    }

    public FloodPlan {
        multiples = List.copyOf(multiples);
        timing = List.copyOf(timing);
    }
}

