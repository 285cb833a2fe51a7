package org.spice.bench.model;

/**
 * One second of a mix's window (the last one shorter if the window is not a whole number of seconds): the
 * requests that started in it, by the window rule, and the CPU read at its edges. The slices of a window add
 * up to it; their spread gives the figures' intervals (batch means).
 *
 * @param startS       seconds from the window's start
 * @param durationS    its length
 * @param latencySumMs the latencies of its counted requests, added up
 * @param serverCpuS   the server's processes' CPU seconds over it, NaN if not measured
 * @param machineCpuS  the machine's busy CPU seconds less the client's, NaN if not measured
 */
public record Slice(double startS, double durationS, long requests, long errors, long bodyBytes, double latencySumMs,
        double serverCpuS, double machineCpuS) {

    /** Slices shorter than this (a window's ragged end) are too short to stand as a batch. */
    public static final double MIN_BATCH_S = 0.5;

    public double rateRps() {
        return durationS > 0 ? requests / durationS : Double.NaN;
    }

    public double meanLatencyMs() {
        return requests > 0 ? latencySumMs / requests : Double.NaN;
    }

    public double serverCpuUsPerReq() {
        return requests > 0 ? serverCpuS * 1e6 / requests : Double.NaN;
    }

    public double machineCpuUsPerReq() {
        return requests > 0 ? machineCpuS * 1e6 / requests : Double.NaN;
    }
}
