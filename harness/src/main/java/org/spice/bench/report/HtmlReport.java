package org.spice.bench.report;

import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.spice.bench.figures.SpiceFigures;
import org.spice.bench.model.Results;
import org.spice.bench.model.RunRecord;

/**
 * report.html: one self-contained page (the charts are embedded as base64 PNG, and also written beside
 * it) that answers first, then shows: the verdict, what each interface costs (CPU bars and the summary
 * table), the white paper's figures, each probe's peak in detail, the warnings, every mix, the settings.
 */
public final class HtmlReport {

    private HtmlReport() {
    }

    static String of(Results results, List<Charts.Figure> figures, CgiFloor floor) {
        return of(results, figures, floor, Why.Evidence.NONE);
    }

    /** @param evidence what explain and sweep left in the results directory */
    static String of(Results results, List<Charts.Figure> figures, CgiFloor floor, Why.Evidence evidence) {
        StringBuilder h = new StringBuilder(16_384);
        head(h, "SPICE " + results.target());
        h.append("<h1>SPICE: server-side programming interface call efficiency</h1>\n<p>Target <b>")
                .append(esc(results.target())).append("</b>");
        if (results.server() != null) {
            h.append(", server <b>").append(esc(results.server())).append("</b>");
        }
        h.append("; ").append(esc(Method.of(results).describe())).append(". Started ").append(esc(results.startedAt()))
                .append(", finished ").append(esc(results.finishedAt())).append(".</p>\n");
        h.append("<section id=\"verdict\"><h2>The answer</h2>\n");
        for (String sentence : Verdict.of(results, floor)) {
            h.append("<p>").append(esc(sentence)).append("</p>\n");
        }
        h.append("</section>\n<section id=\"cost\"><h2>What an interface costs</h2>\n");
        if (Charts.hasCpu(results)) {
            figure(h, figures, "cpu.png");
        } else {
            h.append("<p>No server CPU figure: ").append(esc(results.settings().engine() != null
                    ? results.settings().engine() : "this run")).append(" measures no server CPU, so the costs below are"
                    + " rates and latencies only (SPICE's bench measures the server's CPU).</p>\n");
        }
        CpuTable.html(h, results);
        summary(h, results);
        h.append("</section>\n");
        Why.html(h, results, evidence, figures);
        h.append("<section id=\"figures\"><h2>The white paper's figures</h2>\n");
        figure(h, figures, "rate.png");
        figure(h, figures, "latency.png");
        h.append("</section>\n");
        OverloadReport.html(h, results);
        OpenLoopTable.html(h, results.openLoop());
        LatencyTable.html(h, results.latencyProfile(), figures);
        CostReport.html(h, results.costCurve(), figures);
        h.append("<section id=\"distribution\"><h2>At each probe's peak</h2>\n");
        figure(h, figures, "percentiles.png");
        figure(h, figures, "clients.png");
        h.append("</section>\n");
        warnings(h, results);
        h.append("<section id=\"mixes\">");
        runs(h, results);
        h.append("</section>\n<section id=\"settings\"><h2>Settings</h2>\n<div class=\"scroll\"><table>");
        for (Map.Entry<String, Object> setting : results.settings().asMap().entrySet()) {
            h.append("<tr><th class=\"l\">").append(esc(setting.getKey())).append("</th><td class=\"l wrap\">")
                    .append(esc(String.valueOf(setting.getValue()))).append("</td></tr>");
        }
        h.append("</table></div></section>\n</body></html>\n");
        return h.toString();
    }

    /** Each warning once, with the mixes where it holds. */
    private static void warnings(StringBuilder h, Results results) {
        h.append("<section id=\"warnings\"><h2>Warnings</h2>\n");
        List<String> warnings = Warnings.of(results);
        if (warnings.isEmpty()) {
            h.append("<p>None.</p>\n");
        } else {
            h.append("<ul>\n");
            for (String warning : warnings) {
                h.append("<li class=\"warn\">").append(esc(warning)).append("</li>\n");
            }
            h.append("</ul>\n");
        }
        h.append("</section>\n");
    }

    /** The page head with its style: tables wider than the page scroll inside their box, never the page. */
    static void head(StringBuilder h, String title) {
        head(h, title, "");
    }

    /** The page head with its style and {@code more} of a page's own (the lesson's). */
    public static void head(StringBuilder h, String title, String more) {
        h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>")
                .append(esc(title)).append("</title>\n<style>")
                .append("body{font-family:sans-serif;margin:2em auto;max-width:1200px;padding:0 1em;line-height:1.4}")
                .append("table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #bbb;padding:3px 8px;")
                .append("text-align:right;white-space:nowrap}th{background:#eee}td.l,th.l{text-align:left}")
                .append("td.wrap{white-space:normal;overflow-wrap:anywhere}table.heads th{white-space:normal;min-width:5em}")
                .append(".fail{color:#b00}.warn{color:#a60}.scroll{overflow-x:auto;max-width:100%}")
                .append("img{max-width:100%;height:auto}#verdict{background:#f4f8ff;border-left:4px solid #36c;")
                .append("padding:.2em 1em}details summary{cursor:pointer;font-weight:bold}").append(more)
                .append("</style></head><body>\n");
    }

    static void figure(StringBuilder h, List<Charts.Figure> figures, String file) {
        Charts.Figure figure = figures.stream().filter(f -> f.file().equals(file)).findFirst().orElse(null);
        if (figure == null) {
            h.append("<p class=\"warn\">").append(esc(file)).append(": chart not drawn, see runs.csv</p>\n");
        } else {
            image(h, figure.file(), figure.png(), figure.caption());
        }
    }

