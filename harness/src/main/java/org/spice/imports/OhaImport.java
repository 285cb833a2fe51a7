package org.spice.imports;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.spice.bench.figures.LatencySummary;
import org.spice.bench.model.OpenLoopRun;
import org.spice.bench.model.ResultsJson;
import org.spice.bench.model.RunRecord;
import org.spice.bench.samples.ImportException;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * oha's {@code --output-format json} (or {@code -j}): a summary (seconds), latency percentiles, status codes
 * and errors. oha keeps no per-request or per-client output there, so no fairness; its sizes are bodies.
 * Run it with {@code --disable-keepalive} for SPICE's connection per request.
 */
final class OhaImport {

    /** How far the rate oha achieved may be from --rate for its run to count as open loop at that rate. */
    static final double OPEN_RATE_TOLERANCE = 0.05;

    private OhaImport() {
    }

    static Imported read(List<Path> files, Claim claim, long expectedBytes) throws ImportException {
        String probe = claim.name();
        int clients = claim.clients();
        Path file = Tools.single(files, "oha", "oha's --output-format json output");
        JsonNode json = json(file);
        JsonNode summary = json.get("summary");
        long ok = 0;
        long otherStatus = 0;
        Map<String, Long> statusCodes = new LinkedHashMap<>();
        var codes = json.get("statusCodeDistribution").fields();
        while (codes.hasNext()) {
            var code = codes.next();
            if (code.getKey().equals("200")) {
                ok = code.getValue().asLong();
            } else {
                otherStatus += code.getValue().asLong();
                statusCodes.put(code.getKey(), code.getValue().asLong());
            }
        }
        long failed = 0;
        var errorsIt = json.path("errorDistribution").fields();
        while (errorsIt.hasNext()) {
            failed += errorsIt.next().getValue().asLong();
        }
        Map<String, Long> errors = new LinkedHashMap<>();
        errors.put("status", otherStatus);
        errors.put("io", failed);
        List<LatencySummary.Percentile> points = new ArrayList<>();
        var percentiles = json.get("latencyPercentiles").fields();
        while (percentiles.hasNext()) {
            var p = percentiles.next();
            points.add(new LatencySummary.Percentile(Double.parseDouble(p.getKey().substring(1)), p.getValue().asDouble() * 1000));
        }
        LatencySummary latency = LatencySummary.ofPercentiles(points, summary.path("average").asDouble() * 1000,
                summary.path("slowest").asDouble() * 1000);
        long body = Math.round(summary.path("totalData").asDouble());
        RunRecord run = RunRecord.builder(probe, clients, 1).durationS(summary.path("total").asDouble()).requests(ok)
                .errors(errors).statusCodes(statusCodes).bytes(0, ok + otherStatus > 0 ? body * ok / (ok + otherStatus) : 0)
                .expectedBodyBytes(expectedBytes).latency(latency).build();
        return new Imported(run, List.of("oha: no per-request or per-client output, so no fairness; its JSON states neither"
                + " the URL nor the concurrency, so --probe and --clients are as given; the whole run is the window; without --disable-keepalive it keeps its connections open (not SPICE's method)"), ok);
    }

    /**
     * oha run open loop ({@code -q R --latency-correction}, one probe at R requests a second) as SPICE keeps an open
     * loop's run: its percentiles (p50 to p99.9 and the slowest), its rate, its status codes and errors. Its JSON does
     * not say whether --latency-correction was on (with it, each latency is from the request's scheduled time; without,
     * from its send), nor the rate it was asked for: --rate is checked against the rate it achieved.
     */
    static OpenImported readOpen(List<Path> files, Claim claim, double rate, long expectedBytes)
            throws ImportException {
        Imported closed = read(files, claim, expectedBytes);
        RunRecord r = closed.run();
        Path file = files.get(0);
        JsonNode percentiles = json(file).get("latencyPercentiles");
        double achieved = r.durationS() > 0 ? r.requests() / r.durationS() : Double.NaN;
        if (!(Math.abs(achieved - rate) <= OPEN_RATE_TOLERANCE * rate)) {
            throw new ImportException(String.format(java.util.Locale.ROOT, "%s: oha served %.1f requests a second, not"
                    + " --rate %s within %.0f %%: a run that could not hold its rate is not an open loop at it (or -q"
                    + " was another rate)", file, achieved, rate, 100 * OPEN_RATE_TOLERANCE));
        }
        long total = r.requests() + r.errorTotal();
        double ms = 1000;
        OpenLoopRun run = OpenLoopRun.builder(claim.name(), rate, r.durationS()).requests(total, total)
                .outcomes(achieved, r.requests(), r.errorTotal(), 0, 0)
                .latencyMs(percentiles.path("p50").asDouble(Double.NaN) * ms,
                        percentiles.path("p90").asDouble(Double.NaN) * ms, percentiles.path("p99").asDouble(Double.NaN) * ms,
                        percentiles.path("p99.9").asDouble(Double.NaN) * ms, r.latency().maxMs()).build();
        return new OpenImported(run, List.of("oha open loop (-q " + rate + "): its JSON does not say whether"
                + " --latency-correction was on (with it, latency from each request's scheduled time, as SPICE's open"
                + " loop takes it; without, from its send, and a stalled server is under-reported); its percentiles as it"
                + " gives them (no histogram), no lag of its own, no server CPU"), total);
    }

    /** oha's JSON, with the parts the import reads; a malformed or truncated file is named with its line. */
    private static JsonNode json(Path file) throws ImportException {
        JsonNode json;
        try {
            json = ResultsJson.MAPPER.readTree(file.toFile());
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new ImportException(file + ":" + (e.getLocation() == null ? 1 : e.getLocation().getLineNr())
                    + ": not oha's JSON output (" + e.getOriginalMessage().lines().findFirst().orElse("") + ")");
        } catch (java.io.IOException e) {
            throw new ImportException(file + ": cannot read it (" + e.getMessage() + ")");
        }
        for (String field : List.of("summary", "latencyPercentiles", "statusCodeDistribution")) {
            if (json == null || !json.has(field)) {
                throw new ImportException(file + ": oha's JSON has no \"" + field + "\" (truncated, or not --output-format json?)");
            }
        }
        return json;
    }
}
