package org.spice.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.spice.bench.figures.SpiceFigures;
import org.spice.bench.model.Arrivals;
import org.spice.bench.model.CpuRounds;
import org.spice.bench.model.Results;
import org.spice.bench.model.SteadyState;
import org.spice.bench.model.StealLimit;

/**
 * The one CPU table: per probe its server CPU per request with its interval, its ratio to the static file's with the
 * ratio's interval (paired by round), the CPU efficiency (static's / the probe's, the same pairs), the rounds that
 * counted and the aim its figure had to reach. A probe's µs is the static file's times its ratio, so that the columns
 * agree with each other; the terminal and report.html print the same rows.
 */
final class CpuTable {

    static final String[] HEADS = {"probe", "CPU µs/req", "× the static file's", "at req/s", "CPU efficiency", "rounds",
        "aim: reached?"};

    private CpuTable() {
    }

    /** The probes the rounds measured, in the summary's order, as cells. */
    static List<String[]> rows(Results results) {
        List<String[]> rows = new ArrayList<>();
        for (SpiceFigures.Summary s : results.summary()) {
            SpiceFigures.Rounds r = s.rounds();
            if (!r.measured()) {
                continue;
            }
            boolean reference = s.probe().equals(results.baseline());
            double aim = r.cpuAim() == null ? Double.NaN : r.cpuAim();
            String reached = r.cpuPrecisionReached() == null ? null : r.cpuPrecisionReached() ? "reached" : "not reached";
            rows.add(new String[] {s.probe(), Format.num(r.cpuUsPerReq(), 1) + " " + Format.percentOf(r.cpuUsPerReqCi(), r.cpuUsPerReq()),
                reference ? "1" : Format.ratio(r.cpuRatio()) + " " + Format.percentOf(r.cpuRatioCi(), r.cpuRatio())
                        + (r.staticCpuUsAtRate() == null ? "" : " of " + Format.num(r.staticCpuUsAtRate(), 1)),
                rate(r),
                reference ? "100.0 %" : Format.num(100 * s.cpuEfficiency(), 1) + " %",
                Integer.toString(r.cpuRounds()),
                reached == null ? "none: the reference" : (reference ? "µs" : "ratio") + " ±" + Format.num(100 * aim, 0)
                        + " %: " + reached});
        }
        return rows;
    }

    /**
     * The rate a row's ratio was taken at, once: "3,100 offered" where both its arms were offered it; closed loop the
     * probe's and the static file's, "511 / 3,996 achieved".
     */
    static String rate(SpiceFigures.Rounds r) {
        if (r.rateRps() == null || r.rateRps().isNaN()) {
            return "-";
        }
        String kind = r.rateKind() == null ? "" : " " + r.rateKind();
        return r.staticRateRps() == null ? String.format(Locale.ROOT, "%,.0f", r.rateRps()) + kind
                : String.format(Locale.ROOT, "%,.0f / %,.0f", r.rateRps(), r.staticRateRps()) + kind;
    }

    /** The heading line: how many rounds, at which load, where the CPU was read, why they stopped. */
    static String heading(Results results) {
        CpuRounds rounds = results.cpuRounds();
        // Where the CPU was read: one source for all, or the server's and, for the probes named, the machine's.
        List<SpiceFigures.Summary> measured = results.summary().stream().filter(s -> s.rounds().measured()).toList();
        List<String> machine = measured.stream().filter(s -> s.cpuSource() == SpiceFigures.CpuSource.MACHINE)
                .map(SpiceFigures.Summary::probe).toList();
        String source = measured.isEmpty() ? "-" : machine.isEmpty() || machine.size() == measured.size()
                ? measured.get(0).cpuSource().meaning() : SpiceFigures.CpuSource.SERVER.meaning() + "; "
                        + Format.list(machine) + ": " + SpiceFigures.CpuSource.MACHINE.meaning();
        int jitBusy = rounds.rounds().size() - rounds.counted();
        return String.format(Locale.ROOT, "Server CPU per request (%s), from %d paired rounds at %s%s%s; stopped: %s",
                source, rounds.counted(), rounds.load(), jitBusy == 0 ? "" : String.format(Locale.ROOT, " (%d more left"
                        + " out, the server's JIT compiling through them: over %.0f %% of its CPU)", jitBusy,
                        100 * SteadyState.JIT_QUIET), steal(rounds), rounds.stopped());
    }

    /**
     * The slices left out for the hypervisor's steal, with the bound and where it comes from; empty where none was
     * left out.
     */
    static String steal(CpuRounds rounds) {
        StealLimit limit = rounds.stealLimit();
        int out = rounds.leftOutForSteal();
        if (limit == null || out == 0) {
            return "";
        }
        long all = rounds.rounds().stream().mapToLong(r -> r.slices().size()).sum();
        return String.format(Locale.ROOT, "; %d of %d slices left out, the hypervisor taking over %.0f %% of a CPU"
                + " through each (the machine's steal at idle %s, and %.0f %% more)", out, all, 100 * limit.share(),
                Double.isNaN(limit.idleShare()) ? "not read" : String.format(Locale.ROOT, "%.1f %%", 100 * limit.idleShare()),
                100 * StealLimit.MARGIN);
    }

