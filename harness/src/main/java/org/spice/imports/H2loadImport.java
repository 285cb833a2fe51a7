package org.spice.imports;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.spice.bench.model.Cpu;
import org.spice.bench.samples.ImportException;
import org.spice.bench.samples.Sample;
import org.spice.bench.samples.SampleRun;
import org.spice.bench.samples.Table;

/**
 * h2load: its {@code --log-file} (one row per request: start in µs since the epoch, status, duration in µs)
 * and its text summary ("finished in", "requests: ... succeeded, ... failed"). The log has no client per
 * request, so no fairness. A response counts by its status and SPICE's rule, not by h2load's "succeeded":
 * h2load 1.52 counts as failed every HTTP/1.1 response whose status line has no reason phrase, which is how
 * Tomcat answers.
 */
final class H2loadImport {

    private static final Pattern THREAD_CLIENTS = Pattern.compile("^spawning thread #\\d+: (\\d+) total client\\(s\\)",
            Pattern.MULTILINE);
    private static final Pattern PROTOCOL = Pattern.compile("^Application protocol: (\\S+)", Pattern.MULTILINE);
    private static final Pattern FINISHED = Pattern.compile("finished in ([0-9.]+)(ms|s),");
    private static final Pattern DATA = Pattern.compile("traffic: .*, [0-9.]+[KMG]?B \\((\\d+)\\) data");
    private static final Pattern REQUESTS = Pattern.compile("requests: (\\d+) total, (\\d+) started, (\\d+) done,"
            + " (\\d+) succeeded, (\\d+) failed");

    private H2loadImport() {
    }

    static Imported read(List<Path> files, Claim claim, long expectedBytes) throws ImportException {
        Tools.SummaryAndLog both = Tools.summaryAndLog(files, "h2load", head -> head.contains("starting benchmark...")
                || head.contains("finished in"), head -> head.matches("(?s)\\d{10,}\t-?\\d+\t\\d+.*"),
                "--log-file (start_us, status, duration_us)");
        Path summary = both.summary();
        Path log = both.log();
        String text = both.text();
        Matcher finished = FINISHED.matcher(text);
        Matcher requests = REQUESTS.matcher(text);
        if (!finished.find() || !requests.find()) {
            throw new ImportException(summary + ": h2load's summary has no \"finished in\" or \"requests:\" line");
        }
        Matcher threads = THREAD_CLIENTS.matcher(text);
        Integer stated = null;
        while (threads.find()) {
            stated = (stated == null ? 0 : stated) + Integer.parseInt(threads.group(1));
        }
        claim.checkClients(summary, "h2load", stated, "its \"spawning thread\" lines");
        double seconds = Double.parseDouble(finished.group(1)) / (finished.group(2).equals("ms") ? 1000 : 1);
        long done = Long.parseLong(requests.group(3));
        long succeeded = Long.parseLong(requests.group(4));

        List<Sample> samples = samples(log);
        if (samples.size() != done) {
            throw new ImportException(log + ": " + samples.size() + " requests, but the summary " + summary + " says "
                    + done + " done: not the same run");
        }
        double windowStart = samples.stream().mapToDouble(Sample::startMs).min().orElse(0);
        var run = SampleRun.build(claim.name(), claim.clients(), samples, windowStart, windowStart + seconds * 1000 + 1e-3, expectedBytes,
                SampleRun.Bytes.NONE, Cpu.NONE);
        List<String> notes = new ArrayList<>();
        notes.add("h2load: no client per request, so no fairness; no size per request; the whole run is the window");
        long unread = samples.stream().filter(s -> s.status() == 0).count();
        if (unread > 0) {
            Matcher data = DATA.matcher(text);
            notes.add("h2load logged " + unread + " of " + done + " responses without a status (0), so they count as"
                    + " failed" + (data.find() ? " although its data total was " + data.group(1) + " bytes" : "")
                    + ": h2load 1.52 does not read an HTTP/1.1 status line without a reason phrase, which is how Tomcat"
                    + " answers (\"HTTP/1.1 200 \": the embedded server, Tomcat, and Apache's and nginx's servlet and JSP"
                    + " probes). Measure those with SPICE's engine, ab, wrk or JMeter");
        }
        Matcher protocol = PROTOCOL.matcher(text);
        return new Imported(run, notes, succeeded, protocol.find() ? protocol.group(1) + " (h2load's application"
                + " protocol, each client one connection)" : null);
    }

    /** Each request of h2load's --log-file: its start, status and duration (no client, no size). */
    private static List<Sample> samples(Path log) throws ImportException {
        List<Sample> samples = new ArrayList<>();
        for (Table.Row row : Table.read(log, '\t')) {
            double startMs = row.whole(0, "start time (µs)") / 1000.0;
            int status = (int) row.whole(1, "status");
            double latencyMs = row.whole(2, "duration (µs)") / 1000.0;
            samples.add(new Sample(startMs, latencyMs, Math.max(status, 0), -1, "", status > 0 ? null : "failed"));
        }
        return samples;
    }
}
