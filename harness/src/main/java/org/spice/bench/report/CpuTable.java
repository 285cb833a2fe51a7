package org.spice.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.spice.bench.figures.SpiceFigures;
import org.spice.bench.model.CpuRounds;
import org.spice.bench.model.Results;
import org.spice.bench.model.SteadyState;

/**
 * The CPU figures of the paired rounds, a row per probe: its server CPU per request with its interval, its ratio to
 * the static file's with the ratio's interval, the CPU efficiency paired likewise, the rounds that counted and whether
 * the precision asked was reached. The terminal and report.html print the same rows.
 */
final class CpuTable {

    static final String[] HEADS = {"probe", "server CPU µs/req", "× the static file's", "CPU efficiency", "rounds",
        "precision"};

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
            rows.add(new String[] {s.probe(), Format.num(r.cpuUsPerReq(), 1) + " " + Format.percentOf(r.cpuUsPerReqCi(), r.cpuUsPerReq()),
                reference ? "1" : Format.ratio(r.cpuRatio()) + " " + Format.percentOf(r.cpuRatioCi(), r.cpuRatio()),
                reference ? "100%" : Format.percent(s.cpuEfficiency()) + " " + Format.plusMinusPercent(
                        s.noise().cpuEfficiencyCi() / s.cpuEfficiency()).replace("%", " %"),
                Integer.toString(r.cpuRounds()), Boolean.TRUE.equals(r.cpuPrecisionReached()) ? "reached" : "not reached"});
        }
        return rows;
    }

    /** The heading line: how many rounds, at which load, where the CPU was read, why they stopped. */
    static String heading(Results results) {
        CpuRounds rounds = results.cpuRounds();
        String source = results.summary().stream().filter(s -> s.rounds().measured()).map(s -> s.cpuSource().id())
                .distinct().reduce((a, b) -> a + "/" + b).orElse("-");
        int jitBusy = rounds.rounds().size() - rounds.counted();
        return String.format(Locale.ROOT, "Server CPU per request from %d paired rounds at %d clients (%s; 95 %% intervals,"
                + " Hodges-Lehmann estimates with Wilcoxon's signed-rank intervals across the rounds; aim ±%.0f %%, twice that past 2 × the static file)%s; stopped: %s",
                rounds.counted(), rounds.clients(), source, 100 * rounds.precision(), jitBusy == 0 ? ""
                        : String.format(Locale.ROOT, "; %d more left out, the server's JIT compiling through them (over %.0f %% of its CPU)",
                                jitBusy, 100 * SteadyState.JIT_QUIET), rounds.stopped());
    }

    static String text(Results results) {
        if (results.cpuRounds() == null || results.cpuRounds().rounds().isEmpty()) {
            return "";
        }
        StringBuilder out = new StringBuilder(heading(results)).append('\n');
        String format = "%-12s %20s %22s %18s %7s %12s%n";
        out.append(String.format(Locale.ROOT, format, (Object[]) HEADS));
        for (String[] row : rows(results)) {
            out.append(String.format(Locale.ROOT, format, (Object[]) row));
        }
        return out.append('\n').toString();
    }

    static void html(StringBuilder h, Results results) {
        if (results.cpuRounds() == null || results.cpuRounds().rounds().isEmpty()) {
            return;
        }
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
    }
}
