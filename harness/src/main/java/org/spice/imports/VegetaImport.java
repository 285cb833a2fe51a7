package org.spice.imports;

import java.io.BufferedReader;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.HdrHistogram.Histogram;
import org.spice.bench.figures.OpenFigures;
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
        Tally tally = new Tally(expectedBytes);
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            int number = 0;
            while ((line = in.readLine()) != null) {
                number++;
                if (!line.isBlank()) {
                    JsonNode r = line(file, number, line);
                    if (tally.count == 0) {
                        claim.checkPath(file, "vegeta", URI.create(r.get("url").asText()).getPath(), "line " + number);
                    }
                    tally.add(r, timestamp(file, number, r.get("timestamp").asText()));
                }
            }
        } catch (IOException e) {
            throw new ImportException(file + ": cannot read it (" + e.getMessage() + ")");
        }
        if (tally.count < 2) {
            throw new ImportException(file + ": vegeta's results hold " + tally.count + " requests; a rate needs two at"
                    + " least");
        }
        double scheduled = (tally.count - 1) / ((tally.last - tally.first) / 1e9);
        if (rate != null && Math.abs(scheduled - rate) > RATE_TOLERANCE * rate) {
            throw new ImportException(String.format(Locale.ROOT, "%s: vegeta sent %.1f requests a second (its first and"
                    + " last timestamps), not --rate %s", file, scheduled, rate));
        }
        List<String> notes = new ArrayList<>();
        notes.add("vegeta: latency from each request's actual send (vegeta's timestamp), not from its due time: a vegeta"
                + " that fell behind its schedule would not show it, and vegeta records no lag of its own; no server CPU");
        if (tally.wrongSize > 0) {
            notes.add("vegeta: " + tally.wrongSize + " responses of status 200 had a body other than " + expectedBytes
                    + " bytes; counted as errors");
        }
        return new OpenImported(tally.run(claim.name(), rate != null ? rate : scheduled), notes, tally.count);
    }

    /** vegeta's results line by line: the outcomes, the latencies, the first and last timestamps. */
    private static final class Tally {
        private final long expectedBytes;
        private final Histogram latency = OpenFigures.histogram();
        private long succeeded;
        private long errors;
        private long timeouts;
        private long wrongSize;
        private long first = Long.MAX_VALUE;
        private long last = Long.MIN_VALUE;
        private long lastEnd = Long.MIN_VALUE;
        private long count;

        Tally(long expectedBytes) {
            this.expectedBytes = expectedBytes;
        }

        /** One request, sent at {@code at} (nanoseconds of the epoch). */
        void add(JsonNode r, long at) {
            long nanos = r.get("latency").asLong();
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

        /**
         * The run at {@code offered} requests a second: vegeta's latency is from the send, so it stands for the service
         * time too.
         */
        OpenLoopRun run(String probe, double offered) {
            double durationS = count / offered;
            return OpenLoopRun.builder(probe, offered, durationS).requests(count, count)
                    .outcomes(succeeded / Math.max(durationS, (lastEnd - first) / 1e9), succeeded, errors + wrongSize,
                            timeouts, 0)
                    .latency(latency).serviceMs(OpenFigures.ms(latency, 50), OpenFigures.ms(latency, 99)).build();
        }
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
