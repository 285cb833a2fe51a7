package org.spice.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

import org.spice.bench.figures.SpiceFigures;
import org.spice.bench.model.Overload;
import org.spice.bench.model.Readings;
import org.spice.bench.model.Results;

/**
 * Past the peak, as the report tells it ({@code bench --profile overload}): one sentence per workload for the answer,
 * a table for the terminal and the page (the retention at each multiple, what failed at the largest, the recovery),
 * the same words for {@code compare}.
 */
final class OverloadReport {

    /** Below this share of its 1 × rate a workload has collapsed rather than held. */
    static final double COLLAPSED = 0.5;

    private OverloadReport() {
    }

    /**
     * The answer's sentence on overload, or null when nothing was flooded: "Past the peak on apache (16 × each
     * probe's peak clients): static holds 87 % of its rate ..., back within 10 % after 4.0 s; cgi collapses to 12 %".
     */
    static String sentence(Results results) {
        if (results.overload().isEmpty()) {
            return null;
        }
        List<String> parts = new ArrayList<>();
        for (Overload o : results.overload()) {
            parts.add(o.probe() + " " + verdict(o));
        }
        return "Past the peak" + (results.server() == null ? "" : " on " + results.server()) + ": "
                + String.join("; ", parts) + ".";
    }

    /** "holds 87 % of its peak's rate at 16 × (19,840 clients), Jain 0.42 (0.60 by chance alone), 303 timed out; back ..." */
    static String verdict(Overload o) {
        Overload.Step largest = o.largestCounted();
        Overload.Step before = o.before();
        String recovery = recovery(o);
        if (before == null || before.excluded() != null) {
            return "has no rate at its peak to compare with" + (before == null ? "" : " (" + before.excluded() + ")")
                    + recovery;
        }
        if (largest == null) {
            return (o.steps().size() > 1 ? "has no retention: every step past its peak was paced by this client, not"
                    + " the server" : "has no step past its peak") + recovery;
        }
        double retention = o.retention(largest);
        String holds = retention < COLLAPSED ? "collapses to " + Format.percentWords(retention)
                : "holds " + Format.percentWords(retention);
        return String.format(Locale.ROOT, "%s of its peak's rate at %d × (%s clients: %s req/s against %s), %s%s%s",
                holds, largest.multiple(), Format.words(largest.clients()), Format.words(largest.rateRps()),
                Format.words(before.rateRps()), fairness(largest), failures(largest), recovery);
    }

    /** "fair (Jain 0.97)" or "Jain 0.42, where chance alone gives 0.60". */
    private static String fairness(Overload.Step step) {
        double jain = step.fairness();
        if (Double.isNaN(jain)) {
            return "no client served";
        }
        if (jain >= SpiceFigures.FAIR) {
            return "fair (Jain " + Format.num(jain, 2) + ")";
        }
        return "Jain " + Format.num(jain, 2) + ", where chance alone gives " + Format.num(step.fairnessByChance(), 2);
    }

    /** ", 303 timed out, 12 refused" or "". */
    private static String failures(Overload.Step step) {
        StringBuilder out = new StringBuilder();
        step.outcomes().forEach((outcome, count) -> {
            if (count > 0) {
                out.append(", ").append(String.format(Locale.ROOT, "%,d", count)).append(' ').append(outcome.replace('_', ' '));
            }
        });
        return out.toString();
    }

    /** "; back within 10 % after 4.0 s" / "; back at once" / "; not back within 60 s". */
    private static String recovery(Overload o) {
        if (o.watch() == null) {
            return "; its recovery was not watched (the run ended first)";
        }
        double back = o.recoveredAfterS();
        if (Double.isNaN(back)) {
            double exact = o.firstExactAnswerS();
            return String.format(Locale.ROOT, "; not back within %.0f %% of its rate in %.0f s%s", 100 * Overload.RECOVERED_WITHIN,
                    o.watch().limitS(), Double.isNaN(exact) ? ", nor answering the page"
                    : String.format(Locale.ROOT, " (the page byte for byte after %.1f s)", exact)) + held(o);
        }
        // At once: the first window counted, and it ended as soon as a GET and a window could.
        boolean atOnce = o.watch().checks().size() == 1 && back < 2 * Overload.CHECK_S;
        return atOnce ? String.format(Locale.ROOT, "; back at once (its first %.0f s window after the flood, %.1f s)",
                o.watch().checks().get(0).durationS(), back)
                : String.format(Locale.ROOT, "; back within %.0f %% after %.1f s%s", 100 * Overload.RECOVERED_WITHIN, back,
                o.watch().checks().size() == 1 ? String.format(Locale.ROOT, " (its first window: the GET answered"
                        + " after %.2f s, the window's 1 s of load ended %.1f s after the flood, waiting for its last answers)",
                        o.watch().checks().get(0).exactAtS(), back) : "") + held(o);
    }

    /** What held back the windows that were not yet back, by their readings ("" if none read). */
    static String held(Overload o) {
        List<Overload.Check> waited = o.watch().checks().stream()
                .filter(c -> !o.recovered(c)).toList();
        if (waited.isEmpty() || waited.stream().allMatch(c -> c.readings() == null)) {
            return "";
        }
        Map<String, Integer> held = o.heldBy();
        if (held.isEmpty()) {
            return String.format(Locale.ROOT, "; in the %d window%s before, no reading was near its limit that was not"
                    + " so before the flood (the accept queue, this client's ports, httpd's workers, the server's CPU)", waited.size(),
                    waited.size() == 1 ? "" : "s");
        }
        List<String> parts = new java.util.ArrayList<>();
        held.forEach((key, n) -> parts.add(Readings.words(key) + String.format(Locale.ROOT, " in %d of %d", n, waited.size())));
        return "; held back by " + String.join(", ", parts) + " windows";
    }

