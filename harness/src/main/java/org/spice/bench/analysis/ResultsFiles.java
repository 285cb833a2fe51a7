package org.spice.bench.analysis;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import org.spice.bench.model.Results;
import org.spice.bench.model.ResultsJson;

/**
 * The one way to find what a bench wrote under a folder (a lesson's step, a sweep's size, a test's temporary folder):
 * every results.json under it, nearest the top first, and of them the one that answers for the run: the nearest (where
 * it ran servers side by side, theirs: each server's own results sit below it).
 */
public final class ResultsFiles {

    private ResultsFiles() {
    }

    /** Every results.json under {@code dir}, at any depth, the nearest the top first; none where {@code dir} is missing. */
    public static List<Path> all(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(p -> p.getFileName().toString().equals(ResultsJson.FILE))
                    .sorted(Comparator.comparingInt(Path::getNameCount).thenComparing(Path::toString)).toList();
        }
    }

    /**
     * The results.json that answers for the run under {@code dir}: the nearest the top (servers side by side write
     * theirs above each server's own); an IOException that says why where there is none.
     */
    public static Path under(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new IOException("no results in " + dir + " (its run did not start)");
        }
        List<Path> files = all(dir);
        if (files.isEmpty()) {
            throw new IOException("no results.json in " + dir + " (its run failed before it measured)");
        }
        return files.get(0);
    }

    /**
     * Writes DIR/results.json at a run's end (a bench's, an import's): the counts and the figures concluded from them,
     * once; returns the results with those figures, for the report to draw.
     */
    public static Results write(Path dir, Results results) throws IOException {
        Results concluded = Summaries.conclude(results);
        Summaries.write(dir, concluded);
        return concluded;
    }

    /**
     * One server's results.json (a results directory, or the file itself), read and checked, with its figures
     * concluded by the functions that conclude them ({@link Summaries#conclude}, {@link CostFigures#again}): the way
     * every reader reads it.
     */
    public static Results read(Path dirOrFile) throws IOException {
        Results read = ResultsJson.readResults(dirOrFile);
        // the cost curve's figures as this version computes them from its slices (a file may be older)
        return Summaries.conclude(read.costCurve() == null ? read : read.withCostCurve(CostFigures.again(read.costCurve())));
    }
}
