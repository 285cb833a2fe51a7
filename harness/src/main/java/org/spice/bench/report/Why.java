package org.spice.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import org.spice.bench.figures.SpiceFigures;
import org.spice.bench.model.Results;
import org.spice.bench.model.ResultsJson;
import org.spice.bench.model.RunRecord;
import org.spice.bench.model.Sweep;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Why an interface costs what it costs: per probe, at its peak, what the kernel counted for the server per
 * request (processes started, page faults, context switches, bytes through system calls) beside its CPU per
 * request, and one sentence that reads them.
 */
final class Why {

    private Why() {
    }

    /** One probe's counters per request at its peak (the mean over its repeats there); NaN where not counted. */
    record Row(String probe, int clients, double cpuUs, double processes, double pageFaults, double switches,
            double readBytes, double writtenBytes) {

        boolean counted() {
            return !Double.isNaN(processes) || !Double.isNaN(pageFaults) || !Double.isNaN(switches);
        }

        /** "cgi: 1.0 process, 41 page faults and 6 context switches per request — the cost of starting a program." */
        String sentence() {
            List<String> counts = new ArrayList<>();
            if (!Double.isNaN(processes)) {
                counts.add(String.format(Locale.ROOT, "%.1f %s", processes, processes >= 0.95 && processes < 1.05 ? "process" : "processes"));
            }
            if (!Double.isNaN(pageFaults)) {
                counts.add(count(pageFaults) + " page faults");
            }
            if (!Double.isNaN(switches)) {
                counts.add(count(switches) + " context switches");
            }
            String list = counts.size() > 1 ? String.join(", ", counts.subList(0, counts.size() - 1)) + " and "
                    + counts.get(counts.size() - 1) : String.join("", counts);
            return probe + ": " + list + " per request — " + reading() + ".";
        }

        /** A count per request: whole from 10 up, one decimal below. */
        private static String count(double value) {
            return String.format(Locale.ROOT, value >= 10 ? "%,.0f" : "%.1f", value);
        }

        private String reading() {
            if (processes >= 0.5) {
                return "the cost of starting a program for each request (fork, exec, its pages mapped afresh)";
            }
            if (pageFaults >= 5) {
                return "no program started, but memory touched afresh for each request";
            }
            return "resident: no program started and little memory touched, so its cost is the work and the system"
                    + " calls inside the server";
        }
    }

    static List<Row> rows(Results results) {
        List<Row> rows = new ArrayList<>();
        for (SpiceFigures.Summary s : results.summary()) {
            List<RunRecord> atPeak = results.runs().stream().filter(r -> r.probe().equals(s.probe())
                    && r.clients() == s.peakClients() && !r.failed()).toList();
            if (atPeak.isEmpty()) {
                continue;
            }
            rows.add(new Row(s.probe(), s.peakClients(), s.cpuUsPerReqAtPeak(), mean(atPeak, RunRecord::processesPerReq),
                    mean(atPeak, RunRecord::serverPageFaultsPerReq), mean(atPeak, RunRecord::serverCtxSwitchesPerReq),
                    mean(atPeak, RunRecord::serverReadBytesPerReq), mean(atPeak, RunRecord::serverWrittenBytesPerReq)));
        }
        return rows;
    }

    private static double mean(List<RunRecord> runs, ToDoubleFunction<RunRecord> value) {
        return runs.stream().mapToDouble(value).filter(v -> !Double.isNaN(v)).average().orElse(Double.NaN);
    }

    /**
     * What other commands left beside results.json: explain.json's system calls per request by probe, and a size
     * sweep; each null when absent.
     */
    record Evidence(Map<String, Map<String, Double>> syscalls, Sweep sweep) {

        static final Evidence NONE = new Evidence(null, null);

        /** What {@code dir} holds. */
        static Evidence in(Path dir) throws IOException {
            return new Evidence(explained(dir), Sweep.readIn(dir));
        }
    }

    /** explain.json's system calls per request by probe in {@code dir}, or null when there is none. */
    static Map<String, Map<String, Double>> explained(Path dir) throws IOException {
        Path file = dir.resolve(ReportWriter.EXPLAIN_FILE);
        if (!Files.exists(file)) {
            return null;
        }
        JsonNode calls = ResultsJson.MAPPER.readTree(file.toFile()).path("syscalls_per_request");
        if (!calls.isObject()) {
            throw new IOException(file + ": no \"syscalls_per_request\" (not written by scripts/spice explain?)");
        }
        Map<String, Map<String, Double>> byProbe = new LinkedHashMap<>();
        calls.fields().forEachRemaining(probe -> {
            Map<String, Double> each = new LinkedHashMap<>();
            probe.getValue().fields().forEachRemaining(call -> each.put(call.getKey(), call.getValue().asDouble()));
            byProbe.put(probe.getKey(), each);
        });
        return byProbe;
    }

