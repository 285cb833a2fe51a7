package org.spice.bench.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import org.spice.bench.figures.Judge;
import org.spice.bench.figures.SpiceFigures;
import org.spice.bench.model.CpuFrom;
import org.spice.bench.model.CpuPlan;
import org.spice.bench.model.CpuRounds;
import org.spice.bench.model.Results;

/**
 * The answer in server CPU per request when the paired rounds ran: the static file's cost with its interval, then each
 * interface as a ratio to it ("servlet costs 0.97 × the static file's CPU (± 3.7 %)"), those whose interval holds 1 as
 * the static file's cost within ±x %; and whether the precision asked was reached.
 */
final class CpuVerdict {

    /** Where a figure has no interval: under {@code RoundFigures.MIN_ROUNDS} rounds counted. */
    private static final String TOO_FEW = "too few rounds counted for an interval";

    private CpuVerdict() {
    }

    static List<String> of(Results results, SpiceFigures.Summary base, String baseName, List<SpiceFigures.Summary> probes) {
        CpuRounds rounds = results.cpuRounds();
        List<String> sentences = new ArrayList<>();
        SpiceFigures.Rounds b = base.rounds();
        sentences.add(String.format(Locale.ROOT, "In server CPU per request, from %d rounds at %s, each a slice of"
                + " every probe still measured beside %s's in a shuffled order (Hodges-Lehmann estimates, with 95 %%"
                + " intervals from Wilcoxon's signed-rank statistic across the rounds), %s costs %s µs (%s).",
                b.cpuRounds(), rounds.oneRate() ? rounds.load() + " to every probe"
                        : rounds.load(), baseName, baseName,
                Format.words(b.cpuUsPerReq()), Double.isNaN(b.cpuUsPerReqCi()) ? TOO_FEW
                        : "± " + Format.percentWords(b.cpuUsPerReqCi() / b.cpuUsPerReq())));
        List<SpiceFigures.Summary> measured = probes.stream().filter(s -> s.rounds().measured() && s.rounds().cpuRatio() != null
                && !Double.isNaN(s.rounds().cpuRatio())).sorted(Comparator.comparingDouble(s -> s.rounds().cpuRatio())).toList();
        String ranked = ranked(measured, baseName);
        if (ranked != null) {
            sentences.add(ranked);
        }
        if (!rounds.openLoop() && !measured.isEmpty()) {
            sentences.add(ownRates(rounds, base.probe(), baseName, measured));
        }
        List<SpiceFigures.Summary> atClients = measured.stream().filter(s -> !rounds.offeredTo(s.probe())).toList();
        if (rounds.openLoop() && !atClients.isEmpty()) {
            sentences.add(farRates(rounds, baseName, atClients));
        }
        List<SpiceFigures.Summary> apart = measured.stream().filter(s -> rounds.farOfferedRps().containsKey(s.probe()))
                .toList();
        if (!apart.isEmpty()) {
            sentences.add(ownOfferedRates(rounds, baseName, apart));
        }
        List<String> machine = measured.stream().filter(s -> s.cpuSource() == SpiceFigures.CpuSource.MACHINE)
                .map(SpiceFigures.Summary::probe).toList();
        if (!machine.isEmpty()) {
            sentences.add("The CPU of " + Format.list(machine) + " is the whole machine's less the client's: "
                    + results.cgiUnseenBecause() + " (a server SPICE starts in a cgroup of its own counts them itself).");
        }
        sentences.addAll(shortOfAim(results, base.probe(), baseName));
        String tool = loadTool(results, base, measured);
        if (tool != null) {
            sentences.add(tool);
        }
        return sentences;
    }

