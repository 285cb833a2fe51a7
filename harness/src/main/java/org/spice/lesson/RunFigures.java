package org.spice.lesson;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

import org.spice.bench.analysis.CrossResults;
import org.spice.bench.analysis.ResultsFiles;
import org.spice.bench.analysis.RoundFigures;
import org.spice.bench.figures.CpuSources;
import org.spice.bench.figures.Judge;
import org.spice.bench.figures.PairedRatio;
import org.spice.bench.figures.SpiceFigures;
import org.spice.bench.model.CpuRounds;
import org.spice.bench.model.Reference;
import org.spice.bench.model.Results;
import org.spice.bench.model.ResultsJson;

/**
 * The CPU rounds of one bench, one server's or several side by side, as the lesson reads them: any arm's CPU per
 * request and any two arms' ratio, paired round by round, each with its 95 % interval and the load it was taken at.
 * An arm is a probe ("cgi") for one server, "server/probe" or "server:protocol/probe" side by side.
 */
final class RunFigures {

    /** A CPU per request, µs, with half its 95 % interval (µs), over {@code rounds} rounds, at {@code load}. */
    record Cpu(double us, double ciUs, int rounds, String load) {
        double relativeCi() {
            return ciUs / us;
        }
    }

    /**
     * Two arms' ratio, paired by round: the estimate, its 95 % interval's relative half-width, the rounds, and the
     * load each arm was taken at (the same words twice where they ran at one rate).
     */
    record Ratio(String a, String b, PairedRatio paired, String loadA, String loadB) {
        double value() {
            return paired.ratio();
        }

        double relativeCi() {
            return paired.relativeCi();
        }

        int rounds() {
            return paired.rounds();
        }

        boolean sameLoad() {
            return loadA.equals(loadB);
        }

        /**
         * The ratio in words that stay inside its interval ({@link Judge}): "2.5 × what WHAT costs", or where the
         * interval holds 1 "what WHAT costs (the same within ± 3.2 %)", the bound the farthest end of the interval
         * stands from 1.
         */
        String costs(String what) {
            return switch (Judge.call(paired.interval())) {
                case SAME -> "what " + what + " costs (" + times() + ")";
                case TOO_WIDE -> Judge.words(paired.interval(), "what " + what + " costs");
                default -> Cells.times(value()) + " what " + what + " costs";
            };
        }

        /** The multiple alone, inside its interval: "2.5 ×", or where the interval holds 1 "the same within ± 3.2 %". */
        String times() {
            return paired.holdsOne() ? Judge.words(paired.interval()) : Cells.times(value());
        }

        /** "± 4.1 %, 14 rounds at 4,000 req/s offered" (or each arm's load where they differ). */
        String interval() {
            String ci = Cells.interval(relativeCi());
            String load = sameLoad() ? " at " + loadA : "; " + a + " at " + loadA + ", " + b + " at " + loadB;
            return ci + ", " + rounds() + (rounds() == 1 ? " round" : " rounds") + load;
        }
    }

    private final Path file;
    private final CpuRounds rounds;
    private final CpuSources sources;
    private final Results single;

    private RunFigures(Path file, CpuRounds rounds, CpuSources sources, Results single) {
        this.file = file;
        this.rounds = rounds;
        this.sources = sources;
        this.single = single;
    }

    /** The figures of the bench under {@code dir}: its side-by-side results.json where it has one, else its own. */
    static RunFigures in(Path dir) throws IOException {
        Path file = resultsIn(dir);
        if (CrossResults.isSideBySide(file)) {
            CrossResults.Read read = CrossResults.read(file);
            return new RunFigures(file, read.starts().get(read.starts().size() - 1), read.sourceOf(), null);
        }
        Results results = ResultsJson.read(file);
        if (results.cpuRounds() == null) {
            throw new IOException(file + " has no CPU rounds");
        }
        return new RunFigures(file, results.cpuRounds(), (arm, probe) -> results.cpuSource(probe), results);
    }

    /** The results.json under {@code dir} that answers for its run ({@link ResultsFiles#under}). */
    static Path resultsIn(Path dir) throws IOException {
        return ResultsFiles.under(dir);
    }

    /** The one server's results, or null side by side. */
    Results single() {
        return single;
    }

    Path file() {
        return file;
    }

    /** The rounds the figures count (a round the JIT compiled through is left out). */
    int counted() {
        return rounds.counted();
    }

    /** Whether the rounds measured {@code arm}. */
    boolean has(String arm) {
        return rounds.rounds().stream().flatMap(r -> r.slices().stream()).anyMatch(t -> t.arm().equals(arm));
    }

    /**
     * {@code arm}'s CPU per request: as the bench's own table gives it, the static file's estimate over the rounds
     * times the arm's paired ratio to it (the arm's own estimate where its server has no static file in the run).
     */
    Cpu cpu(String arm) {
        int slash = arm.lastIndexOf('/');
        String server = slash < 0 ? null : arm.substring(0, slash);
        String probe = arm.substring(slash + 1);
        CpuRounds own = server == null ? rounds : rounds.of(server);
        RoundFigures.Figures figures = RoundFigures.of(own, p -> sources.of(server, p)).get(probe);
        if (figures == null) {
            return new Cpu(Double.NaN, Double.NaN, 0, load(arm));
        }
        int counted = Reference.STATIC.equals(probe) ? own.counted() : figures.paired().rounds();
        return new Cpu(figures.cpuUsPerReq(), figures.cpuUsPerReqCi(), counted, load(arm));
    }

    /**
     * {@code a}'s CPU per request against {@code b}'s, paired by round; a probe against its own server's static file
     * (either way round) takes the static file's slices at the probe's rate, where the rounds ran some at it.
     */
    Ratio ratio(String a, String b) {
        PairedRatio paired = PairedRatio.of(series(a, b), series(b, a));
        return new Ratio(a, b, paired, load(against(a, b)), load(against(b, a)));
    }

    /** The arm whose rate {@code arm}'s slices are taken at beside {@code other}: {@code other} if it is its static file's probe. */
    private static String against(String arm, String other) {
        return CpuRounds.referenceOf(other).equals(arm) ? other : arm;
    }

    private double[] series(String arm, String other) {
        int slash = arm.lastIndexOf('/');
        SpiceFigures.CpuSource source = sources.of(slash < 0 ? null : arm.substring(0, slash), arm.substring(slash + 1));
        return against(arm, other).equals(arm) ? RoundFigures.series(rounds, arm, source)
                : RoundFigures.referenceSeries(rounds, other, source);
    }

    /** The load {@code arm} was taken at: "4,000 req/s offered" or "812 req/s achieved at 8 clients". */
    String load(String arm) {
        double rps = rounds.rateRps(arm);
        if (Double.isNaN(rps)) {
            return "no counted round";
        }
        String kind = rounds.rateKind(arm);
        String rate = String.format(Locale.ROOT, "%,.0f req/s %s", rps, kind);
        return CpuRounds.OFFERED.equals(kind) ? rate : rate + " at " + rounds.clients() + " clients";
    }
}
