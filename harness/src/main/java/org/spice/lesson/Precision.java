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
 * How precise a question's answer is, said under it: whether its run's rounds reached their aim or stopped at their
 * time bound first (--quick bounds them to fit a class), and the widest interval among the answer's figures. Read
 * from every results.json under the run's folder (a sweep writes one per page size); nothing where none has rounds.
 */
final class Precision {

    private Precision() {
    }

    /** The sentence for the answer read from {@code runDir}, or null where its run had no CPU rounds. */
    static String of(Path runDir, Answer answer) throws IOException {
        List<CpuRounds> all = new ArrayList<>();
        for (Path file : ResultsFiles.all(runDir)) {
            Results results = ResultsFiles.read(file);
            if (results.cpuRounds() != null) {
                all.add(results.cpuRounds());
            }
        }
        OptionalDouble widest = answer.figures().stream().mapToDouble(Answer.Figure::relativeCi)
                .filter(Double::isFinite).max();
        return of(all, widest);
    }

    /** The sentence for rounds {@code all} and the widest relative half-interval among the figures (empty: none). */
    static String of(List<CpuRounds> all, OptionalDouble widest) {
        if (all.isEmpty()) {
            return null;
        }
        String aim = Cells.interval(all.stream().mapToDouble(CpuRounds::precision).min().orElseThrow());
        String wide = widest.isPresent() ? "; the widest interval here is " + Cells.interval(widest.getAsDouble()) : "";
        OptionalDouble boundS = all.stream().filter(CpuRounds::stoppedAtTimeBound).mapToDouble(CpuRounds::timeBoundS).max();
        if (boundS.isPresent()) {
            return String.format(Locale.ROOT, "Precision: the rounds stopped at their time bound (%.0f s) before every"
                    + " figure reached its aim (%s)%s. A longer run narrows it: without --quick, or with a larger"
                    + " --cpu-time.", boundS.getAsDouble(), aim, wide);
        }
        return "Precision: every figure reached its aim (" + aim + ") before the rounds' time bound" + wide + ".";
    }
}
