package org.spice.bench.engine;

import org.spice.bench.figures.LatencySummary;
import org.spice.bench.model.RunRecord;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.HdrHistogram.Histogram;
import org.spice.bench.net.ErrorClass;

/** Turns what the clients and loops of one mix measured into its {@link RunRecord}. */
public final class RunMetrics {

    private RunMetrics() {
    }

    /** What the CPU meters read over the window; NaN where not measured. */
    public record Cpu(double clientS, double serverS, double machineS) {
        public static final Cpu NONE = new Cpu(Double.NaN, Double.NaN, Double.NaN);
    }

    /**
     * @param durationS the measured window (or the part of it the server was alive for)
     * @param failed    why the mix does not count, or null
     */
    public static RunRecord build(String probe, int repeat, List<ClientCounts> clients, List<LoopStats> loops,
            double durationS, long expectedBodyBytes, Cpu cpu, String failed) {
        int n = clients.size();
        long[] requests = new long[n];
        double[] meanMs = new double[n];
        long[] errors = new long[n];
        long total = 0;
        long sumNanos = 0;
        for (int i = 0; i < n; i++) {
            ClientCounts c = clients.get(i);
            requests[i] = c.requests();
            meanMs[i] = c.requests() > 0 ? c.latencySumNanos() / (double) c.requests() / 1e6 : Double.NaN;
            errors[i] = c.errors();
            total += c.requests();
            sumNanos += c.latencySumNanos();
        }
        long headerBytes = 0;
        long bodyBytes = 0;
        long afterWindow = 0;
        long keptOpen = 0;
        long reconnects = 0;
        List<Histogram> histograms = new ArrayList<>(loops.size());
        for (LoopStats loop : loops) {
            headerBytes += loop.headerBytes();
            bodyBytes += loop.bodyBytes();
            afterWindow += loop.completedAfterWindow();
            keptOpen += loop.serverKeptOpen();
            reconnects += loop.reconnects();
            histograms.add(loop.histogram());
        }
        Map<String, Long> byClass = new LinkedHashMap<>();
        for (ErrorClass error : ErrorClass.values()) {
            byClass.put(error.id(), loops.stream().mapToLong(l -> l.errors(error)).sum());
        }
        Map<String, Long> statusCodes = new LinkedHashMap<>();
        for (int status = 0; status < 600; status++) {
            final int code = status;
            long count = loops.stream().mapToLong(l -> l.statusCount(code)).sum();
            if (count > 0) {
                statusCodes.put(Integer.toString(status), count);
            }
        }
        LatencySummary latency = LatencySummary.of(LatencySummary.merge(histograms), sumNanos);
        return new RunRecord(probe, n, repeat, failed != null, failed, durationS, total, byClass, statusCodes,
                headerBytes, bodyBytes, expectedBodyBytes, latency, requests, meanMs, errors, cpu.clientS(),
                cpu.serverS(), cpu.machineS(), afterWindow, keptOpen, reconnects);
    }
}
