package org.spice.bench.model;

/**
 * The bound past which a slice ran on a machine not all there: the hypervisor gave other guests more than
 * {@code share} of a CPU while it ran (/proc/stat's steal over the slice's time), the machine's own steal at idle
 * ({@code idleShare}, read before the warm-up; NaN where not read) and {@link #MARGIN} above it. Measured on a VM
 * (2026-11-27): the static file at a low rate cost 250-276 µs a request in slices with under 2 % steal, 800-2,900
 * µs in slices with 60-100 %; a ratio takes the two slices' costs from one round, and a slice the hypervisor took
 * half of measures the hypervisor.
 */
public record StealLimit(double share, double idleShare) {

    /** How far above the machine's idle steal a slice's may be, in CPUs. */
    public static final double MARGIN = 0.10;

    /** The bound above {@code idleShare} (NaN, or none: {@link #MARGIN} alone). */
    public static StealLimit above(double idleShare) {
        return new StealLimit((Double.isNaN(idleShare) ? 0 : Math.max(0, idleShare)) + MARGIN, idleShare);
    }

    /** Whether {@code taken} passed the bound (a slice whose steal was not read never does). */
    public boolean leavesOut(CpuSlice taken) {
        return taken.durationS() > 0 && taken.stealS() / taken.durationS() > share;
    }
}