    /**
     * How much of the machine the load tool took beside the server, where both ran here: its CPU per request through
     * each probe's slices, and the share of the machine's CPUs busy meanwhile; null where not read.
     */
    static String loadTool(Results results, SpiceFigures.Summary base, List<SpiceFigures.Summary> measured) {
        List<SpiceFigures.Summary> all = new ArrayList<>(List.of(base));
        all.addAll(measured);
        List<SpiceFigures.Summary> read = all.stream().filter(s -> s.rounds().clientCpuUsPerReq() != null
                && Double.isFinite(s.rounds().clientCpuUsPerReq())).toList();
        if (read.isEmpty() || results.cpuFrom() == CpuFrom.EXPORTERS) {
            return null;
        }
        SpiceFigures.Summary least = read.stream().min(Comparator.comparingDouble(s -> s.rounds().clientCpuUsPerReq()))
                .orElseThrow();
        SpiceFigures.Summary most = read.stream().max(Comparator.comparingDouble(s -> s.rounds().clientCpuUsPerReq()))
                .orElseThrow();
        double[] busy = read.stream().map(s -> s.rounds().machineBusyShare()).filter(b -> b != null && Double.isFinite(b))
                .mapToDouble(Double::doubleValue).sorted().toArray();
        boolean alike = Format.words(least.rounds().clientCpuUsPerReq()).equals(Format.words(most.rounds()
                .clientCpuUsPerReq()));
        String cpu = alike ? Format.words(least.rounds().clientCpuUsPerReq()) + " µs of CPU a request"
                : String.format(Locale.ROOT, "%s to %s µs of CPU a request (%s %s, %s %s)",
                        Format.words(least.rounds().clientCpuUsPerReq()), Format.words(most.rounds().clientCpuUsPerReq()),
                        least.probe(), Format.words(least.rounds().clientCpuUsPerReq()), most.probe(),
                        Format.words(most.rounds().clientCpuUsPerReq()));
        String machine = busy.length == 0 ? "" : String.format(Locale.ROOT, ", and the machine's %d CPUs were %s busy"
                + " through the slices", results.settings().clientCpus(), busy[0] == busy[busy.length - 1]
                        ? Format.percentWords(busy[0]) : Format.percentWords(busy[0]).replace(" %", "") + " to "
                                + Format.percentWords(busy[busy.length - 1]));
        return "The load tool ran on this machine beside the server: it took " + cpu + machine + ".";
    }

    /**
     * The probes by their ratio, each as {@link Judge} words it: those whose interval holds 1 as costing the static
     * file's CPU the same within ±x % (the end farthest from 1), the others each with its ratio and its interval's
     * ends; null when none was measured.
     */
    private static String ranked(List<SpiceFigures.Summary> measured, String baseName) {
        List<SpiceFigures.Summary> same = measured.stream()
                .filter(s -> Judge.call(s.cpuRatioInterval()) == Judge.Call.SAME).toList();
        List<String> parts = new ArrayList<>();
        if (!same.isEmpty()) {
            parts.add(Format.list(same.stream().map(SpiceFigures.Summary::probe).toList()) + (same.size() == 1
                    ? " costs" : " cost") + " the same as " + baseName + " " + Judge.within(same.stream()
                            .map(SpiceFigures.Summary::cpuRatioInterval).toList()));
        }
        for (SpiceFigures.Summary s : measured) {
            Judge.Interval ratio = s.cpuRatioInterval();
            if (Judge.call(ratio) == Judge.Call.UNKNOWN) {
                parts.add(s.probe() + " costs " + Judge.times(ratio.estimate()) + " " + baseName + "'s (" + TOO_FEW + ")");
            } else if (Judge.call(ratio) != Judge.Call.SAME) {
                parts.add(s.probe() + " costs " + Judge.words(ratio, baseName + "'s"));
            }
        }
        return parts.isEmpty() ? null : String.join("; ", parts) + ".";
    }

    /** Which probes the rounds left short of their aim, and why that may be; none when every one reached it. */
    private static List<String> shortOfAim(Results results, String reference, String baseName) {
        CpuRounds rounds = results.cpuRounds();
        List<String> sentences = new ArrayList<>();
        List<String> short_ = results.summary().stream().filter(s -> s.rounds().measured()
                && Boolean.FALSE.equals(s.rounds().cpuPrecisionReached())).map(SpiceFigures.Summary::probe).toList();
        if (!short_.isEmpty()) {
            sentences.add("The rounds stopped (" + rounds.stopped() + ") before " + Format.list(short_) + " reached the"
                    + " precision asked (±" + Format.percentWords(rounds.precision()) + ", twice that past 2 × "
                    + baseName + "): --cpu-time gives them longer.");
            List<String> closed = short_.stream().filter(p -> !rounds.offeredTo(p)).toList();
            if (!closed.isEmpty()) {
                sentences.add(rateSpread(rounds, reference, baseName, closed));
            }
        }
        return sentences;
    }

    /**
     * Closed loop, rounds that fell short: how far each short probe's rate moved against the static file's from round to
     * round, the noise a held rate takes out of the ratio (at that rate, not at the clients' own).
     */
    static String rateSpread(CpuRounds rounds, String base, String baseName, List<String> short_) {
        List<String> spreads = new ArrayList<>();
        for (String probe : short_) {
            double spread = rounds.rateRatioSpread(probe, base);
            if (!Double.isNaN(spread)) {
                spreads.add(probe + " " + Format.percentWords(spread));
            }
        }
        return "At " + rounds.clients() + " clients each slice ran at the rate the machine let the clients reach, and a probe's rate"
                + " against " + baseName + "'s moved from round to round by " + (spreads.isEmpty() ? "an unknown share"
                : String.join(", ", spreads)) + " (log standard deviation), its CPU per request with it: --cpu-rate R"
                + " holds every probe at one offered rate and takes that out of the ratios (they are then the ratios at"
                + " R).";
    }

