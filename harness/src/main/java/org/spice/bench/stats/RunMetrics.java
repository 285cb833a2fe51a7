package org.spice.bench.stats;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.HdrHistogram.Histogram;
import org.spice.bench.net.ErrorClass;

/** Turns what the clients of one mix measured into its {@link RunRecord}. */
public final class RunMetrics {

    private RunMetrics() {
    }

    /**
     * @param durationS  the measured window
     * @param clientCpuS client CPU seconds over the window
     * @param serverCpuS server CPU seconds over the window, NaN if not measured
     * @param machineCpuS busy CPU seconds of the machine over the window less the client's, NaN if not measured
     */
    public static RunRecord build(String probe, int repeat, List<ClientStats> clients, double durationS,
            long expectedBodyBytes, double clientCpuS, double serverCpuS, double machineCpuS, boolean failed, String reason) {
        int n = clients.size();
        long[] requests = new long[n];
        double[] meanMs = new double[n];
        long[] errors = new long[n];
        long total = 0;
        long headerBytes = 0;
        long bodyBytes = 0;
        long sumNanos = 0;
        long afterWindow = 0;
        long keptOpen = 0;
        long reconnects = 0;
        List<Histogram> histograms = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            ClientStats c = clients.get(i);
            requests[i] = c.requests();
            meanMs[i] = c.requests() > 0 ? c.latencySumNanos() / (double) c.requests() / 1e6 : Double.NaN;
            errors[i] = c.errorTotal();
            total += c.requests();
            headerBytes += c.headerBytes();
            bodyBytes += c.bodyBytes();
            sumNanos += c.latencySumNanos();
            afterWindow += c.completedAfterWindow();
            keptOpen += c.serverKeptOpen();
            reconnects += c.reconnects();
            histograms.add(c.histogram());
        }
        Map<String, Long> byClass = new LinkedHashMap<>();
        for (ErrorClass error : ErrorClass.values()) {
            long count = clients.stream().mapToLong(c -> c.errors(error)).sum();
            byClass.put(error.id(), count);
        }
        Map<String, Long> statusCodes = new LinkedHashMap<>();
        for (int status = 0; status < 600; status++) {
            final int code = status;
            long count = clients.stream().mapToLong(c -> c.statusCount(code)).sum();
            if (count > 0) {
                statusCodes.put(Integer.toString(status), count);
            }
        }
        LatencySummary latency = LatencySummary.of(LatencySummary.merge(histograms), sumNanos);
        return new RunRecord(probe, n, repeat, failed, reason, durationS, total, byClass, statusCodes, headerBytes,
                bodyBytes, expectedBodyBytes, latency, requests, meanMs, errors, clientCpuS, serverCpuS, machineCpuS, afterWindow,
                keptOpen, reconnects);
    }
}
