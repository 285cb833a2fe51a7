package org.spice.bench.stats;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The per-probe SPICE summary of a whole run, in the order the probes ran; the static probe is the reference. */
public final class Summaries {

    /** The workload every other one is compared with. */
    public static final String STATIC = "static";

    private Summaries() {
    }

    public static List<SpiceFigures.Summary> of(List<RunRecord> runs, double latencyBoundMs) {
        Map<String, List<SpiceFigures.Point>> byProbe = new LinkedHashMap<>();
        Map<String, Integer> repeats = new LinkedHashMap<>();
        for (RunRecord run : runs) {
            byProbe.computeIfAbsent(run.probe(), k -> new ArrayList<>()).add(run.point());
            repeats.merge(run.probe(), run.repeat(), Math::max);
        }
        List<SpiceFigures.Point> statics = SpiceFigures.combineRepeats(byProbe.getOrDefault(STATIC, List.of()));
        List<SpiceFigures.Summary> summaries = new ArrayList<>();
        for (Map.Entry<String, List<SpiceFigures.Point>> entry : byProbe.entrySet()) {
            summaries.add(SpiceFigures.summarize(entry.getKey(), repeats.get(entry.getKey()),
                    SpiceFigures.combineRepeats(entry.getValue()), statics, latencyBoundMs));
        }
        return summaries;
    }
}
