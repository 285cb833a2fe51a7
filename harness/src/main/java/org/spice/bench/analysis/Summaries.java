package org.spice.bench.analysis;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.spice.bench.figures.SpiceFigures;
import org.spice.bench.model.Across;
import org.spice.bench.model.CpuFrom;
import org.spice.bench.model.CpuRounds;
import org.spice.bench.model.CpuSlice;
import org.spice.bench.model.Reference;
import org.spice.bench.model.Results;
import org.spice.bench.model.ResultsJson;
import org.spice.bench.model.RunRecord;

/**
 * The per-probe SPICE summary of a whole run, in the order the probes ran: the figures a run concludes from its counts,
 * computed here and nowhere else, once when the run ends ({@link #conclude}) and once when a results file is read
 * ({@code ResultsFiles.read}: an older file through the same function), and carried by the results to every table,
 * sentence and page. The reference of the efficiencies is the static probe (one file) or, as in the white paper, the
 * static fileset.
 */
public final class Summaries {

    private Summaries() {
    }

    /** Writes DIR/results.json: the results' counts, and their summary beside them (concluded here if not yet). */
    public static void write(Path dir, Results results) throws IOException {
        ResultsJson.write(dir, conclude(results));
    }

    /** The results with their figures concluded: as they are where they already were. */
    public static Results conclude(Results results) {
        if (results.concluded()) {
            return results;
        }
        if (results.severalArms()) {
            // each server's ladder and summary are in its own results; these conclude what lies across them
            return results.concluded(List.of(), List.of(), results.cpuRounds() == null ? Across.NONE
                    : CrossFigures.all(results.starts(), CrossResults.sources(results.arms())));
        }
        return results.concluded(of(results), results.cpuRounds() == null ? List.of()
                : RoundFigures.pairs(results.cpuRounds(), results::cpuSource), Across.NONE);
    }

    /** The summary of these results: the ladder's figures, with the CPU rounds' where they ran. */
    public static List<SpiceFigures.Summary> of(Results results) {
        List<SpiceFigures.Summary> ladder = of(results.runs(), results.latencyBoundMs(), results.baseline(),
                results.server(), results.cpuFrom());
        return results.cpuRounds() == null ? ladder : withRounds(ladder, results.cpuRounds(), results::cpuSource,
                results.settings().clientCpus());
    }

    /**
     * The ladder's summaries with the CPU rounds' figures: the CPU per request, the ratio to the static file and the
     * CPU efficiency, both paired by round, of every probe the rounds measured.
     */
    public static List<SpiceFigures.Summary> withRounds(List<SpiceFigures.Summary> ladder, CpuRounds rounds,
            Function<String, SpiceFigures.CpuSource> sourceOf) {
        return withRounds(ladder, rounds, sourceOf, 0);
    }

    /** As {@link #withRounds(List, CpuRounds, Function)}, the machine's busy share over its {@code cpus} (0: unknown). */
    public static List<SpiceFigures.Summary> withRounds(List<SpiceFigures.Summary> ladder, CpuRounds rounds,
            Function<String, SpiceFigures.CpuSource> sourceOf, int cpus) {
        Map<String, RoundFigures.Figures> figures = RoundFigures.of(rounds, sourceOf);
        List<SpiceFigures.Summary> all = new ArrayList<>();
        List<SpiceFigures.Summary> each = new ArrayList<>(ladder);
        // A probe the rounds measured and the ladder did not (the run was cut short): its rounds' figures alone.
        figures.keySet().stream().filter(probe -> ladder.stream().noneMatch(s -> s.probe().equals(probe)))
                .forEach(probe -> each.add(SpiceFigures.summarize(probe, 0, List.of(), List.of(), Double.NaN,
                        sourceOf.apply(probe))));
        for (SpiceFigures.Summary s : each) {
            RoundFigures.Figures f = figures.get(s.probe());
            String reference = figures.containsKey(Reference.STATIC) ? Reference.STATIC : s.probe();
            double rate = rounds.rateRps(s.probe());
            double staticRate = referenceRate(rounds, s.probe(), reference);
            double[] load = loadTool(rounds, s.probe(), cpus);
            all.add(f == null ? s : s.withRounds(new SpiceFigures.Rounds(f.cpuUsPerReq(), f.cpuUsPerReqCi(),
                    f.paired().ratio(), f.paired().ratioCi(), f.paired().low(), f.paired().high(),
                    rounds.offeredTo(s.probe()) ? null : rounds.clients(),
                    f.paired().rounds(), f.hasAim() ? f.aim() : null, f.hasAim() ? f.precise() : null, rate,
                    Math.abs(staticRate - rate) < 0.5 ? null : staticRate, rateKind(rounds, s.probe(), reference),
                    load[0], load[1], Math.abs(staticRate - rounds.rateRps(reference)) < 0.5 || reference.equals(s.probe())
                            || Double.isNaN(f.staticUsPerReq()) ? null : f.staticUsPerReq()),
                    f.paired().efficiency(), f.paired().efficiencyCi()));
        }
        return all;
    }

    /**
     * What the load tool and the machine did through {@code arm}'s slices in the counted rounds: the load tool's CPU per
     * request (µs; it shares the server's machine here, and a server's figure is read beside it), and the share of the
     * machine's {@code cpus} busy (the server's, the load tool's and anything else's CPU over the slices' time). NaN
     * where the slices did not read them.
     */
    static double[] loadTool(CpuRounds rounds, String arm, int cpus) {
        double client = 0;
        double busy = 0;
        double seconds = 0;
        long requests = 0;
        for (CpuSlice taken : rounds.countedSlices(arm)) {
            client += taken.clientCpuS();
            busy += taken.machineCpuS() + taken.clientCpuS();
            seconds += taken.durationS();
            requests += taken.requests();
        }
        return new double[] {requests > 0 ? client * 1e6 / requests : Double.NaN,
            seconds > 0 && cpus > 0 ? busy / (seconds * cpus) : Double.NaN};
    }

    /**
     * The rate {@code probe}'s ratio took the static file's slices at: the probe's own offered rate where the static
     * file ran slices at it (every ratio at one load), else the static file's own (closed loop, or results from before).
     */
    static double referenceRate(CpuRounds rounds, String probe, String reference) {
        Double offered = rounds.offeredRpsOf(probe);
        boolean beside = offered != null && rounds.rounds().stream().flatMap(r -> r.slices().stream())
                .anyMatch(t -> t.arm().equals(reference) && t.offeredRps() != null && t.ranAt(offered));
        return beside ? offered : rounds.rateRps(reference);
    }

    /**
     * What a summary's two rates are: "offered" or "achieved" where both were taken alike, else each's in
     * {@code rate_rps}'s order ("achieved, offered": a probe at the rounds' client count against the static file at
     * their offered rate).
     */
    static String rateKind(CpuRounds rounds, String probe, String reference) {
        String arm = rounds.rateKind(probe);
        String base = rounds.rateKind(reference);
        return arm.equals(base) ? arm : arm + ", " + base;
    }

    /**
     * The summary with efficiencies against {@code reference}, a workload of the run, on {@code server} (may be null),
     * the CPU read as {@code from} says.
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
                    from.sourceFor(server, entry.getKey())));
        }
        return summaries;
    }
}