    /** Every multiple measured by some workload, in order (1 × left out: it is the reference). */
    static List<String> multiples(List<Overload> overload) {
        TreeSet<Integer> multiples = new TreeSet<>();
        overload.forEach(o -> o.steps().stream().filter(s -> s.multiple() > 1).forEach(s -> multiples.add(s.multiple())));
        return multiples.stream().map(String::valueOf).toList();
    }

    /** A retention for a table cell: "87%", "excl." for a left-out step, "" where the multiple did not run. */
    static String cell(Map<String, Double> retention, String multiple) {
        if (!retention.containsKey(multiple)) {
            return "";
        }
        Double r = retention.get(multiple);
        return r == null ? "excl." : Format.num(100 * r, 0) + "%";
    }

    /** The recovery for a table cell: "4.0 s", "> 60 s", "-" when not watched. */
    static String recoveryCell(Overload o) {
        if (o.watch() == null) {
            return "-";
        }
        double back = o.recoveredAfterS();
        return Double.isNaN(back) ? "> " + Format.num(o.watch().limitS(), 0) + " s" : Format.num(back, 1) + " s";
    }

    /** The terminal's table, or "" when nothing was flooded. */
    static String text(Results results) {
        if (results.overload().isEmpty()) {
            return "";
        }
        List<String> multiples = multiples(results.overload());
        StringBuilder out = new StringBuilder("\npast the peak: retention = rate at N × the peak's clients / the rate at 1 ×;"
                + " excl. = paced by this client, not the server\n");
        out.append(String.format(Locale.ROOT, "%-10s %12s %12s", "probe", "peak clients", "1 × req/s"));
        multiples.forEach(m -> out.append(String.format(Locale.ROOT, " %7s", m + " ×")));
        out.append(String.format(Locale.ROOT, " %10s %12s%n", "recovery", "exact after"));
        for (Overload o : results.overload()) {
            out.append(String.format(Locale.ROOT, "%-10s %12d %12s", o.probe(), o.peakClients(),
                    o.before() == null ? "-" : Format.num(o.before().rateRps(), 1)));
            Map<String, Double> retention = o.retention();
            multiples.forEach(m -> out.append(String.format(Locale.ROOT, " %7s", cell(retention, m))));
            out.append(String.format(Locale.ROOT, " %10s %12s%n", recoveryCell(o),
                    Double.isNaN(o.firstExactAnswerS()) ? "-" : Format.num(o.firstExactAnswerS(), 2) + " s"));
        }
        return out.toString();
    }

    /** The page's section, or nothing when nothing was flooded. */
    static void html(StringBuilder h, Results results) {
        if (results.overload().isEmpty()) {
            return;
        }
        List<String> multiples = multiples(results.overload());
        h.append("<section id=\"overload\"><h2>Past the peak</h2>\n<p>Each workload at its peak's client count (1 &times;),"
                + " then at multiples of it; retention is a step's rate over the 1 &times; rate (excl.: a step this client,"
                + " not the server, set the pace of); recovery is the time from the end of the largest step until a window"
                + " at the peak's clients ran within ").append(Format.num(100 * Overload.RECOVERED_WITHIN, 0))
                .append(" % of the same windows' median before the flood, failing no more than they did, and a GET answered the page byte for"
                        + " byte; results.json holds each window's readings on both sides (sockets by state, the accept"
                        + " queue and its overflows, httpd's scoreboard, the server's CPU). The rate and"
                        + " latency figures above carry the steps as dashed lines.</p>\n<div class=\"scroll\"><table"
                        + " id=\"overload-table\" class=\"heads\"><tr><th class=\"l\">probe</th><th>peak clients</th>"
                        + "<th>1 &times; req/s</th>");
        multiples.forEach(m -> h.append("<th>").append(m).append(" &times;</th>"));
        h.append("<th>Jain at the largest</th><th>failed at the largest</th><th>recovery</th><th>page exact after</th></tr>\n");
        for (Overload o : results.overload()) {
            Map<String, Double> retention = o.retention();
            Overload.Step largest = o.steps().isEmpty() ? null : o.steps().get(o.steps().size() - 1);
            h.append("<tr><td class=\"l\">").append(HtmlReport.esc(o.probe())).append("</td><td>").append(o.peakClients())
                    .append("</td><td>").append(o.before() == null ? "-" : Format.num(o.before().rateRps(), 1)).append("</td>");
            multiples.forEach(m -> h.append("<td>").append(cell(retention, m)).append("</td>"));
            h.append("<td>").append(largest == null ? "-" : Format.num(largest.fairness(), 2)).append("</td><td class=\"l\">")
                    .append(largest == null ? "-" : HtmlReport.esc(failures(largest).replaceFirst("^, ", "")))
                    .append("</td><td>").append(recoveryCell(o)).append("</td><td>")
                    .append(Double.isNaN(o.firstExactAnswerS()) ? "-" : Format.num(o.firstExactAnswerS(), 2) + " s")
                    .append("</td></tr>\n");
        }
        h.append("</table></div>\n");
        for (Overload o : results.overload()) {
            h.append("<p>").append(HtmlReport.esc(o.probe() + ": peak clients from " + o.peakFrom() + "; " + verdict(o)))
                    .append(".</p>\n");
        }
        h.append("</section>\n");
    }
}