    /** What the columns mean, after the table: a term and its meaning an entry. */
    static List<String[]> legend(Results results) {
        CpuRounds rounds = results.cpuRounds();
        boolean left = results.summary().stream().anyMatch(s -> s.rounds().measured() && s.rounds().cpuRounds() != null
                && s.rounds().cpuRounds() < rounds.counted());
        List<String[]> entries = new ArrayList<>();
        entries.add(new String[] {"±", "95 % intervals (Hodges-Lehmann estimates, Wilcoxon's signed-rank intervals"
                + " across the rounds)"});
        entries.add(new String[] {"CPU µs/req", "the static file's × the probe's ratio, paired by round (a probe at a"
                + " rate of its own: the static file's at that rate)"});
        if (results.summary().stream().anyMatch(s -> s.rounds().staticCpuUsAtRate() != null)) {
            entries.add(new String[] {"of µs", "where a probe ran at a rate of its own, the static file's CPU per request"
                    + " at that rate, which its ratio multiplies into its µs"});
        }
        entries.add(new String[] {"CPU efficiency", "1 / that ratio"});
        entries.add(new String[] {"at req/s", "the rate the ratio was taken at: both its arms offered it (a probe too"
                + " slow for the static file's rate is offered one of its own, and the static file runs slices at it"
                + " beside it), or closed loop the two rates the clients reached"});
        entries.add(new String[] {"aim", "the interval a probe's ratio had to reach, twice the precision asked past 2 ×"
                + " the static file (the static file, the reference, has none: its µs moves with the machine, and each"
                + " round's ratio cancels that)"});
        if (left) {
            entries.add(new String[] {"rounds", "a probe leaves the rounds once its ratio has reached its aim"});
        }
        return entries;
    }

    /**
     * The words the heading and the table use before a legend could define them, each in a few words: what a round
     * and a slice are, paired, offered, the JIT (where the heading names it).
     */
    static List<String[]> reading(Results results) {
        CpuRounds rounds = results.cpuRounds();
        List<String[]> entries = new ArrayList<>();
        entries.add(new String[] {"round, slice", "a slice is one second of one probe under load; a round, a slice of"
                + " every probe, one after the other in a shuffled order"});
        entries.add(new String[] {"paired", "each probe's CPU per request over the static file's in the same round, so"
                + " that what drifts over the run (the machine above all) cancels"});
        entries.add(new String[] {"offered", offered(results)});
        if (rounds.rounds().size() > rounds.counted()) {
            entries.add(new String[] {"JIT", "a Java server's just-in-time compiler, whose work is not the interface's"});
        }
        return entries;
    }

    /** How the offered requests fell in time, and what that does to a server's figure. */
    private static String offered(Results results) {
        String why = "nginx's static file over h2c cost 0.85 × as much at random times as evenly, docs/measurements.md,"
                + " \"SPICE against h2load\"";
        if (Arrivals.POISSON.toString().equals(results.settings().arrivals())) {
            return "R requests a second at random times (--arrivals poisson), as independent clients send them, some"
                    + " together, so that the server sometimes takes several in one wake-up (" + why + ")";
        }
        return "one request every 1 / R s, evenly, so that the server wakes for each (" + why + "; --arrivals poisson"
                + " sends them at random)";
    }

    static String text(Results results) {
        if (results.cpuRounds() == null || results.cpuRounds().rounds().isEmpty()) {
            return "";
        }
        List<String[]> rows = new ArrayList<>();
        rows.add(HEADS);
        rows.addAll(rows(results));
        return Prose.legend(reading(results)) + heading(results) + "\n" + SummaryTable.columns(rows, 12)
                + Prose.legend(legend(results)) + "\n";
    }

    static void html(StringBuilder h, Results results) {
        if (results.cpuRounds() == null || results.cpuRounds().rounds().isEmpty()) {
            return;
        }
        terms(h, reading(results));
        h.append("<p>").append(HtmlReport.esc(heading(results))).append(".</p>\n<div class=\"scroll\"><table id=\"cpu-table\""
                + " class=\"heads\"><tr>");
        for (int i = 0; i < HEADS.length; i++) {
            h.append(i == 0 ? "<th class=\"l\">" : "<th>").append(HtmlReport.esc(HEADS[i])).append("</th>");
        }
        h.append("</tr>\n");
        for (String[] row : rows(results)) {
            h.append("<tr><td class=\"l\">").append(HtmlReport.esc(row[0])).append("</td>");
            for (int i = 1; i < row.length; i++) {
                h.append("<td>").append(HtmlReport.esc(row[i])).append("</td>");
            }
            h.append("</tr>\n");
        }
        h.append("</table></div>\n");
        terms(h, legend(results));
    }

    /** Terms and what they mean, "term: meaning" each, as one paragraph of the page. */
    private static void terms(StringBuilder h, List<String[]> entries) {
        h.append("<p>").append(HtmlReport.esc(String.join("; ", entries.stream().map(entry -> entry[0] + ": " + entry[1])
                .toList()))).append(".</p>\n");
    }
}
