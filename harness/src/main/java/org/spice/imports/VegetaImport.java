package org.spice.imports;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.HdrHistogram.Histogram;
import org.spice.bench.figures.Histograms;
import org.spice.bench.model.OpenLoopRun;
import org.spice.bench.model.ResultsJson;
import org.spice.bench.samples.ImportException;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * vegeta's results as {@code vegeta encode --to json} writes them, one JSON object a request (code, timestamp,
 * latency in nanoseconds, bytes_in, error, url), as one probe open loop at a rate. vegeta sends on a schedule, but
 * takes each latency from when the request actually went out (its timestamp), not from when it was due: a vegeta
 * that fell behind its schedule would not show it, and it records no lag of its own. The rate is the schedule's,
 * from the first and last timestamps, or --rate checked against them.
 */
final class VegetaImport {

    /** How far the timestamps' rate may be from --rate. */
    static final double RATE_TOLERANCE = 0.05;

    private VegetaImport() {
    }

    static OpenImported read(List<Path> files, Claim claim, Double rate, long expectedBytes) throws ImportException {
        Path file = Tools.single(files, "vegeta", "the output of vegeta encode --to json");
        Histogram latency = new Histogram(3);
        latency.setAutoResize(true);
        long succeeded = 0;
        long errors = 0;
        long timeouts = 0;
        long wrongSize = 0;
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        long lastEnd = Long.MIN_VALUE;
        long count = 0;
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            int number = 0;
            while ((line = in.readLine()) != null) {
                number++;
                if (line.isBlank()) {
                    continue;
                }
                JsonNode r = line(file, number, line);
                long at = timestamp(file, number, r.get("timestamp").asText());
                long nanos = r.get("latency").asLong();
                if (number == 1 || count == 0) {
                    claim.checkPath(file, "vegeta", java.net.URI.create(r.get("url").asText()).getPath(), "line " + number);
                }
                count++;
                first = Math.min(first, at);
                last = Math.max(last, at);
                lastEnd = Math.max(lastEnd, at + nanos);
                latency.recordValue(Math.max(0, nanos));
                String error = r.path("error").asText("");
                if (r.get("code").asInt() == 200 && error.isEmpty()) {
                    if (r.path("bytes_in").asLong() == expectedBytes) {
                        succeeded++;
                    } else {
                        wrongSize++;
                    }
                } else if (error.toLowerCase(Locale.ROOT).contains("timeout")) {
                    timeouts++;
                } else {
                    errors++;
                }
            }
        } catch (IOException e) {
            throw new ImportException(file + ": cannot read it (" + e.getMessage() + ")");
        }
        if (count < 2) {
            throw new ImportException(file + ": vegeta's results hold " + count + " requests; a rate needs two at least");
        }
        double spanS = (last - first) / 1e9;
        double scheduled = (count - 1) / spanS;
        if (rate != null && Math.abs(scheduled - rate) > RATE_TOLERANCE * rate) {
            throw new ImportException(String.format(Locale.ROOT, "%s: vegeta sent %.1f requests a second (its first and"
                    + " last timestamps), not --rate %s", file, scheduled, rate));
        }
        double offered = rate != null ? rate : scheduled;
        double durationS = count / offered;
        double ms = 1e6;
        OpenLoopRun run = new OpenLoopRun(claim.name(), offered, durationS, count, count,
                succeeded / Math.max(durationS, (lastEnd - first) / 1e9), succeeded, errors + wrongSize, timeouts, 0,
                latency.getValueAtPercentile(50) / ms, latency.getValueAtPercentile(90) / ms,
                latency.getValueAtPercentile(99) / ms, latency.getValueAtPercentile(99.9) / ms,
                latency.getMaxValue() / ms, latency.getValueAtPercentile(50) / ms, latency.getValueAtPercentile(99) / ms,
                Double.NaN, Double.NaN, Double.NaN, 0, false, null, false, Double.NaN, Histograms.encoded(latency),
                null);
        List<String> notes = new ArrayList<>();
        notes.add("vegeta: latency from each request's actual send (vegeta's timestamp), not from its due time: a vegeta"
                + " that fell behind its schedule would not show it, and vegeta records no lag of its own; no server CPU");
        if (wrongSize > 0) {
            notes.add("vegeta: " + wrongSize + " responses of status 200 had a body other than " + expectedBytes
                    + " bytes; counted as errors");
        }
        return new OpenImported(run, notes, count);
    }

    private static JsonNode line(Path file, int number, String line) throws ImportException {
        JsonNode r;
        try {
            r = ResultsJson.MAPPER.readTree(line);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new ImportException(file + ":" + number + ": not a line of vegeta encode --to json ("
                    + e.getOriginalMessage().lines().findFirst().orElse("") + ")");
        }
        for (String field : List.of("code", "timestamp", "latency", "url")) {
            if (r == null || !r.hasNonNull(field)) {
                throw new ImportException(file + ":" + number + ": a vegeta result has \"" + field + "\"; this line has"
                        + " none (vegeta encode --to json writes it)");
            }
        }
        return r;
    }

    private static long timestamp(Path file, int number, String text) throws ImportException {
        try {
            OffsetDateTime at = OffsetDateTime.parse(text);
            return at.toEpochSecond() * 1_000_000_000L + at.getNano();
        } catch (DateTimeParseException e) {
            throw new ImportException(file + ":" + number + ": timestamp \"" + text + "\" is not an RFC 3339 time");
        }
    }
}
