package org.spice.bench.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

import org.spice.bench.figures.Counts;
import org.spice.bench.model.IdleCpu;
import org.spice.bench.model.Results;
import org.spice.bench.model.RunRecord;
import org.spice.bench.model.SteadyState;

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
                warnings.add(String.format(Locale.ROOT, "%s at %s (repeat %d) failed: %s.", run.probe(),
                        Counts.clients(run.clients()), run.repeat(), run.reason()));
            }
        }
        where(warnings, results, RunRecord::clientSaturated, "The client used about a core or more (the client, not the"
                + " server, may be the limit; read the CPU figures there)");
        where(warnings, results, r -> !r.failed() && r.errorTotal() > 0, "Errors in mixes that counted");
        where(warnings, results, r -> !r.failed() && r.littleRatio() < 0.9, "Little's law below 0.9 (the clients"
                + " spent time outside their requests)");
        measurement(warnings, results);
        Set<String> others = new LinkedHashSet<>();
        for (String note : results.notes()) {
            if (!note.startsWith(PER_MIX_NOTE)) {
                others.add(note);
            }
        }
        warnings.addAll(others);
        return warnings;
    }

    /**
     * Measurement warnings: a workload that never reached a steady state, a server CPU figure above the machine's
     * (impossible: a process counted twice, or accounting at the window's edges), and mixes whose CPU is mostly
     * the server's idle work.
     */
    private static void measurement(List<String> warnings, Results results) {
        for (SteadyState warm : results.steadyState()) {
            if (!warm.settled()) {
                warnings.add(String.format(Locale.ROOT, "%s did not reach a steady state in %.0f s of warm-up (%s):"
                        + " measured anyway; its first mixes may include the server warming up.", warm.workload(),
                        warm.seconds(), SteadyState.RULE));
            }
        }
        for (RunRecord run : results.runs()) {
            double srv = run.serverCpuUsPerReq();
            double mach = run.machineCpuUsPerReq();
            double margin = Double.isNaN(run.serverCpuUsPerReqCi()) ? 0 : run.serverCpuUsPerReqCi() + run.machineCpuUsPerReqCi();
            if (!run.failed() && srv > mach + (Double.isNaN(margin) ? 0 : margin)) {
                warnings.add(String.format(Locale.ROOT, "Measurement: %s at %s: the server's processes used"
                        + " %.0f µs per request, more than the whole machine less the client (%.0f µs), beyond the"
                        + " interval: one of the two is wrong there, so neither is a result.", run.probe(), Counts.clients(run.clients()),
                        srv, mach));
            }
        }
        IdleCpu idle = results.idle();
        if (idle != null) {
            where(warnings, results, r -> !r.failed() && IdleCpu.share(idle.serverCpuCores(), r.serverCpuS(), r.durationS())
                    > IdleCpu.FLAG, String.format(Locale.ROOT, "More than %.0f %% of the server's CPU per request is what"
                    + " it spends idle (%.3f cores with no load): few requests divide the background", 100 * IdleCpu.FLAG,
                    idle.serverCpuCores()));
        }
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