    /** The ladder's table, as the terminal prints it (SummaryTable.rows), with what its columns mean. */
    private static void summary(StringBuilder h, Results results) {
        h.append("<p>The ladder's request rates. Request efficiency = the probe's rate / the static file's at the same"
                + " client count (its peak's, and the largest count that ran); peak-to-peak = the probe's peak / the static"
                + " file's peak, as the white paper's Table 5 reads. The latency efficiency is the request efficiency again"
                + " in a closed loop (Little's law): results.json keeps it.");
        if (results.summary().stream().anyMatch(SummaryTable::usefulPeakDiffers)) {
            h.append(" Useful peak: the highest rate with Jain fairness &ge; ").append(SpiceFigures.FAIR)
                    .append(" and mean latency &le; ").append(Format.num(results.latencyBoundMs(), 0)).append(" ms.");
        }
        if (SummaryTable.ladderCpu(results)) {
            h.append(" No CPU rounds ran: the CPU per request is the ladder's window at the probe's peak, from the server's"
                    + " processes (and the children they reap) or, marked mach, the whole machine less the client; CPU"
                    + " efficiency = the static file's at the same client count / the probe's.");
        }
        h.append("</p>\n<div class=\"scroll\"><table id=\"summary\" class=\"heads\">");
        boolean head = true;
        for (String[] row : SummaryTable.rows(results)) {
            h.append("<tr>");
            for (int i = 0; i < row.length; i++) {
                String cell = head ? "th" : "td";
                h.append('<').append(cell).append(i == 0 ? " class=\"l\">" : ">").append(esc(row[i])).append("</")
                        .append(cell).append('>');
            }
            h.append("</tr>\n");
            head = false;
        }
        h.append("</table></div>\n");
    }

    private static void runs(StringBuilder h, Results results) {
        h.append("<details><summary>Every mix (" + results.runs().size() + ")</summary>\n<div class=\"scroll\"><table><tr><th class=\"l\">probe</th><th>clients</th><th>repeat</th>"
                + "<th>requests</th><th>errors</th><th>req/s</th><th>body bytes/s</th><th>bytes/resp</th>"
                + "<th>mean ms</th><th>p50</th><th>p90</th><th>p99</th><th>p99.9</th><th>max</th><th>Jain</th>"
                + "<th>client lat. CV</th><th>Little</th><th>client cores</th><th>client &micro;s/req</th>"
                + "<th>server &micro;s/req</th><th class=\"l\">errors by class / failure</th></tr>\n");
        for (RunRecord r : results.runs()) {
            h.append(r.failed() ? "<tr class=\"fail\">" : "<tr>").append("<td class=\"l\">").append(esc(r.probe()))
                    .append("</td>");
            cells(h, Integer.toString(r.clients()), Integer.toString(r.repeat()), Long.toString(r.requests()),
                    Long.toString(r.errorTotal()), Format.num(r.rateRps(), 1), Format.num(r.throughputBytesS(), 0),
                    Format.num(r.bytesPerResponse(), 1), Format.num(r.latency().meanMs(), 3),
                    Format.num(r.latency().p50Ms(), 3), Format.num(r.latency().p90Ms(), 3),
                    Format.num(r.latency().p99Ms(), 3), Format.num(r.latency().p999Ms(), 3),
                    Format.num(r.latency().maxMs(), 3), Format.num(r.fairnessJain(), 3),
                    Format.num(r.clientLatencyCv(), 3), Format.num(r.littleRatio(), 3),
                    Format.num(r.clientCpuCores(), 2), Format.num(r.clientCpuUsPerReq(), 1),
                    Format.num(r.serverCpuUsPerReq(), 1));
            String errors = SummaryTable.nonZero(r) + (r.failed() ? "; FAILED: " + r.reason() : "")
                    + (r.clientSaturated() ? "; client saturated" : "");
            h.append("<td class=\"l\">").append(esc(errors)).append("</td></tr>\n");
        }
        h.append("</table></div></details>\n");
    }

    private static void cells(StringBuilder h, String... values) {
        for (String value : values) {
            h.append("<td>").append(esc(value)).append("</td>");
        }
    }

    static void image(StringBuilder h, String file, byte[] png, String alt) {
        if (png == null) {
            h.append("<p class=\"warn\">").append(esc(alt)).append(": chart not drawn, see runs.csv</p>\n");
            return;
        }
        h.append(String.format(Locale.ROOT, "<p><img alt=\"%s\" title=\"%s\" src=\"data:image/png;base64,%s\"></p>%n",
                esc(alt), esc(file), Base64.getEncoder().encodeToString(png)));
    }

    public static String esc(String text) {
        if (text == null) {
            return "";
        }
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    /** {@code rows} as a table: the first its head, the first column's cells left-aligned (names), the rest numbers. */
    public static void table(StringBuilder h, List<String[]> rows) {
        h.append("<div class=\"scroll\"><table>\n<tr>");
        for (String head : rows.get(0)) {
            h.append("<th>").append(esc(head)).append("</th>");
        }
        h.append("</tr>\n");
        for (String[] row : rows.subList(1, rows.size())) {
            h.append("<tr><td class=\"l\">").append(esc(row[0])).append("</td>");
            for (int i = 1; i < row.length; i++) {
                h.append("<td>").append(esc(row[i])).append("</td>");
            }
            h.append("</tr>\n");
        }
        h.append("</table></div>\n");
    }
}
