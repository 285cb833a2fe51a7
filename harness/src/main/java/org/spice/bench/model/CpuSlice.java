package org.spice.bench.model;

import org.spice.bench.figures.SpiceFigures;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * One workload's slice in a round: its counts and the CPU read at its edges (seconds), with what the server's JIT
 * compiler threads took of it (NaN where none was read: no JVM, or results from before it was). Where several
 * servers ran side by side, {@code server} names the one the slice loaded (its CPU is that server's alone) and
 * {@code othersCpuS} is what the others took meanwhile, idle: it should be near nothing (a single server's slice
 * has neither: null, NaN). {@code stealS} is the time the machine's hypervisor gave other guests while the slice
 * ran (from /proc/stat, where the server runs here; a slice it took much of ran on a machine not all there).
 */
@JsonPropertyOrder({"server", "probe", "offered_rps", "requests", "errors", "duration_s", "server_cpu_s",
    "machine_cpu_s", "client_cpu_s", "jit_cpu_s", "others_cpu_s", "steal_s"})
public record CpuSlice(@JsonInclude(JsonInclude.Include.NON_NULL) String server, String probe, long requests,
        long errors, double durationS, double serverCpuS, double machineCpuS, double clientCpuS, double jitCpuS,
        double othersCpuS, double stealS, @JsonInclude(JsonInclude.Include.NON_NULL) Double offeredRps) {

    public CpuSlice {
        // results.json's reader makes a missing number NaN: a closed-loop slice, or one from before slices said it
        offeredRps = offeredRps == null || offeredRps.isNaN() ? null : offeredRps;
    }

    /** A slice whose offered rate was not kept: closed loop, or results from before slices kept it. */
    public CpuSlice(String server, String probe, long requests, long errors, double durationS, double serverCpuS,
            double machineCpuS, double clientCpuS, double jitCpuS, double othersCpuS, double stealS) {
        this(server, probe, requests, errors, durationS, serverCpuS, machineCpuS, clientCpuS, jitCpuS, othersCpuS,
                stealS, null);
    }

    /** This slice as run open loop at {@code rps} offered. */
    public CpuSlice at(double rps) {
        return new CpuSlice(server, probe, requests, errors, durationS, serverCpuS, machineCpuS, clientCpuS, jitCpuS,
                othersCpuS, stealS, rps);
    }

    /**
     * Whether this slice ran at {@code rps} offered: a slice that does not say (closed loop, or results from before
     * slices said it) counts at any rate; null asks for any.
     */
    public boolean ranAt(Double rps) {
        return rps == null || offeredRps == null || Math.abs(offeredRps - rps) < 0.5;
    }

    /** A slice of the one server measured. */
    public CpuSlice(String probe, long requests, long errors, double durationS, double serverCpuS, double machineCpuS,
            double clientCpuS, double jitCpuS) {
        this(null, probe, requests, errors, durationS, serverCpuS, machineCpuS, clientCpuS, jitCpuS, Double.NaN);
    }

    /** A slice side by side, the steal time not read (results from before it was). */
    public CpuSlice(String server, String probe, long requests, long errors, double durationS, double serverCpuS,
            double machineCpuS, double clientCpuS, double jitCpuS, double othersCpuS) {
        this(server, probe, requests, errors, durationS, serverCpuS, machineCpuS, clientCpuS, jitCpuS, othersCpuS,
                Double.NaN);
    }

    /** The arm the slice belongs to: its probe, or "server/probe" where servers ran side by side. */
    @JsonIgnore
    public String arm() {
        return arm(server, probe);
    }

    /** "server/probe", or the probe alone for no server. */
    public static String arm(String server, String probe) {
        return server == null ? probe : server + "/" + probe;
    }

    /** This slice as its server's alone (no server named): what its server's own figures are computed from. */
    public CpuSlice alone() {
        return new CpuSlice(null, probe, requests, errors, durationS, serverCpuS, machineCpuS, clientCpuS, jitCpuS,
                othersCpuS, stealS, offeredRps);
    }

    /** CPU per request from {@code source}, µs; NaN where a request failed or nothing was measured. */
    double cpuUsPerReq(SpiceFigures.CpuSource source) {
        return requests > 0 && errors == 0 ? cpuS(source) * 1e6 / requests : Double.NaN;
    }

    /** The slice's CPU seconds from {@code source}: the machine's, or the server's. */
    double cpuS(SpiceFigures.CpuSource source) {
        return source == SpiceFigures.CpuSource.MACHINE ? machineCpuS : serverCpuS;
    }
}
