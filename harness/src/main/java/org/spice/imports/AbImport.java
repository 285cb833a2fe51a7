package org.spice.imports;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.HdrHistogram.Histogram;
import org.spice.bench.figures.LatencySummary;
import org.spice.bench.model.RunRecord;
import org.spice.bench.samples.ImportException;
import org.spice.bench.samples.Table;

/**
 * ApacheBench: its text summary (the counts, the time taken, the document length) and its {@code -g}
 * file (one row per request: start second, connect, processing and total time in whole ms). ab keeps no
 * status per request and no per-client figures; its -g latencies are whole milliseconds.
 */
final class AbImport {

    private static final Pattern NUMBER = Pattern.compile("^%s:\\s+([0-9.]+)", Pattern.MULTILINE);

    private AbImport() {
    }

    static Imported read(List<Path> files, Claim claim, long expectedBytes) throws ImportException {
        Tools.SummaryAndLog both = Tools.summaryAndLog(files, "ab", head -> head.contains("This is ApacheBench")
                || head.contains("Complete requests:"), head -> head.startsWith("starttime\tseconds\tctime"),
                "-g file (\"starttime\tseconds\t...\")");
        Path summary = both.summary();
        Path gnuplot = both.log();
        String text = both.text();
        Matcher path = Pattern.compile("^Document Path:\\s+(\\S+)", Pattern.MULTILINE).matcher(text);
        claim.checkPath(summary, "ab", path.find() ? path.group(1) : null, "its Document Path");
        claim.checkClients(summary, "ab", (int) number(text, summary, "Concurrency Level"), "its Concurrency Level");
        double seconds = number(text, summary, "Time taken for tests");
        long complete = (long) number(text, summary, "Complete requests");
        long failed = (long) number(text, summary, "Failed requests");
        long non2xx = text.contains("Non-2xx responses:") ? (long) number(text, summary, "Non-2xx responses") : 0;
        long documentLength = (long) number(text, summary, "Document Length");
        long html = (long) number(text, summary, "HTML transferred");
        long total = (long) number(text, summary, "Total transferred");

        Histogram histogram = new Histogram(3);
        histogram.setAutoResize(true);
        long sumNanos = latencies(gnuplot, histogram);
        if (histogram.getTotalCount() != complete) {
            throw new ImportException(gnuplot + ": " + histogram.getTotalCount() + " requests, but the summary "
                    + summary + " says " + complete + " complete: not the same run");
        }
        long ok = complete - failed - non2xx;
        java.util.Map<String, Long> errors = new java.util.LinkedHashMap<>();
        errors.put("status", non2xx);
        errors.put("io", failed);
        // -g has whole milliseconds (a fast page is 0 or 1): the mean comes from ab's own "Time per request".
        Matcher mean = Pattern.compile("Time per request:\\s+([0-9.]+) \\[ms\\] \\(mean\\)").matcher(text);
        if (mean.find()) {
            sumNanos = Math.round(Double.parseDouble(mean.group(1)) * 1e6 * histogram.getTotalCount());
        }
        LatencySummary latency = LatencySummary.of(histogram, sumNanos);
        RunRecord run = RunRecord.builder(claim.name(), claim.clients(), 1).durationS(seconds).requests(ok).errors(errors)
                .bytes(total - html, complete > 0 ? html * ok / complete : 0).expectedBodyBytes(expectedBytes)
                .latency(latency).build();
        List<String> notes = new ArrayList<>();
        notes.add("ab: no status per request (its -g rows are every completed request, failed ones included, for the"
                + " latencies); percentiles from whole milliseconds (the mean is ab's own); no per-client figures, so no fairness; the whole run"
                + " is the window (ab has no ramp-up)");
        if (documentLength != expectedBytes) {
            notes.add("ab saw a " + documentLength + "-byte document, not the " + expectedBytes + "-byte page");
        }
        return new Imported(run, notes, ok);
    }

    /** Every request's total time from ab's -g file into {@code histogram}; returns their sum, nanoseconds. */
    private static long latencies(Path gnuplot, Histogram histogram) throws ImportException {
        long sumNanos = 0;
        List<Table.Row> rows = Table.read(gnuplot, '\t');
        for (Table.Row row : rows.subList(1, rows.size())) {
            long ttime = row.whole(4, "ttime (total ms)");
            if (ttime < 0) {
                throw row.bad("ttime is negative");
            }
            long nanos = Math.max(1, ttime * 1_000_000);
            histogram.recordValue(nanos);
            sumNanos += nanos;
        }
        return sumNanos;
    }

    private static double number(String text, Path file, String label) throws ImportException {
        Matcher m = Pattern.compile(String.format(NUMBER.pattern(), Pattern.quote(label)), Pattern.MULTILINE).matcher(text);
        if (!m.find()) {
            throw new ImportException(file + ": ab's summary has no \"" + label + ":\" line");
        }
        return Double.parseDouble(m.group(1));
    }
}
