package org.spice.bench.samples;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.HdrHistogram.Histogram;
import org.spice.bench.net.ErrorClass;
import org.spice.bench.figures.LatencySummary;
import org.spice.bench.model.RunRecord;

/**
 * A tool's per-request log turned into one SPICE mix, by the window rule of SPICE's own engine: the
 * requests that started in the window count, completed even if after it. A request counts when its status
 * is 200 and its size is right; the rest are errors by class, as the engine's.
 */
public final class SampleRun {

    private SampleRun() {
    }

    /** What the tool's byte counts hold. */
    public enum Bytes {
        /** The body only (ab's and h2load's per-request logs have none; oha's sizes are bodies). */
        BODY,
        /** Head and body together (JMeter's "bytes"): a response is short when below the page size. */
        HEAD_AND_BODY,
        /** No per-request size. */
        NONE
    }

    /**
     * @param cpu client, server and machine CPU seconds over the window, NaN where not measured
     */
    public static RunRecord build(String probe, int clients, List<Sample> samples, double windowStartMs, double windowEndMs,
            long expectedBytes, Bytes bytes, double[] cpu) {
        return build(probe, clients, 1, samples, windowStartMs, windowEndMs, expectedBytes, bytes, cpu);
    }

    /** As above, for repeat {@code repeat} of the mix. */
    public static RunRecord build(String probe, int clients, int repeat, List<Sample> samples, double windowStartMs,
            double windowEndMs, long expectedBytes, Bytes bytes, double[] cpu) {
        Map<String, Long> errors = new LinkedHashMap<>();
        for (ErrorClass c : ErrorClass.values()) {
            errors.put(c.id(), 0L);
        }
        Map<String, Long> statusCodes = new TreeMap<>();
        // Clients in name order, each with its index (the tool's thread or connection names).
        Map<String, Integer> clientIndex = new TreeMap<>();
        for (Sample s : samples) {
            clientIndex.putIfAbsent(s.client(), 0);
        }
        int next = 0;
        for (Map.Entry<String, Integer> client : clientIndex.entrySet()) {
            client.setValue(next++);
        }
        boolean perClient = !(clientIndex.size() == 1 && clientIndex.containsKey(""));
        int n = perClient ? clientIndex.size() : 0;
        long[] clientRequests = new long[n];
        long[] clientErrors = new long[n];
        double[] clientSumMs = new double[n];
        Histogram histogram = new Histogram(3);
        histogram.setAutoResize(true);
        long requests = 0;
        long sumNanos = 0;
        long bodyBytes = 0;
        long afterWindow = 0;
        for (Sample s : samples) {
            if (s.startMs() < windowStartMs || s.startMs() >= windowEndMs) {
                continue;
            }
            int client = perClient ? clientIndex.get(s.client()) : -1;
            ErrorClass failure = failure(s, expectedBytes, bytes);
            if (s.status() != 200 && s.status() > 0) {
                statusCodes.merge(Integer.toString(s.status()), 1L, Long::sum);
            }
            if (failure != null) {
                errors.merge(failure.id(), 1L, Long::sum);
                if (client >= 0) {
                    clientErrors[client]++;
                }
                continue;
            }
            requests++;
            long nanos = Math.max(1, Math.round(s.latencyMs() * 1e6));
            histogram.recordValue(nanos);
            sumNanos += nanos;
            bodyBytes += bytes == Bytes.NONE ? 0 : s.bytes();
            if (s.endMs() > windowEndMs) {
                afterWindow++;
            }
            if (client >= 0) {
                clientRequests[client]++;
                clientSumMs[client] += s.latencyMs();
            }
        }
        double[] clientMeanMs = new double[n];
        for (int i = 0; i < n; i++) {
            clientMeanMs[i] = clientRequests[i] > 0 ? clientSumMs[i] / clientRequests[i] : Double.NaN;
        }
        LatencySummary latency = LatencySummary.of(histogram, sumNanos);
        return new RunRecord(probe, clients, repeat, false, null, (windowEndMs - windowStartMs) / 1000.0, requests, errors,
                statusCodes, 0, bodyBytes, bytes == Bytes.BODY ? expectedBytes : -1, latency, clientRequests, clientMeanMs,
                clientErrors, cpu[0], cpu[1], cpu[2], afterWindow, 0, 0);
    }

    /** Why a sample does not count, or null when it does. */
    static ErrorClass failure(Sample s, long expectedBytes, Bytes bytes) {
        if (s.status() == 0) {
            String error = s.error() == null ? "" : s.error().toLowerCase(java.util.Locale.ROOT);
            return error.contains("refused") ? ErrorClass.CONNECT_REFUSED
                    : error.contains("timed out") || error.contains("timeout") ? ErrorClass.TIMEOUT
                    : error.contains("reset") ? ErrorClass.RESET : ErrorClass.IO;
        }
        if (s.status() != 200) {
            return ErrorClass.STATUS;
        }
        if (bytes == Bytes.BODY && s.bytes() != expectedBytes) {
            return s.bytes() < expectedBytes ? ErrorClass.SHORT_BODY : ErrorClass.LONG_BODY;
        }
        if (bytes == Bytes.HEAD_AND_BODY && s.bytes() < expectedBytes) {
            return ErrorClass.SHORT_BODY;
        }
        return null;
    }
}
