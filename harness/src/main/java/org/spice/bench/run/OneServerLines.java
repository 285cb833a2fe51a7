package org.spice.bench.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.spice.bench.analysis.RoundFigures;
import org.spice.bench.figures.CpuSources;
import org.spice.bench.mix.Mix;
import org.spice.bench.model.CpuRounds;
import org.spice.bench.model.Reference;
import org.spice.bench.model.SteadyState;

/** What one server's CPU rounds say on stderr as they go: a line per round, and one per probe that leaves them. */
final class OneServerLines {

    private OneServerLines() {
    }

    /**
     * One line per round on stderr: the estimates so far of the probes that ran in it (static's CPU, each other's
     * ratio), with their intervals once there are enough rounds; a round left out says so and why.
     */
    static String progress(CpuRounds rounds, List<Mix> ran, CpuSources sourceOf) {
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "cpu round %d at %s",
                rounds.rounds().size(), rounds.load()));
        String note = rounds.rounds().get(rounds.rounds().size() - 1).generatorNote();
        if (note != null) {
            line.append(" (").append(note).append(')');
        }
        if (rounds.rounds().get(rounds.rounds().size() - 1).jitBusy()) {
            return line.append(String.format(Locale.ROOT, ": left out, the server's JIT was compiling through it (over"
                    + " %.0f %% of its CPU); %s", 100 * SteadyState.JIT_QUIET, rounds.counted() == 0 ? "no round counted yet"
                            : rounds.counted() + " counted so far")).toString();
        }
        Map<String, RoundFigures.Figures> figures = RoundFigures.of(rounds, probe -> sourceOf.of(null, probe));
        List<String> parts = new ArrayList<>();
        for (Mix mix : ran) {
            RoundFigures.Figures f = figures.get(mix.name());
            if (f != null && !parts.contains(mix.name())) {
                parts.add(figure(mix.name(), f));
            }
        }
        return line.append(String.format(Locale.ROOT, ", %d counted, so far: ", rounds.counted()))
                .append(String.join(", ", parts)).append(rounds.lastRoundSteal()).toString();
    }

    /** The line of a probe that leaves the rounds, its figure known to its aim: that figure, once. */
    static String done(CpuRounds rounds, String probe, CpuSources sourceOf) {
        RoundFigures.Figures f = RoundFigures.of(rounds, p -> sourceOf.of(null, p)).get(probe);
        return String.format(Locale.ROOT, "cpu rounds: %s done after %d rounds, its ratio within its aim (±%s %%): %s",
                probe, f.paired().rounds(), fmt(100 * f.aim()), figure(probe, f));
    }

    /** "static 88.1 µs ± 4.2 %", "servlet 0.934 × ± 3.9 %"; no interval before there are enough rounds. */
    private static String figure(String probe, RoundFigures.Figures f) {
        boolean reference = probe.equals(Reference.STATIC);
        if (Double.isNaN(reference ? f.cpuUsPerReq() : f.paired().ratio())) {
            return probe + " not measured yet";
        }
        double relative = reference ? f.cpuUsPerReqCi() / f.cpuUsPerReq() : f.paired().relativeCi();
        String value = reference ? String.format(Locale.ROOT, "%.1f µs", f.cpuUsPerReq())
                : String.format(Locale.ROOT, "%.3f ×", f.paired().ratio());
        return probe + " " + value + (Double.isNaN(relative) ? "" : " ± " + pct(relative));
    }

    private static String pct(double relative) {
        return Double.isNaN(relative) ? "-" : String.format(Locale.ROOT, "%.1f %%", 100 * relative);
    }

    private static String fmt(double value) {
        return String.format(Locale.ROOT, "%.0f", value);
    }
}
