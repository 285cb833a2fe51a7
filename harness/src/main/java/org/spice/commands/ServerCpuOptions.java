package org.spice.commands;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

import org.spice.bench.model.BenchSettings;
import org.spice.bench.model.ServerSide;
import org.spice.bench.plan.BenchPlan;
import org.spice.bench.proc.Cgroup;
import org.spice.cli.Cli;
import org.spice.commands.Converters.ForTarget;

import picocli.CommandLine.Option;

/**
 * Where bench reads the CPU of a server it did not start (--target): its processes, its cgroup here, or the exporters on
 * its own machine; with several targets, each one's, by its name; and whether server and client are pinned. A server
 * bench starts is read from its own cgroup.
 */
final class ServerCpuOptions {

    @Option(names = "--server-pid", paramLabel = "LIST", split = ",", converter = Converters.Pid.class,
            description = "With one --target: the server's processes on this machine, for its CPU per request.")
    List<Long> pids = new ArrayList<>();

    @Option(names = "--server-cgroup", paramLabel = "[NAME=]PATH", converter = Converters.NamedCgroup.class,
            description = "With --target: the server's cgroup on this machine (e.g."
            + " /sys/fs/cgroup/system.slice/apache2.service): its CPU is the server's, every process it starts counted"
            + " once (a server bench starts runs in a cgroup of its own). With several targets, NAME= says whose.")
    List<ForTarget<Path>> cgroups = new ArrayList<>();

    @Option(names = "--server-metrics", paramLabel = "[NAME=]URL[,URL]", converter = Converters.NamedExporters.class,
            description = "With --target: the Prometheus exporters on the server's machine (scripts/spice metrics-agent"
                    + " start there prints this value): the server's CPU is read from them, where it runs. With several"
                    + " targets, NAME= says whose; repeatable.")
    List<ForTarget<List<URI>>> metrics = new ArrayList<>();

    @Option(names = "--pin", description = "Server on CPU 0, client on CPU 1 (see the README: it did not cut the spread"
            + " here).")
    boolean pin;

    /**
     * The server's side of a run: a started server's own; a target's as these options say for it ({@code name}, its
     * name where the target has none: --server's).
     */
    ServerSide side(BenchPlan.Where where, String name) {
        if (where instanceof BenchPlan.Started started) {
            return new ServerSide(started.name(), started.pids(), List.of(), started.cgroup(), pin);
        }
        String target = ((BenchPlan.Deployed) where).name();
        List<URI> urls = metrics.stream().filter(m -> m.isFor(target)).flatMap(m -> m.value().stream()).toList();
        Path cgroup = cgroups.stream().filter(c -> c.isFor(target)).map(ForTarget::value).findFirst().orElse(null);
        return new ServerSide(target != null ? target : name, pids, urls, cgroup, pin);
    }

    /**
     * The rules: these options go with --target; each target's CPU is read in one place; with several targets, every
     * value names its target, and every target has its CPU read (side by side compares the servers' CPU).
     */
    void check(Cli.Checks check, BenchSettings settings, List<BenchPlan.Deployed> targets) {
        if (targets.isEmpty() && (!pids.isEmpty() || !metrics.isEmpty() || !cgroups.isEmpty())) {
            throw check.fail((!pids.isEmpty() ? "--server-pid" : !metrics.isEmpty() ? "--server-metrics"
                    : "--server-cgroup") + " goes with --target: a server bench starts is measured by its own cgroup or"
                    + " processes");
        }
        if (targets.size() > 1) {
            several(check, targets);
        }
        for (BenchPlan.Deployed target : targets) {
            ServerSide side = side(target, null);
            String whose = targets.size() > 1 ? " (" + target.name() + ")" : "";
            if (cgroups.stream().filter(c -> c.isFor(target.name())).count() > 1) {
                throw check.fail("--server-cgroup" + whose + ": one cgroup a server");
            }
            if (!side.metrics().isEmpty() && (!side.pids().isEmpty() || side.cgroup() != null)) {
                throw check.fail("--server-metrics, or --server-pid and --server-cgroup" + whose + ": the server's CPU is"
                        + " read in one place");
            }
            if (settings.cost() != null && side.pids().isEmpty() && side.metrics().isEmpty() && side.cgroup() == null) {
                throw check.fail("--profile cost is the server's CPU along its rates: with --target, say where to read"
                        + " it" + whose + " (--server-pid, --server-cgroup or --server-metrics)");
            }
        }
        for (ForTarget<Path> cgroup : cgroups) {
            try {
                Cgroup.at(cgroup.value());
            } catch (IOException e) {
                throw check.fail("--server-cgroup: " + e.getMessage());
            }
        }
    }

    /** Several targets side by side: values named, names the targets', every target's CPU read somewhere. */
    private void several(Cli.Checks check, List<BenchPlan.Deployed> targets) {
        Set<String> names = targets.stream().map(BenchPlan.Deployed::name).filter(Objects::nonNull)
                .collect(Collectors.toSet());
        if (!pids.isEmpty()) {
            throw check.fail("--server-pid: with several --target, read each server's CPU by its name: --server-cgroup"
                    + " NAME=PATH or --server-metrics NAME=URL[,URL]");
        }
        List<ForTarget<?>> all = new ArrayList<>(metrics);
        all.addAll(cgroups);
        for (ForTarget<?> value : all) {
            if (value.name() == null || !names.contains(value.name())) {
                throw check.fail((metrics.contains(value) ? "--server-metrics" : "--server-cgroup") + ": with several"
                        + " --target, each value is NAME=..., NAME one of the targets' (" + String.join(", ",
                        targets.stream().map(BenchPlan.Deployed::name).toList()) + "), not " + (value.name() == null
                        ? "unnamed" : "\"" + value.name() + "\""));
            }
        }
        for (BenchPlan.Deployed target : targets) {
            ServerSide side = side(target, null);
            if (side.metrics().isEmpty() && side.cgroup() == null) {
                throw check.fail("--target " + target.name() + "=" + target.base() + ": side by side compares the"
                        + " servers' CPU, so say where each one's is read: --server-metrics " + target.name()
                        + "=URL[,URL] (scripts/spice metrics-agent start on its machine) or --server-cgroup "
                        + target.name() + "=PATH");
            }
        }
    }
}
