package org.spice.bench.proc;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;

/**
 * Where the server's CPU is read: on this machine from its cgroup (every process it started, each once) or from /proc
 * (its processes' trees), with the machine's busy time beside it; or on the server's machine from its exporters
 * (--server-metrics). A number about another machine is never read as
 * the server's: a server elsewhere without exporters has no CPU figure at all (NaN), not this machine's.
 */
public final class ServerCpu {

    private final List<Long> pids;
    private final boolean local;
    private final Exporters exporters;
    private final Cgroup cgroup;
    private String exportedCgroup;

    /**
     * @param pids the server's processes on this machine (none for a server elsewhere)
     * @param local whether the server runs on this machine (then its machine is the client's too)
     * @param exporters the exporters on the server's machine, or none
     * @param cgroup the server's cgroup on this machine, or null: its CPU is then the server's
     */
    public ServerCpu(List<Long> pids, boolean local, List<URI> exporters, Cgroup cgroup) {
        this.pids = List.copyOf(pids);
        this.local = local;
        this.exporters = exporters.isEmpty() ? null : new Exporters(exporters);
        this.cgroup = cgroup;
    }

    /**
     * Where a server's CPU is read: its exporters if given, else its cgroup (at {@code cgroupPath}, or none), else
     * /proc (its processes) when it runs on this machine. A cgroup that cannot be read is an IOException (the
     * preflight says so before anything runs).
     */
    public static ServerCpu of(List<Long> pids, boolean local, List<URI> exporters, Path cgroupPath)
            throws IOException {
        return new ServerCpu(pids, local, exporters, cgroupPath == null ? null : Cgroup.at(cgroupPath));
    }

    /** The server's and its machine's CPU seconds so far; NaN for what is not read, or a scrape that failed. */
    public record Reading(double serverS, double machineS) {
        public static final Reading NONE = new Reading(Double.NaN, Double.NaN);
    }

    public Reading read() {
        if (exporters != null) {
            try {
                Exporters.Reading there = exporters.read();
                return new Reading(there.serverS(), there.machineLessExportersS());
            } catch (IOException e) {
                return Reading.NONE;   // this edge's figure is missing, the window's figure with it
            }
        }
        double server = cgroup != null ? cgroup.cpuSeconds() : CpuMeter.treeCpuSeconds(pids);
        return new Reading(server, local ? CpuMeter.machineBusySeconds() : Double.NaN);
    }

    /**
     * The JIT compiler threads of the server's JVMs now (its processes, and its cgroup's): {@link JitCpu.Reading#NONE}
     * for a server elsewhere, or one with no JVM.
     */
    public JitCpu.Reading jit() {
        return exporters != null || !local ? JitCpu.Reading.NONE : JitCpu.read(JitCpu.withCgroup(pids, cgroup));
    }

    /** Whether the server has a JVM on this machine whose JIT {@link #jit} reads. */
    public boolean readsJit() {
        return exporters == null && local && CpuMeter.anyJava(List.copyOf(JitCpu.withCgroup(pids, cgroup)));
    }

    /**
     * The scale of HotSpot's thresholds for the server's JSP pages ({@link JspCompileScale}), from the JVMs
     * {@link #readsJit} finds; 1 for a server whose JVMs are not read here.
     */
    public double jspCompileScale() {
        return exporters == null && local ? JspCompileScale.of(JitCpu.withCgroup(pids, cgroup)) : 1;
    }

    /** True when the machine read is this one, so the client's own CPU is in it and is taken out. */
    public boolean machineHasClient() {
        return local;
    }

    /** True when the CPU is read from exporters. */
    public boolean fromExporters() {
        return exporters != null;
    }

    /** The cgroup the server's CPU is read from, or null. */
    public Cgroup cgroup() {
        return cgroup;
    }

    /**
     * The server's cgroup on its machine, where its exporters serve one ({@link Exporters#CGROUP_METRIC}): its path
     * there, as the last {@link #check} found it; else null.
     */
    public String exportedCgroup() {
        return exportedCgroup;
    }

    /** Checks that the exporters answer and expose what SPICE reads; the problem in words, or null. */
    public String check() {
        if (exporters == null) {
            return null;
        }
        try {
            Exporters.Reading there = exporters.read();
            if (Double.isNaN(there.machineBusyS()) && Double.isNaN(there.serverS())) {
                return exporters.urls() + " expose neither node_cpu_seconds_total nor the process group \"" + Exporters.GROUP
                        + "\" (scripts/spice metrics-agent start on the server's machine)";
            }
            exportedCgroup = Double.isNaN(there.cgroupS()) ? null : there.cgroup() == null ? "" : there.cgroup();
            return null;
        } catch (IOException e) {
            return "cannot read " + exporters.urls() + ": " + e.getMessage();
        }
    }
}
