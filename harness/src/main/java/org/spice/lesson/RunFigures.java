package org.spice.lesson;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

import org.spice.bench.analysis.ResultsFiles;
import org.spice.bench.figures.ArmRatio;
import org.spice.bench.figures.Judge;
import org.spice.bench.figures.PairedRatio;
import org.spice.bench.figures.SpiceFigures;
import org.spice.bench.model.CpuRounds;
import org.spice.bench.model.Reference;
import org.spice.bench.model.Results;

/**
 * The figures one bench concluded, one server's or several side by side, as the lesson reads them: an arm's CPU per
 * request and two arms' ratio, paired round by round, each with its 95 % interval and the load it was taken at; the
 * lesson computes none of them.
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

        /**
         * "± 4.1 %, 14 rounds at 4,000 req/s offered" (or each arm's load where they differ); where the ratio holds 1,
         * its words ({@link #times}, {@link #costs}) carry the ± already, so only the rounds and the load: one ± a
         * clause.
         */
        String interval() {
            String ci = paired.holdsOne() ? "" : Cells.interval(relativeCi()) + ", ";
            String load = sameLoad() ? " at " + loadA : "; " + a + " at " + loadA + ", " + b + " at " + loadB;
            return ci + rounds() + (rounds() == 1 ? " round" : " rounds") + load;
        }
    }

    private final Path file;
    private final Results results;

    private RunFigures(Path file, Results results) {
        this.file = file;
        this.results = results;
    }

    /**
     * The figures of the bench under {@code dir}, as it concluded them: its side-by-side results.json where it has one
     * (the cross ratios, each arm's ratios to its own static file and its CPU per request), else its own.
     */
    static RunFigures in(Path dir) throws IOException {
        Path file = resultsIn(dir);
        Results results = ResultsFiles.read(file);
        if (results.cpuRounds() == null) {
            throw new IOException(file + " has no CPU rounds");
        }
        return new RunFigures(file, results);
    }

    /** The results.json under {@code dir} that answers for its run ({@link ResultsFiles#under}). */
    static Path resultsIn(Path dir) throws IOException {
        return ResultsFiles.under(dir);
    }

    /** The one server's results, or null side by side. */
    Results single() {
        return results.severalArms() ? null : results;
    }

    Path file() {
        return file;
    }

    /** The rounds the figures count (a round the JIT compiled through is left out). */
    int counted() {
        return results.cpuRounds().counted();
    }

    /** Whether the rounds measured {@code arm}. */
    boolean has(String arm) {
        return results.cpuRounds().rounds().stream().flatMap(r -> r.slices().stream()).anyMatch(t -> t.arm().equals(arm));
    }

    /**
     * {@code arm}'s CPU per request as the run concluded it: the static file's estimate over the rounds times the arm's
     * paired ratio to it (the arm's own estimate where its server has no static file in the run).
     */
    Cpu cpu(String arm) {
        int slash = arm.lastIndexOf('/');
        String probe = arm.substring(slash + 1);
        if (results.severalArms()) {
            String on = arm.substring(0, slash);
            return results.across().cpu().stream().filter(c -> c.arm().equals(on) && c.probe().equals(probe))
                    .map(c -> new Cpu(c.cpuUsPerReq(), c.cpuUsPerReqCi(), c.rounds(), load(arm))).findFirst()
                    .orElse(new Cpu(Double.NaN, Double.NaN, 0, load(arm)));
        }
        SpiceFigures.Rounds figures = results.summary().stream().filter(s -> s.probe().equals(probe))
                .map(SpiceFigures.Summary::rounds).filter(SpiceFigures.Rounds::measured).findFirst().orElse(null);
        if (figures == null) {
            return new Cpu(Double.NaN, Double.NaN, 0, load(arm));
        }
        int counted = Reference.STATIC.equals(probe) ? counted() : figures.cpuRounds();
        return new Cpu(figures.cpuUsPerReq(), figures.cpuUsPerReqCi(), counted, load(arm));
    }

    /**
     * {@code a}'s CPU per request against {@code b}'s, paired by round, as the run concluded it: a probe against its
     * own server's static file (either way round) from its summary or its own ratios (the static file's slices at the
     * probe's rate, where the rounds ran some at it); two probes of one server from its pair ratios; one probe on two
     * arms from the cross ratios. No figure where the run concluded none.
     */
    Ratio ratio(String a, String b) {
        PairedRatio paired = concluded(a, b);
        if (paired == null) {
            PairedRatio reverse = concluded(b, a);
            paired = reverse == null ? PairedRatio.NONE : reverse.inverse();
        }
        Double oneLoad = single() == null ? null : results.pairRatio(a, b).map(ArmRatio::atRps).orElse(null);
        if (oneLoad != null) {
            return new Ratio(a, b, paired, rate(oneLoad, CpuRounds.OFFERED), rate(oneLoad, CpuRounds.OFFERED));
        }
        return new Ratio(a, b, paired, load(against(a, b)), load(against(b, a)));
    }

    /** {@code a} against {@code b} as concluded that way round; null where it was not. */
    private PairedRatio concluded(String a, String b) {
        if (!results.severalArms()) {
            if (b.equals(CpuRounds.referenceOf(a))) {
                return results.summary().stream().filter(s -> s.probe().equals(a) && s.rounds().measured())
                        .map(s -> new PairedRatio(s.rounds().cpuRatio(), nan(s.rounds().cpuRatioLow()),
                                nan(s.rounds().cpuRatioHigh()), s.rounds().cpuRounds())).findFirst().orElse(null);
            }
            return results.pairRatios().stream().filter(r -> r.a().equals(a) && r.b().equals(b)).map(ArmRatio::paired)
                    .findFirst().orElse(null);
        }
        int slashA = a.lastIndexOf('/');
        int slashB = b.lastIndexOf('/');
        String armA = a.substring(0, slashA);
        String armB = b.substring(0, slashB);
        if (b.equals(CpuRounds.referenceOf(a))) {
            return results.across().own().stream().filter(o -> o.arm().equals(armA) && o.probe().equals(a.substring(
                    slashA + 1))).map(o -> new PairedRatio(o.ratio(), o.low(), o.high(), o.rounds())).findFirst()
                    .orElse(null);
        }
        return results.across().cross().stream().filter(c -> c.a().equals(armA) && c.b().equals(armB)
                && c.probe().equals(a.substring(slashA + 1)) && c.probeOfB().equals(b.substring(slashB + 1)))
                .map(c -> new PairedRatio(c.ratio(), c.low(), c.high(), c.rounds())).findFirst().orElse(null);
    }

    private static double nan(Double value) {
        return value == null ? Double.NaN : value;
    }

    /** The arm whose rate {@code arm}'s slices are taken at beside {@code other}: {@code other} if it is its static file's probe. */
    private static String against(String arm, String other) {
        return CpuRounds.referenceOf(other).equals(arm) ? other : arm;
    }

    /** Of {@code a} and {@code b}, the one whose own figures were taken at the higher rate. */
    String faster(String a, String b) {
        return results.cpuRounds().rateRps(a) >= results.cpuRounds().rateRps(b) ? a : b;
    }

    /** Whether the rounds' figures of {@code a} and {@code b} are each at the same rate (their own). */
    boolean sameRate(String a, String b) {
        return results.cpuRounds().rateRps(a) == results.cpuRounds().rateRps(b);
    }

    /** The load {@code arm} was taken at: "4,000 req/s offered" or "812 req/s achieved at 8 clients". */
    String load(String arm) {
        double rps = results.cpuRounds().rateRps(arm);
        if (Double.isNaN(rps)) {
            return "no counted round";
        }
        String kind = results.cpuRounds().rateKind(arm);
        return CpuRounds.OFFERED.equals(kind) ? rate(rps, kind) : rate(rps, kind) + " at " + results.cpuRounds().clients()
                + " clients";
    }

    /** "4,000 req/s offered": a rate and its kind. */
    private static String rate(double rps, String kind) {
        return String.format(Locale.ROOT, "%,.0f req/s %s", rps, kind);
    }
}