    /**
     * Open loop, the probes too slow for the offered rate ran at the client count: the sentence that says so, with
     * their rates against the static file's, since each of their ratios then carries the two rates' difference.
     */
    static String farRates(CpuRounds rounds, String baseName, List<SpiceFigures.Summary> atClients) {
        List<String> rates = new ArrayList<>();
        atClients.forEach(s -> rates.add(String.format(Locale.ROOT, "%s %,.0f req/s", s.probe(),
                rounds.rateRps(s.probe()))));
        List<String> names = atClients.stream().map(SpiceFigures.Summary::probe).toList();
        String offered = String.format(Locale.ROOT, "%,.0f req/s", rounds.offeredRps());
        return Format.list(names) + (names.size() == 1 ? " runs" : " run") + String.format(Locale.ROOT, " under %.0f %%",
                100 * CpuPlan.NEAR) + " of " + baseName + "'s rate, too slow to hold " + offered + ": "
                + (names.size() == 1 ? "it" : "they")
                + " ran at " + rounds.clients() + " clients, as fast as " + (names.size() == 1 ? "it goes" : "each goes")
                + " (" + String.join(", ", rates) + "), against " + baseName + " at " + offered
                + " offered: a server's CPU per request falls as its rate rises, so "
                + (names.size() == 1 ? "its ratio carries" : "their ratios carry") + " the two rates' difference as well"
                + " as the interfaces' (--cpu-rate R offers every probe R; at a rate CGI holds, the static file's cost is"
                + " mostly wake-ups: docs/method.md, \"One load\").";
    }

    /**
     * The probes too slow for the offered rate were offered one of their own (side by side the same on every server):
     * the sentence that says so. Where the static file ran slices at each of those rates beside them, each ratio is at
     * one load; in results from before it did, each ratio to the static file carries the two rates' difference.
     */
    static String ownOfferedRates(CpuRounds rounds, String baseName, List<SpiceFigures.Summary> apart) {
        List<String> rates = new ArrayList<>();
        apart.forEach(s -> rates.add(String.format(Locale.ROOT, "%s %,.0f req/s", s.probe(), rounds.rateRps(s.probe()))));
        List<String> names = apart.stream().map(SpiceFigures.Summary::probe).toList();
        boolean beside = apart.stream().allMatch(s -> s.rounds().staticRateRps() == null);
        boolean across = !rounds.arms().isEmpty();
        String start = Format.list(names) + (names.size() == 1 ? " runs" : " run") + String.format(Locale.ROOT,
                " under %.0f %%", 100 * CpuPlan.NEAR) + " of " + baseName + "'s rate" + (across ? " on some server" : "")
                + ", too slow to hold " + String.format(Locale.ROOT, "%,.0f req/s", rounds.offeredRps()) + ": "
                + (names.size() == 1 ? "it was" : "each was") + " offered half its own rate" + (across
                        ? " (its slowest server's, the same on every server)" : "") + " instead (" + String.join(", ", rates)
                + ")";
        return beside ? start + ", and " + baseName + " ran slices at that rate beside " + (names.size() == 1 ? "it"
                : "each") + " in every round: each ratio is taken at one load, the rate in its row."
                : start + ": its ratios across servers are at one load, its ratio to " + baseName + " carries the two"
                        + " rates' difference as well as the interfaces'.";
    }

    /**
     * Closed loop, each probe ran at the rate its clients reached: the sentence that says so, with the rates, since a
     * server's CPU per request falls as its rate rises and each ratio then carries the two rates' difference.
     */
    static String ownRates(CpuRounds rounds, String base, String baseName, List<SpiceFigures.Summary> measured) {
        List<String> rates = new ArrayList<>();
        rates.add(baseName + " " + Format.num(rounds.rateRps(base), 0) + " req/s");
        measured.forEach(s -> rates.add(s.probe() + " " + Format.num(rounds.rateRps(s.probe()), 0)));
        return "At " + rounds.load() + " each probe ran at its own rate (" + String.join(", ", rates) + "): a server's"
                + " CPU per request falls as its rate rises, so each ratio carries the two rates' difference as well as"
                + " the interfaces'; --cpu-rate holds every probe at one offered rate.";
    }
}
