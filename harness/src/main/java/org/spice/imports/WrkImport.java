package org.spice.imports;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.spice.bench.figures.LatencySummary;
import org.spice.bench.model.ResultsJson;
import org.spice.bench.model.RunRecord;
import org.spice.bench.samples.ImportException;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * wrk run with SPICE's script (harness/wrk/wrk-spice.lua): the one JSON line its done() prints. wrk has
 * no per-request output, so there are no per-client figures; its latency starts when the request is
 * written, after connect; its byte count includes the heads.
 */
final class WrkImport {

    private WrkImport() {
    }

    static Imported read(List<Path> files, Claim claim, long expectedBytes) throws ImportException {
        String probe = claim.name();
        int clients = claim.clients();
        Path file = Tools.single(files, "wrk", "wrk's output with the line of harness/wrk/wrk-spice.lua");
        String text = Tools.read(file);
        java.util.regex.Matcher url = java.util.regex.Pattern.compile("^Running .* test @ (\\S+)", java.util.regex.Pattern.MULTILINE)
                .matcher(text);
        claim.checkPath(file, "wrk", url.find() ? url.group(1) : null, "its \"Running ... test @\" line");
        java.util.regex.Matcher connections = java.util.regex.Pattern.compile("^\\s*\\d+ threads? and (\\d+) connections?",
                java.util.regex.Pattern.MULTILINE).matcher(text);
        claim.checkClients(file, "wrk", connections.find() ? Integer.valueOf(connections.group(1)) : null, "its connections");
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            if (!lines[i].startsWith("{\"spice_wrk\"")) {
                continue;
            }
            JsonNode json;
            try {
                json = ResultsJson.MAPPER.readTree(lines[i]);
            } catch (java.io.IOException e) {
                throw new ImportException(file + ":" + (i + 1) + ": the spice_wrk line is not JSON (" + e.getMessage().lines().findFirst().orElse("") + ")");
            }
            return imported(json, file + ":" + (i + 1), probe, clients);
        }
        throw new ImportException(file + ": no line from harness/wrk/wrk-spice.lua: run wrk with -s harness/wrk/wrk-spice.lua");
    }

    private static Imported imported(JsonNode json, String where, String probe, int clients) throws ImportException {
        for (String field : List.of("duration_us", "requests", "bytes", "errors", "latency_us")) {
            if (!json.has(field)) {
                throw new ImportException(where + ": the spice_wrk line has no \"" + field + "\" (truncated?)");
            }
        }
        JsonNode e = json.get("errors");
        long statusErrors = e.path("status").asLong();
        long requests = json.get("requests").asLong() - statusErrors;
        Map<String, Long> errors = new LinkedHashMap<>();
        errors.put("status", statusErrors);
        errors.put("connect_refused", e.path("connect").asLong());
        errors.put("io", e.path("read").asLong() + e.path("write").asLong());
        errors.put("timeout", e.path("timeout").asLong());
        JsonNode latencyUs = json.get("latency_us");
        List<LatencySummary.Percentile> points = new ArrayList<>();
        for (JsonNode point : latencyUs.path("percentiles")) {
            points.add(new LatencySummary.Percentile(point.get(0).asDouble(), point.get(1).asDouble() / 1000));
        }
        LatencySummary latency = LatencySummary.ofPercentiles(points, latencyUs.path("mean").asDouble() / 1000,
                latencyUs.path("max").asDouble() / 1000);
        RunRecord run = RunRecord.builder(probe, clients, 1).durationS(json.get("duration_us").asDouble() / 1e6)
                .requests(requests).errors(errors).bytes(0, json.get("bytes").asLong()).latency(latency).build();
        List<String> notes = List.of("wrk: latency from writing the request, connect excluded; bytes include the"
                + " response heads (so no size check); no per-client figures, so no fairness; the whole run is the window");
        return new Imported(run, notes, requests);
    }
}
