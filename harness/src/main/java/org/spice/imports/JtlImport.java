package org.spice.imports;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.spice.bench.model.Cpu;
import org.spice.bench.samples.ImportException;
import org.spice.bench.samples.Jtl;
import org.spice.bench.samples.Sample;
import org.spice.bench.samples.SampleRun;
import org.spice.bench.samples.Table;

/**
 * Apache JMeter's results (a JTL in CSV with its header row, the default): one row per sample with its
 * time stamp, elapsed ms, response code, thread and bytes. Threads are clients, so per-client rates and
 * fairness come through; JMeter times in whole milliseconds, and its bytes include the response head.
 */
public final class JtlImport {

    private JtlImport() {
    }

    static Imported read(List<Path> files, Claim claim, long expectedBytes) throws ImportException {
        String probe = claim.name();
        int clients = claim.clients();
        List<Sample> samples = new ArrayList<>();
        for (Path file : files) {
            samples.addAll(Jtl.samples(file));
            checkStated(file, claim);
        }
        if (samples.isEmpty()) {
            throw new ImportException(files.get(0) + ": no samples");
        }
        double start = samples.stream().mapToDouble(Sample::startMs).min().orElse(0);
        double end = samples.stream().mapToDouble(Sample::endMs).max().orElse(0);
        var run = SampleRun.build(probe, clients, samples, start, Math.max(end, start + 1), expectedBytes,
                SampleRun.Bytes.HEAD_AND_BODY, Cpu.NONE);
        long toolOk = samples.stream().filter(s -> s.error() == null).count();
        return new Imported(run, List.of("JMeter: latencies in whole milliseconds; JMeter counts a response's head and body"
                + " together: a response counts when it has at least the page's bytes, its body as the page's size and"
                + " the rest as its head; the whole run is the window"), toolOk);
    }

    /**
     * What a JTL states of its run: the URL of every sample (its {@code URL} column) must be the probe's, and the
     * threads active at once ({@code allThreads}, summed over engines by the caller's files) at most the clients.
     */
    private static void checkStated(Path file, Claim claim) throws ImportException {
        List<Table.Row> rows = Table.read(file, ',');
        List<String> header = java.util.Arrays.asList(rows.get(0).cells());
        int url = header.indexOf("URL");
        int all = header.indexOf("allThreads");
        int threads = header.indexOf("threadName");
        java.util.Set<String> names = new java.util.HashSet<>();
        long mostActive = 0;
        for (Table.Row row : rows.subList(1, rows.size())) {
            if (url >= 0 && !row.cell(url).isEmpty() && !row.cell(url).equals("null")) {
                claim.checkPath(file.resolveSibling(file.getFileName() + ":" + row.line()), "JMeter", row.cell(url), "its URL column");
            }
            if (all >= 0) {
                mostActive = Math.max(mostActive, row.whole(all, "allThreads"));
            }
            names.add(row.cell(threads));
        }
        if (names.size() > claim.clients()) {
            claim.checkClients(file, "JMeter", names.size(), names.size() + " thread names");
        }
        if (mostActive > claim.clients()) {
            claim.checkClients(file, "JMeter", (int) mostActive, "its allThreads column");
        }
    }
}
