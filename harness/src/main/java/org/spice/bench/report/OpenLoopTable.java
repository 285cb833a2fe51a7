package org.spice.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.spice.bench.model.OpenLoopRun;

/** The open loop's answer in the terminal: per probe and offered rate, its latency percentiles and what held them. */
public final class OpenLoopTable {

    static final String LEGEND = "latency: completion less the request's due time on the schedule (connect included), so"
            + " that a request a stalled server held back waits from when it was due; timeouts and dropped requests count"
            + " as the timeout; service: completion less the actual send; lag: how late the generator came to a due"
            + " request (a run whose lag p99.9 passed 1 ms, or that dropped more than 0.1 %, is marked: its figures are"
            + " the generator's)";

    private OpenLoopTable() {
    }

    /** One line on stderr per run. */
    public static String progress(OpenLoopRun r) {
        return String.format(Locale.ROOT, "[open loop] %s at %s req/s: achieved %.1f req/s, p50 %s ms, p99 %s ms,"
                + " p99.9 %s ms, max %s ms, %d errors, %d timeouts, %d dropped, generator lag p99 %.3f ms%s", r.probe(),
                Format.num(r.offeredRps(), 0), r.achievedRps(), ms(r.p50Ms()), ms(r.p99Ms()), ms(r.p999Ms()),
                ms(r.maxMs()), r.errors(), r.timeouts(), r.dropped(), r.generatorLagP99Ms(),
                r.generatorLimited() ? "  " + r.generatorNote().toUpperCase(Locale.ROOT).charAt(0)
                        + r.generatorNote().substring(1) : "");
    }

    /** The table of every run, then the legend; nothing without runs. */
    public static String text(List<OpenLoopRun> runs) {
        if (runs.isEmpty()) {
            return "";
        }
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "%nOpen loop: each probe at its offered rate,"
                + " a request due every 1/rate seconds whatever the server does%n"));
        out.append(CrossTable.columns(rows(runs)));
        runs.stream().filter(OpenLoopRun::generatorLimited).forEach(r -> out.append(r.probe()).append(" at ")
                .append(Format.num(r.offeredRps(), 0)).append(" req/s: ").append(r.generatorNote()).append('\n'));
        return out.append(LEGEND).append('\n').toString();
    }

    /** The report's section: the same table. */
    static void html(StringBuilder h, List<OpenLoopRun> runs) {
        if (runs.isEmpty()) {
            return;
        }
        h.append("<section id=\"open-loop\"><h2>Open loop</h2>\n");
        HtmlReport.table(h, rows(runs));
        h.append("<p>").append(HtmlReport.esc(LEGEND)).append("</p></section>\n");
    }

    private static List<String[]> rows(List<OpenLoopRun> runs) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"probe", "offered req/s", "achieved", "p50 ms", "p90 ms", "p99 ms", "p99.9 ms", "max ms",
            "service p50", "errors", "dropped", "lag p99 ms", "server µs/req", "generator"});
        for (OpenLoopRun r : runs) {
            rows.add(new String[] {r.probe(), Format.num(r.offeredRps(), 0), String.format(Locale.ROOT, "%.1f",
                    r.achievedRps()), ms(r.p50Ms()), ms(r.p90Ms()), ms(r.p99Ms()), ms(r.p999Ms()), ms(r.maxMs()),
                ms(r.serviceP50Ms()), Long.toString(r.errors() + r.timeouts()), Long.toString(r.dropped()),
                Double.isNaN(r.generatorLagP99Ms()) ? "-" : String.format(Locale.ROOT, "%.3f", r.generatorLagP99Ms()),
                Double.isNaN(r.serverCpuUsPerReq()) ? "-" : String.format(Locale.ROOT, "%.1f", r.serverCpuUsPerReq()),
                r.generatorLimited() ? "LIMITED" : r.cut() ? "cut short" : "ok"});
        }
        return rows;
    }

    /** Milliseconds for the tables: three decimals under 10, one from there; "-" for none. */
    static String ms(double value) {
        if (Double.isNaN(value)) {
            return "-";
        }
        return value < 10 ? String.format(Locale.ROOT, "%.3f", value) : String.format(Locale.ROOT, "%.1f", value);
    }
}
