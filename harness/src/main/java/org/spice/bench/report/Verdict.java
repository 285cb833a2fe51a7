package org.spice.bench.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import org.spice.bench.figures.Intervals;
import org.spice.bench.figures.Judge;
import org.spice.bench.figures.SpiceFigures;
import org.spice.bench.model.Reference;
import org.spice.bench.model.Results;
import org.spice.bench.model.RunRecord;
import org.spice.page.Probe;

/**
 * The answer, in a few sentences generated from the figures, in the white paper's spirit: what each
 * interface costs on this server against a static file, in server CPU per request and in request rate;
 * which is cheapest and dearest; where the rates are the client's limit; the useful peak; what failed.
 */
final class Verdict {

    private Verdict() {
    }

    /** What every sentence reads: the results, their summaries, the baseline and the probes measured against it. */
    private record Run(Results results, List<SpiceFigures.Summary> summaries, String reference, SpiceFigures.Summary base,
            String server, String baseName, List<SpiceFigures.Summary> probes) {

        static Run of(Results results) {
            List<SpiceFigures.Summary> summaries = results.summary();
            String reference = results.baseline();
            SpiceFigures.Summary base = summaries.stream().filter(s -> s.probe().equals(reference)).findFirst().orElse(null);
            return new Run(results, summaries, reference, base, results.server() != null ? results.server() : results.target(),
                    reference.equals(Reference.FILESET) ? "the static fileset" : "the static file",
                    summaries.stream().filter(s -> !s.probe().equals(reference) && (!s.failed() || s.rounds().measured()))
                            .toList());
        }

        /** Whether {@code probe} ran at an offered rate (--rate, an open-loop import): it has no ladder of its own. */
        boolean ranOpenLoop(String probe) {
            return results.openLoop().stream().anyMatch(r -> r.probe().equals(probe));
        }

        /** The probes with a CPU figure, cheapest first. */
        List<SpiceFigures.Summary> byCpu() {
            return probes.stream().filter(s -> !Double.isNaN(s.cpuUsPerReqAtPeak()))
                    .sorted(Comparator.comparingDouble(SpiceFigures.Summary::cpuUsPerReqAtPeak)).toList();
        }

        /** The probes with a request efficiency, the most efficient first. */
        List<SpiceFigures.Summary> byRate() {
            return probes.stream().filter(s -> !Double.isNaN(s.requestEfficiencyAtPeak()))
                    .sorted(Comparator.comparingDouble(SpiceFigures.Summary::requestEfficiencyAtPeak).reversed()).toList();
        }
    }

    static List<String> of(Results results, CgiFloor floor) {
        Run run = Run.of(results);
        List<String> sentences = new ArrayList<>();
        sentences.add(what(run));
        add(sentences, noBaseline(run));
        sentences.addAll(cpu(run));
        add(sentences, askedPairs(run.results()));
        add(sentences, cgiFloor(run, floor));
        add(sentences, rate(run));
        add(sentences, clientBound(run));
        add(sentences, usefulPeak(run));
        add(sentences, OverloadReport.sentence(results));
        sentences.addAll(failures(run));
        return sentences;
    }

    private static void add(List<String> sentences, String sentence) {
        if (sentence != null) {
            sentences.add(sentence);
        }
    }

    /** Which server, protocol, page size and engine. */
    private static String what(Run run) {
        Method method = Method.of(run.results());
        return String.format(Locale.ROOT, "On %s, over %s, with a %,d-byte page, measured by %s.", run.server(),
                method.protocol(), method.bodyBytes(), method.engine());
    }

    /** Said when the baseline has no figure: not for a run at offered rates, where it ran in the open loop. */
    private static String noBaseline(Run run) {
        return !run.ranOpenLoop(run.reference()) && (run.base() == null || run.base().failed() && !run.base().rounds().measured())
                ? "The static baseline did not run (or failed), so no efficiency can be given: run the static probe"
                        + " beside the others." : null;
    }

