package org.spice.bench.model;

/**
 * CPU seconds over a measured window: the client (this process), the server's processes, and the whole
 * machine less the client. NaN where not measured.
 */
public record Cpu(double clientS, double serverS, double machineS) {

    public static final Cpu NONE = new Cpu(Double.NaN, Double.NaN, Double.NaN);

    /** The same CPU taken in the proportion {@code share} (a window's part of a longer run). */
    public Cpu scaled(double share) {
        return new Cpu(clientS * share, serverS * share, machineS * share);
    }
}
