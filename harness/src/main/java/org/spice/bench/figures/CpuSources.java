package org.spice.bench.figures;

/**
 * Which CPU figure stands for a probe's cost on each arm of a run side by side: an arm is a server (or a server under
 * one protocol) by the name its slices carry, and a CGI probe on a server whose processes lose their children's
 * times is the machine's figure, not the process tree's.
 */
@FunctionalInterface
public interface CpuSources {

    /** The figure for {@code probe} on {@code arm}. */
    SpiceFigures.CpuSource of(String arm, String probe);
}
