package org.spice.bench.report;

import org.spice.bench.model.Results;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

import org.spice.bench.model.RunRecord;

/**
 * The run's warnings, each condition once with the mixes where it holds ("servlet at 8, 16 clients; static
 * at 32"), instead of a line per mix.
 */
final class Warnings {

    private Warnings() {
    }

    /** The warning notes the engine writes once per mix, which {@link #of} derives from the runs instead. */
    private static final String PER_MIX_NOTE = "warning: the client used ";

    static List<String> of(Results results) {
        List<String> warnings = new ArrayList<>();
        if (results.partial()) {
            warnings.add("Partial results: " + results.partialReason() + ".");
        }
        for (RunRecord run : results.runs()) {
            if (run.failed()) {
                warnings.add(String.format(Locale.ROOT, "%s at %d clients (repeat %d) failed: %s.", run.probe(),
                        run.clients(), run.repeat(), run.reason()));
            }
        }
        where(warnings, results, RunRecord::clientSaturated, "The client used about a core or more (the client, not the"
                + " server, may be the limit; read the CPU figures there)");
        where(warnings, results, r -> !r.failed() && r.errorTotal() > 0, "Errors in mixes that counted");
        where(warnings, results, r -> !r.failed() && r.littleRatio() < 0.9, "Little's law below 0.9 (the clients"
                + " spent time outside their requests)");
        Set<String> others = new LinkedHashSet<>();
        for (String note : results.notes()) {
            if (!note.startsWith(PER_MIX_NOTE)) {
                others.add(note);
            }
        }
        warnings.addAll(others);
        return warnings;
    }

    /** One warning for a condition: "CONDITION: servlet at 8, 16 clients; static at 32 clients." */
    private static void where(List<String> warnings, Results results, Predicate<RunRecord> condition, String what) {
        Map<String, Set<Integer>> mixes = new LinkedHashMap<>();
        for (RunRecord run : results.runs()) {
            if (condition.test(run)) {
                mixes.computeIfAbsent(run.probe(), k -> new LinkedHashSet<>()).add(run.clients());
            }
        }
        if (mixes.isEmpty()) {
            return;
        }
        List<String> places = new ArrayList<>();
        mixes.forEach((probe, clients) -> places.add(probe + " at " + String.join(", ",
                clients.stream().sorted().map(String::valueOf).toList()) + " clients"));
        warnings.add(what + ": " + String.join("; ", places) + ".");
    }
}