    /**
     * The interfaces in server CPU per request against the static file: those whose 95 % intervals overlap static's
     * cost what it costs, in one sentence; only the distinguishable ones are ranked. Without intervals, the ranking
     * is said to be inside the usual noise. Then where the figures come from.
     */
    private static List<String> cpu(Run run) {
        if (run.base() != null && run.base().rounds().measured()) {
            return CpuVerdict.of(run.results(), run.base(), run.baseName(), run.probes());
        }
        List<SpiceFigures.Summary> byCpu = run.byCpu();
        List<String> sentences = new ArrayList<>();
        if (byCpu.isEmpty() && run.base() != null && !Double.isNaN(run.base().cpuUsPerReqAtPeak())) {
            sentences.add("Only " + run.baseName() + "'s server CPU was measured: " + Format.words(run.base()
                    .cpuUsPerReqAtPeak()) + " µs per request" + Format.plusMinus(run.base().noise().cpuUsPerReqAtPeakCi(), 0)
                    .replace("±", " ± ") + " at its peak; no other probe counted before the run ended (see below).");
            return sentences;
        }
        if (byCpu.isEmpty() && run.results().openLoop().stream().anyMatch(r -> !Double.isNaN(r.serverCpuUsPerReq()))) {
            sentences.add("Server CPU was measured at the offered rates alone: the open loop's table gives it per request"
                    + " for each probe at its rate.");
            return sentences;
        }
        if (byCpu.isEmpty()) {
            sentences.add("No server CPU was measured (the notes below say why), so what an interface costs is told here"
                    + " by rates and latencies alone.");
            return sentences;
        }
        boolean intervals = run.base() != null && byCpu.stream().allMatch(SpiceFigures.Summary::cpuIntervalsKnown);
        sentences.add(intervals ? cpuWithNoise(run, byCpu) : cpuRanked(run, byCpu)
                + " These figures have no interval (windows under 2 s without repeats, or results from before SPICE"
                + " kept slices): a difference of 10-20 % may be noise.");
        List<String> reaped = byCpu.stream().filter(s -> s.cpuSource() == SpiceFigures.CpuSource.MACHINE
                && run.results().cpuSource(s.probe()) == SpiceFigures.CpuSource.MACHINE)
                .map(SpiceFigures.Summary::probe).toList();
        if (!reaped.isEmpty()) {
            sentences.add("The CPU of " + String.join(", ", reaped) + " is the whole machine's less the client's: "
                    + run.results().cgiUnseenBecause() + ".");
        }
        if (byCpu.stream().anyMatch(s -> Double.isNaN(s.serverCpuUsPerReqAtPeak()))) {
            sentences.add("The server's processes were not given (bench --server-pid), so the CPU figures are the whole"
                    + " machine's less the client's: on a machine that runs nothing else, the server's.");
        }
        return sentences;
    }

    /**
     * The pairs --pairs asked for, each in the one judge's words, with its rounds and the one load both arms ran at:
     * "Paired by round, as asked (--pairs): cgi costs 1.79 × wasm's (1.62 to 1.90), 10 rounds, both at 650 req/s
     * offered; ...".
     * Null where none was asked or none concluded.
     */
    static String askedPairs(Results results) {
        if (results.cpuRounds() == null) {
            return null;
        }
        List<String> said = new ArrayList<>();
        for (String pair : results.cpuRounds().pairs()) {
            String a = pair.substring(0, pair.indexOf('/'));
            String b = pair.substring(pair.indexOf('/') + 1);
            results.pairRatio(a, b).ifPresent(r -> said.add(a + " costs " + Judge.words(r.paired().interval(), b + "'s")
                    + ", " + r.rounds() + " rounds, " + (r.atRps() == null ? "each at its own rate"
                            : String.format(Locale.ROOT, "both at %,.0f req/s offered", r.atRps()))));
        }
        return said.isEmpty() ? null : "Paired by round, as asked (--pairs): " + String.join("; ", said) + ".";
    }