    /** The report's section: the sentences, then the table, then what explain and sweep found; or why there is nothing. */
    static void html(StringBuilder h, Results results, Evidence evidence, List<Charts.Figure> figures) {
        h.append("<section id=\"why\"><h2>Why it costs that</h2>\n");
        List<Row> rows = rows(results).stream().filter(Row::counted).toList();
        if (rows.isEmpty()) {
            h.append("<p>No kernel counters for these results (a server on another machine, results from before SPICE"
                    + " read them, or a tool's import).</p>\n");
            evidence(h, evidence, figures);
            h.append("</section>\n");
            return;
        }
        for (Row row : rows) {
            h.append("<p>").append(HtmlReport.esc(row.sentence())).append("</p>\n");
        }
        h.append("<p>Per request at each probe's peak, for the server's processes (each once, and the children they"
                + " reap; context switches of live threads only). Processes: what the whole machine started, the client"
                + " none.</p>\n<div class=\"scroll\"><table class=\"heads\"><tr><th class=\"l\">probe</th><th>clients</th>"
                + "<th>server CPU &micro;s</th><th>processes started</th><th>page faults</th><th>context switches</th>"
                + "<th>bytes read (syscalls)</th><th>bytes written (syscalls)</th></tr>\n");
        for (Row row : rows) {
            h.append("<tr><td class=\"l\">").append(HtmlReport.esc(row.probe())).append("</td>");
            for (String cell : new String[] {Integer.toString(row.clients()), Format.num(row.cpuUs(), 0),
                Format.num(row.processes(), 2), Format.num(row.pageFaults(), 1), Format.num(row.switches(), 1),
                Format.num(row.readBytes(), 0), Format.num(row.writtenBytes(), 0)}) {
                h.append("<td>").append(HtmlReport.esc(cell)).append("</td>");
            }
            h.append("</tr>\n");
        }
        h.append("</table></div>\n");
        evidence(h, evidence, figures);
        h.append("</section>\n");
    }

    private static void evidence(StringBuilder h, Evidence evidence, List<Charts.Figure> figures) {
        syscalls(h, evidence.syscalls());
        if (evidence.sweep() != null) {
            SweepReport.html(h, evidence.sweep(), figures);
        }
    }

    /** The system calls per request of explain.json, a column per probe, the twelve most frequent calls. */
    private static void syscalls(StringBuilder h, Map<String, Map<String, Double>> syscalls) {
        if (syscalls == null || syscalls.isEmpty()) {
            return;
        }
        List<String> names = new ArrayList<>(syscalls.values().stream().flatMap(m -> m.keySet().stream()).distinct().toList());
        names.sort(Comparator.comparingDouble((String n) -> syscalls.values().stream()
                .mapToDouble(m -> m.getOrDefault(n, 0.0)).max().orElse(0)).reversed());
        h.append("<p>System calls per request (scripts/spice explain: strace -f -c on the server's processes; the"
                + " counts, not the times), the twelve most frequent:</p>\n<div class=\"scroll\"><table id=\"syscalls\">"
                + "<tr><th class=\"l\">system call</th>");
        syscalls.keySet().forEach(p -> h.append("<th>").append(HtmlReport.esc(p)).append("</th>"));
        h.append("</tr>\n");
        for (String name : names.subList(0, Math.min(12, names.size()))) {
            h.append("<tr><td class=\"l\">").append(HtmlReport.esc(name)).append("</td>");
            syscalls.values().forEach(m -> h.append("<td>").append(m.containsKey(name) ? Format.num(m.get(name), 2) : "-")
                    .append("</td>"));
            h.append("</tr>\n");
        }
        h.append("<tr><td class=\"l\">all</td>");
        syscalls.values().forEach(m -> h.append("<td>").append(Format.num(m.values().stream().mapToDouble(Double::doubleValue)
                .sum(), 1)).append("</td>"));
        h.append("</tr>\n</table></div>\n");
    }
}
