package org.spice.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.spice.bench.stats.LatencySummary;
import org.spice.bench.stats.RunRecord;
import org.spice.bench.stats.SpiceFigures;

/**
 * results.json: the schema {@value Results#SCHEMA}. Each run carries its raw counts (requests, bytes,
 * per-client counts, CPU seconds) and the figures computed from them; reading back takes the counts and
 * recomputes the figures, so a hand-edited figure cannot leak into a report.
 */
public final class ResultsJson {

    public static final String FILE = "results.json";

    private ResultsJson() {
    }

    /** Writes DIR/results.json through a temporary file, so an interrupted write never leaves half a file. */
    public static void write(Path dir, Results results) throws IOException {
        Files.createDirectories(dir);
        Path temporary = dir.resolve(FILE + ".tmp");
        Files.writeString(temporary, JsonWriter.write(toTree(results)), StandardCharsets.UTF_8);
        Files.move(temporary, dir.resolve(FILE), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    public static Results read(Path file) throws IOException {
        return fromTree(JsonReader.parse(Files.readString(file, StandardCharsets.UTF_8)));
    }

    /**
     * The results.json of a results directory (or the file itself, if given), read and checked: a file that
     * does not hold SPICE results is an IOException that says why, not a crash.
     */
    public static Results readResults(Path dirOrFile) throws IOException {
        Path file = Files.isDirectory(dirOrFile) ? dirOrFile.resolve(FILE) : dirOrFile;
        if (!Files.isReadable(file)) {
            throw new IOException("cannot read " + file + ": give a results directory written by bench");
        }
        try {
            return read(file);
        } catch (IllegalArgumentException | ClassCastException | NullPointerException e) {
            throw new IOException(file + " is not a SPICE results file: " + e.getMessage(), e);
        }
    }

    static Map<String, Object> toTree(Results r) {
        Map<String, Object> top = new LinkedHashMap<>();
        top.put("schema", Results.SCHEMA);
        top.put("target", r.target());
        top.put("server", r.server());
        top.put("body_bytes", r.bodyBytes());
        top.put("started_at", r.startedAt());
        top.put("finished_at", r.finishedAt());
        top.put("partial", r.partial());
        if (r.partial()) {
            top.put("partial_reason", r.partialReason());
        }
        top.put("settings", r.settings());
        top.put("notes", r.notes());
        List<Object> runs = new ArrayList<>();
        for (RunRecord run : r.runs()) {
            runs.add(run(run));
        }
        top.put("runs", runs);
        List<Object> summary = new ArrayList<>();
        for (SpiceFigures.Summary s : r.summary()) {
            summary.add(summary(s));
        }
        top.put("summary", summary);
        return top;
    }

    private static Map<String, Object> run(RunRecord run) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("probe", run.probe());
        m.put("clients", run.clients());
        m.put("repeat", run.repeat());
        m.put("failed", run.failed());
        if (run.failed()) {
            m.put("reason", run.reason());
        }
        m.put("requests", run.requests());
        m.put("errors", run.errorTotal());
        m.put("errors_by_class", run.errors());
        m.put("status_codes", run.statusCodes());
        m.put("duration_s", run.durationS());
        m.put("rate_rps", run.rateRps());
        m.put("throughput_bytes_s", run.throughputBytesS());
        m.put("bytes_per_response", run.bytesPerResponse());
        m.put("expected_body_bytes", run.expectedBodyBytes() >= 0 ? run.expectedBodyBytes() : null);
        m.put("header_bytes_per_response", run.headerBytesPerResponse());
        m.put("body_bytes", run.bodyBytes());
        m.put("header_bytes", run.headerBytes());
        LatencySummary l = run.latency();
        Map<String, Object> latency = new LinkedHashMap<>();
        latency.put("mean", l.meanMs());
        latency.put("p50", l.p50Ms());
        latency.put("p90", l.p90Ms());
        latency.put("p99", l.p99Ms());
        latency.put("p999", l.p999Ms());
        latency.put("max", l.maxMs());
        m.put("latency_ms", latency);
        m.put("fairness_jain", run.fairnessJain());
        Map<String, Object> spread = new LinkedHashMap<>();
        spread.put("min_ms", run.clientLatencyMinMs());
        spread.put("max_ms", run.clientLatencyMaxMs());
        spread.put("cv", run.clientLatencyCv());
        m.put("client_latency_spread", spread);
        m.put("little_ratio", run.littleRatio());
        m.put("client_cpu_s", run.clientCpuS());
        m.put("client_cpu_cores", run.clientCpuCores());
        m.put("client_cpu_us_per_req", run.clientCpuUsPerReq());
        m.put("client_saturated", run.clientSaturated());
        m.put("server_cpu_s", run.serverCpuS());
        m.put("machine_cpu_s", run.machineCpuS());
        m.put("machine_cpu_us_per_req", run.machineCpuUsPerReq());
        m.put("server_cpu_cores", run.serverCpuCores());
        m.put("server_cpu_us_per_req", run.serverCpuUsPerReq());
        m.put("completed_after_window", run.completedAfterWindow());
        m.put("server_kept_open", run.serverKeptOpen());
        m.put("reconnects", run.reconnects());
        Map<String, Object> perClient = new LinkedHashMap<>();
        perClient.put("requests", run.clientRequests());
        perClient.put("errors", run.clientErrors());
        perClient.put("rate_rps", run.clientRates());
        perClient.put("mean_latency_ms", run.clientMeanMs());
        m.put("per_client", perClient);
        return m;
    }

    private static Map<String, Object> summary(SpiceFigures.Summary s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("probe", s.probe());
        m.put("repeats", s.repeats());
        m.put("peak_rate_rps", s.peakRateRps());
        m.put("peak_clients", s.peakClients());
        m.put("latency_at_peak_ms", s.latencyAtPeakMs());
        m.put("request_efficiency_at_peak", s.requestEfficiencyAtPeak());
        m.put("latency_efficiency_at_peak", s.latencyEfficiencyAtPeak());
        m.put("max_load_clients", s.maxLoadClients());
        m.put("request_efficiency_at_max_load", s.requestEfficiencyAtMaxLoad());
        m.put("latency_efficiency_at_max_load", s.latencyEfficiencyAtMaxLoad());
        m.put("useful_peak_rps", s.usefulPeakRps());
        m.put("useful_peak_clients", s.usefulPeakClients());
        m.put("request_efficiency_peak_to_peak", s.requestEfficiencyPeakToPeak());
        m.put("server_cpu_us_per_req_at_peak", s.serverCpuUsPerReqAtPeak());
        m.put("machine_cpu_us_per_req_at_peak", s.machineCpuUsPerReqAtPeak());
        return m;
    }

    @SuppressWarnings("unchecked")
    static Results fromTree(Object tree) {
        if (!(tree instanceof Map<?, ?> top) || !Results.SCHEMA.equals(top.get("schema"))) {
            throw new IllegalArgumentException("not a " + Results.SCHEMA + " file");
        }
        List<RunRecord> runs = new ArrayList<>();
        for (Object item : list(top.get("runs"))) {
            runs.add(runOf((Map<String, Object>) item));
        }
        List<String> notes = new ArrayList<>();
        for (Object note : list(top.get("notes"))) {
            notes.add(String.valueOf(note));
        }
        Map<String, Object> settings = top.get("settings") instanceof Map<?, ?> s ? (Map<String, Object>) s : Map.of();
        return new Results((String) top.get("target"), (String) top.get("server"), (long) num(top.get("body_bytes")),
                settings, (String) top.get("started_at"), (String) top.get("finished_at"),
                Boolean.TRUE.equals(top.get("partial")), (String) top.get("partial_reason"), notes, runs);
    }

    @SuppressWarnings("unchecked")
    private static RunRecord runOf(Map<String, Object> m) {
        Map<String, Object> latency = (Map<String, Object>) m.get("latency_ms");
        Map<String, Object> perClient = (Map<String, Object>) m.get("per_client");
        LatencySummary l = new LatencySummary(num(latency.get("mean")), num(latency.get("p50")),
                num(latency.get("p90")), num(latency.get("p99")), num(latency.get("p999")), num(latency.get("max")));
        Object expected = m.get("expected_body_bytes");
        return new RunRecord((String) m.get("probe"), (int) num(m.get("clients")), (int) num(m.get("repeat")),
                Boolean.TRUE.equals(m.get("failed")), (String) m.get("reason"), num(m.get("duration_s")),
                (long) num(m.get("requests")), counts(m.get("errors_by_class")), counts(m.get("status_codes")),
                (long) num(m.get("header_bytes")), (long) num(m.get("body_bytes")),
                expected == null ? -1 : (long) num(expected), l, longs(perClient.get("requests")),
                doubles(perClient.get("mean_latency_ms")), longs(perClient.get("errors")), num(m.get("client_cpu_s")),
                num(m.get("server_cpu_s")), num(m.get("machine_cpu_s")), (long) num(m.get("completed_after_window")),
                (long) num(m.get("server_kept_open")), (long) num(m.get("reconnects")));
    }

    private static double num(Object value) {
        return value instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    private static List<?> list(Object value) {
        return value instanceof List<?> l ? l : List.of();
    }

    private static Map<String, Long> counts(Object value) {
        Map<String, Long> counts = new LinkedHashMap<>();
        if (value instanceof Map<?, ?> map) {
            map.forEach((k, v) -> counts.put(String.valueOf(k), (long) num(v)));
        }
        return counts;
    }

    private static long[] longs(Object value) {
        return list(value).stream().mapToLong(v -> (long) num(v)).toArray();
    }

    private static double[] doubles(Object value) {
        return list(value).stream().mapToDouble(ResultsJson::num).toArray();
    }
}
