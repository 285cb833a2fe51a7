package org.spice.bench.report;

import java.util.List;
import java.util.Map;

import org.spice.bench.stats.RunRecord;
import org.spice.bench.stats.SpiceFigures;
import org.spice.bench.stats.Summaries;

/**
 * Everything one bench run produced: what was measured (runs), how (settings), and whether it finished.
 *
 * @param partial true if the run was cut short (Ctrl-C, the server died); runs holds what was measured
 * @param notes   warnings raised during the run (client saturation, pinning, ...)
 */
public record Results(String target, String server, long bodyBytes, Map<String, Object> settings, String startedAt,
        String finishedAt, boolean partial, String partialReason, List<String> notes, List<RunRecord> runs) {

    public static final String SCHEMA = "spice-results/1";

    /** The latency bound of the useful peak, from the settings (100 ms if absent). */
    public double latencyBoundMs() {
        Object bound = settings.get("latency_bound_ms");
        return bound instanceof Number n ? n.doubleValue() : 100;
    }

    /**
     * The workload the efficiencies divide by: the settings' baseline ("fileset" or "file", the single static
     * file) when given; else the fileset if it ran, else the static probe.
     */
    public String baseline() {
        boolean filesetRan = runs.stream().anyMatch(r -> r.probe().equals(Summaries.FILESET));
        Object chosen = settings.get("baseline");
        if ("file".equals(chosen) || !filesetRan) {
            return Summaries.STATIC;
        }
        return Summaries.FILESET;
    }

    /** The SPICE summary, computed from the runs every time it is asked for. */
    public List<SpiceFigures.Summary> summary() {
        return Summaries.of(runs, latencyBoundMs(), baseline());
    }
}
