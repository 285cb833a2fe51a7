package org.spice.bench.model;

import org.spice.bench.figures.SpiceFigures;
import org.spice.page.Probe;

/** Where a run read the server's CPU, and so which CPU figure stands for each probe's cost. */
public enum CpuFrom {
    /** Its processes' trees in /proc (children once reaped by them). */
    PROC,
    /** Its cgroup: every process it started, each once. */
    CGROUP,
    /** The Prometheus exporters on its machine. */
    EXPORTERS;

    /**
     * Where a run that names exporters, or a cgroup, or neither reads the server's CPU: a cgroup wherever there is one
     * (with exporters, the one they serve from the server's machine), else the exporters' processes, else /proc.
     */
    public static CpuFrom of(boolean exporters, boolean cgroup) {
        return cgroup ? CGROUP : exporters ? EXPORTERS : PROC;
    }

    /**
     * The CPU figure that stands for a probe's cost on {@code server} (see {@link SpiceFigures.CpuSource}): its
     * cgroup's where it has one; else the machine's for CGI where the server's processes miss its programs, that is
     * where the kernel reaps them, or where the CPU is read from exporters (a program born and reaped between two
     * scrapes is never seen).
     */
    public SpiceFigures.CpuSource sourceFor(String server, String probe) {
        if (this == CGROUP) {
            return SpiceFigures.CpuSource.CGROUP;
        }
        boolean uncounted = this == EXPORTERS
                || server != null && Server.find(server).map(Server::cgiChildrenUncounted).orElse(false);
        return probe.equals(Probe.CGI.id()) && uncounted ? SpiceFigures.CpuSource.MACHINE : SpiceFigures.CpuSource.SERVER;
    }
}
