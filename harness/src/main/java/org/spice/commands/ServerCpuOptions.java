package org.spice.commands;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.spice.bench.model.BenchSettings;
import org.spice.bench.model.ServerSide;
import org.spice.bench.plan.BenchPlan;
import org.spice.bench.proc.Cgroup;
import org.spice.cli.Cli;

import picocli.CommandLine.Option;

/**
 * Where bench reads the CPU of a server it did not start (--target): its processes, its cgroup here, or the exporters on
 * its own machine; and whether server and client are pinned. A server bench starts is read from its own cgroup.
 */
final class ServerCpuOptions {

    @Option(names = "--server-pid", paramLabel = "LIST", split = ",", converter = Converters.Pid.class,
            description = "With --target: the server's processes on this machine, for its CPU per request.")
    List<Long> pids = new ArrayList<>();

    @Option(names = "--server-cgroup", paramLabel = "PATH", description = "With --target: the server's cgroup on this"
            + " machine (e.g. /sys/fs/cgroup/system.slice/apache2.service): its CPU is the server's, every process it"
            + " starts counted once (a server bench starts runs in a cgroup of its own).")
    Path cgroup;

    @Option(names = "--server-metrics", paramLabel = "URL[,URL]", split = ",", converter = Converters.ExporterUrl.class,
            description = "With --target: the Prometheus exporters on the server's machine (scripts/spice metrics-agent"
                    + " start there prints this value): the server's CPU is read from them, where it runs.")
    List<URI> metrics = new ArrayList<>();

    @Option(names = "--pin", description = "Server on CPU 0, client on CPU 1 (see the README: it did not cut the spread"
            + " here).")
    boolean pin;

    /** The server's side of a run: on --target ({@code started} null) as these options say, else the started one's. */
    ServerSide side(String targetName, BenchPlan.Started started) {
        return started == null ? new ServerSide(targetName, pids, metrics, cgroup, pin)
                : new ServerSide(started.name(), started.pids(), metrics, started.cgroup(), pin);
    }

    /** The rules: these options go with --target, and the server's CPU is read in one place. */
    void check(Cli.Checks check, BenchSettings settings, boolean onTarget) {
        if (!onTarget && (!pids.isEmpty() || !metrics.isEmpty() || cgroup != null)) {
            throw check.fail((!pids.isEmpty() ? "--server-pid" : !metrics.isEmpty() ? "--server-metrics"
                    : "--server-cgroup") + " goes with --target: a server bench starts is measured by its own cgroup or"
                    + " processes");
        }
        if (settings.cost() != null && onTarget && pids.isEmpty() && metrics.isEmpty() && cgroup == null) {
            throw check.fail("--profile cost is the server's CPU along its rates: with --target, say where to read it"
                    + " (--server-pid, --server-cgroup or --server-metrics)");
        }
        if (!metrics.isEmpty() && (!pids.isEmpty() || cgroup != null)) {
            throw check.fail("--server-metrics, or --server-pid and --server-cgroup: the server's CPU is read in one place");
        }
        if (cgroup != null) {
            try {
                Cgroup.at(cgroup);
            } catch (IOException e) {
                throw check.fail("--server-cgroup: " + e.getMessage());
            }
        }
    }
}