    /** The ranking by CPU per request, cheapest and dearest first, as when no interval is known. */
    private static String cpuRanked(Run run, List<SpiceFigures.Summary> byCpu) {
        SpiceFigures.Summary cheapest = byCpu.get(0);
        SpiceFigures.Summary dearest = byCpu.get(byCpu.size() - 1);
        SpiceFigures.Summary base = run.base();
        String baseCpu = base == null || Double.isNaN(base.cpuUsPerReqAtPeak()) ? ""
                : " (" + run.baseName() + " at its peak: " + Format.words(base.cpuUsPerReqAtPeak()) + " µs)";
        if (byCpu.size() == 1) {
            return String.format(Locale.ROOT, "In server CPU per request, %s costs %s µs%s%s.", cheapest.probe(),
                    Format.words(cheapest.cpuUsPerReqAtPeak()), timesBase(cheapest), baseCpu);
        }
        return String.format(Locale.ROOT, "In server CPU per request, the cheapest interface is %s, %s µs%s;"
                + " the dearest is %s, %s µs%s.", cheapest.probe(), Format.words(cheapest.cpuUsPerReqAtPeak()),
                timesBase(cheapest), dearest.probe(), Format.words(dearest.cpuUsPerReqAtPeak()), timesBase(dearest))
                + (byCpu.size() > 2 ? " In order: " + String.join(", ", byCpu.stream()
                        .map(s -> s.probe() + " " + Format.words(s.cpuUsPerReqAtPeak())).toList()) + " µs" + baseCpu + "." : "");
    }

    /**
     * "In server CPU per request against the static file's at the same client count (95 % intervals), servlet and jsp
     * cost the same as the static file within ± 6.0 %; shtml 810 µs, 2.10 × the static file's (1.90 to 2.30)": each
     * ratio as {@link Judge} words it.
     */
    private static String cpuWithNoise(Run run, List<SpiceFigures.Summary> byCpu) {
        List<SpiceFigures.Summary> same = run.probes().stream().filter(byCpu::contains)
                .filter(s -> Judge.call(s.cpuRatioInterval()) == Judge.Call.SAME).toList();
        List<SpiceFigures.Summary> others = byCpu.stream()
                .filter(s -> Judge.call(s.cpuRatioInterval()) != Judge.Call.SAME).toList();
        boolean fewWindows = byCpu.stream().anyMatch(s -> s.repeats() < SpiceFigures.MIN_REPEATS_AS_BATCHES);
        StringBuilder sentence = new StringBuilder("In server CPU per request against " + run.baseName() + "'s at the"
                + " same client count (" + Format.words(run.base().cpuUsPerReqAtPeak()) + " µs at its peak; 95 % intervals"
                + (fewWindows ? String.format(Locale.ROOT, ", with ±%.0f %% for the drift between windows: --repeat %d"
                        + " takes it from the repeats themselves", Intervals.BETWEEN_WINDOWS * 100,
                        SpiceFigures.MIN_REPEATS_AS_BATCHES) : "") + "), ");
        if (!same.isEmpty()) {
            sentence.append(Format.list(same.stream().map(SpiceFigures.Summary::probe).toList()))
                    .append(same.size() == 1 ? " costs" : " cost").append(" the same as ").append(run.baseName())
                    .append(' ').append(Judge.within(same.stream().map(SpiceFigures.Summary::cpuRatioInterval).toList()));
        }
        if (!others.isEmpty()) {
            sentence.append(same.isEmpty() ? "" : "; ").append(String.join("; ", others.stream().map(s -> s.probe()
                    + " " + Format.words(s.cpuUsPerReqAtPeak()) + " µs, " + Judge.words(s.cpuRatioInterval(),
                            run.baseName() + "'s")).toList()));
        }
        return sentence.append('.').toString();
    }

    /** How much of a CGI request is starting the program, once cgi-floor has measured it. */
    private static String cgiFloor(Run run, CgiFloor floor) {
        SpiceFigures.Summary cgi = run.probes().stream().filter(s -> s.probe().equals(Probe.CGI.id())).findFirst().orElse(null);
        if (floor == null || cgi == null || !(cgi.cpuUs() > 0)) {
            return null;
        }
        double start = Math.min(floor.startCpuUs(), cgi.cpuUs());
        return String.format(Locale.ROOT, "Of cgi's %s µs, starting the program (fork, exec, wait) takes %s µs"
                + " (%s); the rest, %s µs, is the server's CGI plumbing.", Format.words(cgi.cpuUs()),
                Format.words(start), Format.percentWords(start / cgi.cpuUs()),
                Format.words(cgi.cpuUs() - start));
    }

