package org.spice.lesson;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

import org.spice.bench.analysis.ResultsFiles;
import org.spice.bench.model.CpuRounds;
import org.spice.bench.model.Results;

/**
 * How precise a question's paired figures are, said under its answer: whether the rounds they come from went on until
 * every figure reached its aim, stopped at their time bound first (--quick bounds them to fit a class), or did not run
 * to their end; and the widest interval among them. Read from every results.json under the run's folder; nothing for
 * an answer with no figure paired over rounds (the warm-up's slices of question 4, the line fits of question 5, whose
 * table carries its own intervals) or where the rounds cannot be read.
 */
final class Precision {

    private Precision() {
    }

    /** The sentence for the answer read from {@code runDir}, or null (see the class). */
    static String of(Path runDir, Answer answer, boolean quick) {
        List<Answer.Figure> paired = answer.figures().stream().filter(f -> f.rounds() > 0).toList();
        if (paired.isEmpty()) {
            return null;
        }
        OptionalDouble widest = paired.stream().mapToDouble(Answer.Figure::relativeCi).filter(Double::isFinite).max();
        List<CpuRounds> all = new ArrayList<>();
        try {
            for (Path file : ResultsFiles.all(runDir)) {
                Results results = ResultsFiles.read(file);
                if (results.cpuRounds() != null) {
                    all.add(results.cpuRounds());
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;   // the answer stands on what its reading read; its precision is not said
        }
        return of(all, widest, quick);
    }

    /**
     * The sentence for rounds {@code all} (one server's, or side by side every results.json's) and the widest relative
     * half-interval among the answer's paired figures (empty: none had one); null without rounds.
     */
    static String of(List<CpuRounds> all, OptionalDouble widest, boolean quick) {
        if (all.isEmpty()) {
            return null;
        }
        String aim = Cells.interval(all.stream().mapToDouble(CpuRounds::precision).min().orElseThrow())
                + ", twice that for a probe costing over twice the static file";
        String wide = widest.isPresent() ? "; the widest interval here is " + Cells.interval(widest.getAsDouble()) : "";
        String longer = quick ? "the lesson without --quick, or SPICE_LESSON_OPTIONS=\"--cpu-time N\" with a larger N"
                : "SPICE_LESSON_OPTIONS=\"--cpu-time N\" with N above the run's";
        CpuRounds unfinished = all.stream().filter(r -> !r.stoppedAtTimeBound() && !r.reachedAim()).findFirst()
                .orElse(null);
        if (unfinished != null) {
            return "Precision: the rounds did not run to their end (" + (unfinished.stopped() == null
                    ? "no record of why" : unfinished.stopped()) + "): the intervals are those of the rounds before" + wide
                    + ".";
        }
        OptionalDouble boundS = all.stream().filter(CpuRounds::stoppedAtTimeBound).mapToDouble(CpuRounds::timeBoundS).max();
        if (boundS.isPresent()) {
            return String.format(Locale.ROOT, "Precision: the rounds stopped at their time bound (%.0f s) before every"
                    + " paired figure reached its aim (%s)%s. A longer run narrows it: %s.", boundS.getAsDouble(), aim,
                    wide, longer);
        }
        return "Precision: the rounds went on until every paired figure reached its aim (" + aim + ")" + wide + ".";
    }
}
