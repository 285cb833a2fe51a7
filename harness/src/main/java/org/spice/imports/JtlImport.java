package org.spice.imports;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.spice.bench.model.Cpu;
import org.spice.bench.samples.ImportException;
import org.spice.bench.samples.Jtl;
import org.spice.bench.samples.Sample;
import org.spice.bench.samples.SampleRun;

/**
 * Apache JMeter's results (a JTL in CSV with its header row, the default): one row per sample with its
 * time stamp, elapsed ms, response code, thread and bytes. Threads are clients, so per-client rates and
 * fairness come through; JMeter times in whole milliseconds, and its bytes include the response head.
 */
public final class JtlImport {

    private JtlImport() {
    }

    static Imported read(List<Path> files, String probe, int clients, long expectedBytes) throws ImportException {
        List<Sample> samples = new ArrayList<>();
        for (Path file : files) {
            samples.addAll(Jtl.samples(file));
        }
        if (samples.isEmpty()) {
            throw new ImportException(files.get(0) + ": no samples");
        }
        double start = samples.stream().mapToDouble(Sample::startMs).min().orElse(0);
        double end = samples.stream().mapToDouble(Sample::endMs).max().orElse(0);
        var run = SampleRun.build(probe, clients, samples, start, Math.max(end, start + 1), expectedBytes,
                SampleRun.Bytes.HEAD_AND_BODY, Cpu.NONE);
        long toolOk = samples.stream().filter(s -> s.error() == null).count();
        return new Imported(run, List.of("JMeter: latencies in whole milliseconds; bytes include the response head"
                + " (a response counts when it has at least the page's bytes); the whole run is the window"), toolOk);
    }
}