    /** Each probe's peak rate against the baseline's at the same client count. */
    private static String rate(Run run) {
        List<SpiceFigures.Summary> byRate = run.byRate();
        SpiceFigures.Summary base = run.base();
        if (byRate.isEmpty() || base == null || base.failed()) {
            return null;
        }
        return String.format(Locale.ROOT, "In request rate, %s peaked at %s req/s (%d clients); at their"
                + " peaks the others reached, against it at the same client count: %s.", run.baseName(),
                Format.words(base.peakRateRps()), base.peakClients(), String.join(", ", byRate.stream()
                        .map(s -> s.probe() + " " + Format.percentWords(s.requestEfficiencyAtPeak())
                                + " (" + Format.words(s.peakRateRps()) + " req/s)").toList()));
    }

    /** Where the client, not the server, was the limit, or why a probe could out-run the static file. */
    private static String clientBound(Run run) {
        List<String> clientBound = new ArrayList<>();
        for (RunRecord peak : ReportData.peakRuns(run.results())) {
            if (peak.clientSaturated()) {
                clientBound.add(peak.probe());
            }
        }
        boolean aboveBase = run.byRate().stream().anyMatch(s -> s.requestEfficiencyAtPeak() > 1.05);
        if (!clientBound.isEmpty()) {
            return "At the peak of " + String.join(", ", clientBound) + " the client used about a core: those"
                    + " rates are the client's limit as much as the server's" + (aboveBase
                            ? " (which is how a probe can seem faster than the static file)" : "")
                    + ", and the CPU per request is the figure to trust.";
        }
        return aboveBase ? "Some probes out-ran the static file: within the run-to-run noise, or the static handler"
                + " does more work per request (a file to open and check) than an in-memory page." : null;
    }

    /** The useful peaks that are not the peaks (a useful peak at the peak says nothing the peak did not). */
    private static String usefulPeak(Run run) {
        List<SpiceFigures.Summary> differ = run.summaries().stream().filter(SummaryTable::usefulPeakDiffers).toList();
        if (differ.isEmpty()) {
            return run.summaries().stream().anyMatch(s -> !s.failed()) ? String.format(Locale.ROOT, "Every probe's peak is"
                    + " also its useful peak (Jain fairness ≥ %.2f, mean latency ≤ %s ms).", SpiceFigures.FAIR,
                    Format.num(run.results().latencyBoundMs(), 0)) : null;
        }
        return String.format(Locale.ROOT, "Useful peak (Jain fairness ≥ %.2f, mean latency ≤ %s ms), where it is not the"
                + " peak: %s.", SpiceFigures.FAIR, Format.num(run.results().latencyBoundMs(), 0), String.join(", ",
                        differ.stream().map(s -> s.probe() + (Double.isNaN(s.usefulPeakRps()) ? " none" : " "
                                + Format.words(s.usefulPeakRps()) + " req/s @ " + s.usefulPeakClients())).toList()));
    }

    /** Whether the run is partial, and what failed. */
    private static List<String> failures(Run run) {
        Results results = run.results();
        List<String> sentences = new ArrayList<>();
        long failedMixes = results.runs().stream().filter(RunRecord::failed).count();
        // a probe run at an offered rate has no ladder of its own, which is not a failure
        List<String> failedProbes = run.summaries().stream().filter(SpiceFigures.Summary::failed)
                .map(SpiceFigures.Summary::probe).filter(p -> !run.ranOpenLoop(p)).toList();
        if (results.partial()) {
            sentences.add("These results are partial: " + results.partialReason() + ".");
        }
        if (!failedProbes.isEmpty()) {
            sentences.add("No mix of " + String.join(", ", failedProbes) + " counted: see the warnings.");
        } else if (failedMixes > 0) {
            sentences.add(failedMixes + (failedMixes == 1 ? " mix failed and is" : " mixes failed and are")
                    + " left out of the figures: see the warnings.");
        } else if (!results.partial()) {
            sentences.add("Every mix counted.");
        }
        return sentences;
    }

    /** The verdict for the terminal, after the tables. */
    static String text(Results results, CgiFloor floor) {
        StringBuilder out = new StringBuilder("\n");
        for (String sentence : of(results, floor)) {
            out.append(sentence).append('\n');
        }
        return out.toString();
    }

    private static String timesBase(SpiceFigures.Summary s) {
        return Double.isNaN(s.cpuEfficiency()) ? "" : ", " + Format.times(1 / s.cpuEfficiency()) + " static's at "
                + s.peakClients() + (s.peakClients() == 1 ? " client" : " clients");
    }
}
