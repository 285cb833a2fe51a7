package org.spice.bench.model;

/**
 * The CPU the server used with no load, measured after the server started and before the warm-up: a JVM's GC, JIT and
 * timer threads spend CPU whatever the load, and a window with few requests divides that by few. Per mix, the
 * share of the CPU per request this rate explains is {@link #share}.
 *
 * @param seconds           how long it was measured
 * @param serverCpuCores    the server's processes' CPU, in cores (seconds per second); NaN without their PIDs
 * @param machineCpuCores   the machine's less the client's, in cores
 * @param stealCores        what the machine's hypervisor gave other guests meanwhile, in CPUs (/proc/stat's steal); NaN
 *                          where not read (results from before it was, or no /proc)
 */
public record IdleCpu(double seconds, double serverCpuCores, double machineCpuCores, double stealCores) {

    public IdleCpu(double seconds, double serverCpuCores, double machineCpuCores) {
        this(seconds, serverCpuCores, machineCpuCores, Double.NaN);
    }

    /** A mix whose CPU per request is more than this share idle work is flagged. */
    public static final double FLAG = 0.10;

    /** The share of a mix's CPU that the idle rate explains: idle cores / the mix's cores (NaN if unknown). */
    public static double share(double idleCores, double mixCpuS, double durationS) {
        double cores = durationS > 0 ? mixCpuS / durationS : Double.NaN;
        return cores > 0 && !Double.isNaN(idleCores) ? Math.max(0, idleCores) / cores : Double.NaN;
    }
}
