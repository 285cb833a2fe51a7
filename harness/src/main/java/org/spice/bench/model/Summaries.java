package org.spice.bench.model;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.spice.bench.figures.SpiceFigures;
import org.spice.page.Probe;

/**
 * The per-probe SPICE summary of a whole run, in the order the probes ran. The reference of the
 * efficiencies is the static probe (one file) or, as in the white paper, the static fileset.
 */
public final class Summaries {

    /** The single-file static workload, the reference unless another is named. */
    public static final String STATIC = "static";

    /** The static fileset's workload (the mix file spice fileset writes is named fileset.mix). */
    public static final String FILESET = "fileset";

    private Summaries() {
    }

    /** Where a run read the server's CPU. */
    public enum CpuFrom {
        /** Its processes' trees in /proc (children once reaped by them). */
        PROC,
        /** Its cgroup: every process it started, each once. */
        CGROUP,
        /** The Prometheus exporters on its machine. */
        EXPORTERS;

        /** Where a run that names exporters, or a cgroup, or neither reads the server's CPU: exporters first. */
        public static CpuFrom of(boolean exporters, boolean cgroup) {
            return exporters ? EXPORTERS : cgroup ? CGROUP : PROC;
        }
    }

    /**
     * The CPU figure that stands for a probe's cost on a server (see {@link SpiceFigures.CpuSource}): its cgroup's
     * where it has one; else the machine's for CGI where the server's processes miss its programs, that is where the
     * kernel reaps them, or where the CPU is read from exporters (a program born and reaped between two scrapes is
     * never seen).
     */
    public static SpiceFigures.CpuSource cpuSource(String server, CpuFrom from, String probe) {
        if (from == CpuFrom.CGROUP) {
            return SpiceFigures.CpuSource.CGROUP;
        }
        boolean uncounted = from == CpuFrom.EXPORTERS
                || server != null && Server.find(server).map(Server::cgiChildrenUncounted).orElse(false);
        return probe.equals(Probe.CGI.id()) && uncounted ? SpiceFigures.CpuSource.MACHINE : SpiceFigures.CpuSource.SERVER;
    }

    /**
     * The ladder's summaries with the CPU rounds' figures: the CPU per request, the ratio to the static file and the
     * CPU efficiency, both paired by round, of every probe the rounds measured.
     */
    public static List<SpiceFigures.Summary> withRounds(List<SpiceFigures.Summary> ladder, CpuRounds rounds,
            Function<String, SpiceFigures.CpuSource> sourceOf) {
        Map<String, CpuRounds.Figures> figures = rounds.figures(sourceOf);
        List<SpiceFigures.Summary> all = new ArrayList<>();
        List<SpiceFigures.Summary> each = new ArrayList<>(ladder);
        // A probe the rounds measured and the ladder did not (the run was cut short): its rounds' figures alone.
        figures.keySet().stream().filter(probe -> ladder.stream().noneMatch(s -> s.probe().equals(probe)))
                .forEach(probe -> each.add(SpiceFigures.summarize(probe, 0, List.of(), List.of(), Double.NaN,
                        sourceOf.apply(probe))));
        for (SpiceFigures.Summary s : each) {
            CpuRounds.Figures f = figures.get(s.probe());
            all.add(f == null ? s : s.withRounds(new SpiceFigures.Rounds(f.cpuUsPerReq(), f.cpuUsPerReqCi(),
                    f.paired().ratio(), f.paired().ratioCi(), rounds.clients(), f.paired().rounds(), f.precise()),
                    f.paired().efficiency(), f.paired().efficiencyCi()));
        }
        return all;
    }

    /**
     * The summary with efficiencies against {@code reference}, a workload of the run, on {@code server} (may be null),
     * the CPU read from exporters when {@code fromExporters}.
     */
    public static List<SpiceFigures.Summary> of(List<RunRecord> runs, double latencyBoundMs, String reference, String server,
            CpuFrom from) {
        // Repeats of one mix, grouped once: with two (too few to be batches), their slices pooled, once per mix.
        Map<String, List<RunRecord>> repeatsOfMix = new LinkedHashMap<>();
        for (RunRecord run : runs) {
            if (!run.failed()) {
                repeatsOfMix.computeIfAbsent(run.probe() + " " + run.clients(), k -> new ArrayList<>()).add(run);
            }
        }
        Map<String, SpiceFigures.Noise> pooled = new HashMap<>();
        repeatsOfMix.forEach((mix, same) -> {
            if (same.size() > 1 && same.size() < SpiceFigures.MIN_REPEATS_AS_BATCHES) {
                pooled.put(mix, RunRecord.pooledNoise(same));
            }
        });
        Map<String, List<SpiceFigures.Point>> byProbe = new LinkedHashMap<>();
        Map<String, Integer> repeats = new LinkedHashMap<>();
        for (RunRecord run : runs) {
            SpiceFigures.Noise noise = pooled.get(run.probe() + " " + run.clients());
            byProbe.computeIfAbsent(run.probe(), k -> new ArrayList<>()).add(noise != null ? run.point(noise) : run.point());
            repeats.merge(run.probe(), run.repeat(), Math::max);
        }
        List<SpiceFigures.Point> statics = SpiceFigures.combineRepeats(byProbe.getOrDefault(reference, List.of()));
        List<SpiceFigures.Summary> summaries = new ArrayList<>();
        for (Map.Entry<String, List<SpiceFigures.Point>> entry : byProbe.entrySet()) {
            summaries.add(SpiceFigures.summarize(entry.getKey(), repeats.get(entry.getKey()),
                    SpiceFigures.combineRepeats(entry.getValue()), statics, latencyBoundMs,
                    cpuSource(server, from, entry.getKey())));
        }
        return summaries;
    }
}
