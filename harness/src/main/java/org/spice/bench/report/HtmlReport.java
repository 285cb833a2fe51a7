package org.spice.bench.report;

import java.util.Base64;
import java.util.Locale;
import java.util.Map;

import org.spice.bench.stats.RunRecord;
import org.spice.bench.stats.SpiceFigures;

/**
 * report.html: one self-contained page (the charts are embedded as base64 PNG, and also written beside
 * it) with the SPICE summary, the two figures, every mix, and the settings the run used.
 */
final class HtmlReport {

    private HtmlReport() {
    }

    static String of(Results results, byte[] ratePng, byte[] latencyPng) {
        StringBuilder h = new StringBuilder(16_384);
        h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>SPICE ")
                .append(esc(results.target())).append("</title>\n<style>")
                .append("body{font-family:sans-serif;margin:2em;max-width:1200px}")
                .append("table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #bbb;padding:3px 8px;text-align:right}")
                .append("th{background:#eee}td.l,th.l{text-align:left}.fail{color:#b00}.warn{color:#a60}")
                .append("</style></head><body>\n");
        h.append("<h1>SPICE: server-side programming interface call efficiency</h1>\n<p>Target <b>")
                .append(esc(results.target())).append("</b>");
        if (results.server() != null) {
            h.append(", server <b>").append(esc(results.server())).append("</b>");
        }
        h.append(", body ").append(results.bodyBytes()).append(" bytes. Started ").append(esc(results.startedAt()))
                .append(", finished ").append(esc(results.finishedAt())).append(".</p>\n");
        if (results.partial()) {
            h.append("<p class=\"fail\"><b>Partial results:</b> ").append(esc(results.partialReason())).append("</p>\n");
        }
        for (String note : results.notes()) {
            h.append("<p class=\"warn\">").append(esc(note)).append("</p>\n");
        }
        summary(h, results);
        h.append("<h2>Figures</h2>\n");
        image(h, "rate.png", ratePng, "request rate against clients");
        image(h, "latency.png", latencyPng, "mean latency against clients");
        runs(h, results);
        h.append("<h2>Settings</h2>\n<table>");
        for (Map.Entry<String, Object> setting : results.settings().entrySet()) {
            h.append("<tr><th class=\"l\">").append(esc(setting.getKey())).append("</th><td class=\"l\">")
                    .append(esc(String.valueOf(setting.getValue()))).append("</td></tr>");
        }
        h.append("</table>\n</body></html>\n");
        return h.toString();
    }

    private static void summary(StringBuilder h, Results results) {
        h.append("<h2>Summary</h2>\n<p>Efficiencies compare with the static probe at the same client count: request"
                + " efficiency = rate / static rate, latency efficiency = static latency / latency. Useful peak: the"
                + " highest rate with Jain fairness &ge; ").append(SpiceFigures.FAIR)
                .append(" and mean latency &le; ").append(Format.num(results.latencyBoundMs(), 0))
                .append(" ms. Peak-to-peak: the probe's peak rate / the static peak rate, as the white paper's"
                        + " Table 5 reads.</p>\n<table><tr><th class=\"l\">probe</th><th>peak req/s</th><th>clients</th>"
                        + "<th>latency at peak, ms</th><th>request eff. at peak</th><th>latency eff. at peak</th>"
                        + "<th>max clients</th><th>request eff. at max</th><th>latency eff. at max</th>"
                        + "<th>server &micro;s/req at peak</th><th>useful peak req/s</th><th>clients</th>"
                        + "<th>peak-to-peak</th></tr>\n");
        for (SpiceFigures.Summary s : results.summary()) {
            h.append("<tr><td class=\"l\">").append(esc(s.probe())).append("</td>");
            cells(h, Format.num(s.peakRateRps(), 1), Double.isNaN(s.peakRateRps()) ? "-" : Integer.toString(s.peakClients()),
                    Format.num(s.latencyAtPeakMs(), 2), Format.percent(s.requestEfficiencyAtPeak()),
                    Format.percent(s.latencyEfficiencyAtPeak()), Integer.toString(s.maxLoadClients()),
                    Format.percent(s.requestEfficiencyAtMaxLoad()), Format.percent(s.latencyEfficiencyAtMaxLoad()),
                    Format.num(s.serverCpuUsPerReqAtPeak(), 0), Format.num(s.usefulPeakRps(), 1),
                    Double.isNaN(s.usefulPeakRps()) ? "-" : Integer.toString(s.usefulPeakClients()),
                    Format.percent(s.requestEfficiencyPeakToPeak()));
            h.append("</tr>\n");
        }
        h.append("</table>\n");
    }

    private static void runs(StringBuilder h, Results results) {
        h.append("<h2>Every mix</h2>\n<table><tr><th class=\"l\">probe</th><th>clients</th><th>repeat</th>"
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
        h.append("</table>\n");
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

    static String esc(String text) {
        if (text == null) {
            return "";
        }
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
