package org.spice.bench.samples;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.spice.bench.model.Cpu;
import org.spice.bench.model.RunRecord;
import org.spice.bench.model.Slice;
import org.spice.bench.model.Tally;
import org.spice.bench.net.ErrorClass;

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
        /**
         * Head and body together (JMeter's "bytes"): a response is short when below the page size; the body is
         * counted as the page's size and the rest as the head, so that bytes per response means the body everywhere.
         */
        HEAD_AND_BODY,
        /** No per-request size. */
        NONE
    }

    /** One run of a mix (repeat 1) from a tool's samples; {@code cpu} is what was measured over the window. */
    public static RunRecord build(String probe, int clients, List<Sample> samples, double windowStartMs, double windowEndMs,
            long expectedBytes, Bytes bytes, Cpu cpu) {
        return build(probe, clients, 1, samples, windowStartMs, windowEndMs, expectedBytes, bytes, cpu);
    }

    /** As above, for repeat {@code repeat} of the mix. */
    public static RunRecord build(String probe, int clients, int repeat, List<Sample> samples, double windowStartMs,
            double windowEndMs, long expectedBytes, Bytes bytes, Cpu cpu) {
        Map<String, Integer> clientIndex = clientIndex(samples);
        Tally tally = new Tally(clientIndex.size());
        long afterWindow = 0;
        for (Sample s : samples) {
            if (s.startMs() < windowStartMs || s.startMs() >= windowEndMs) {
                continue;
            }
            int client = clientIndex.getOrDefault(s.client(), -1);
            if (s.status() != 200 && s.status() > 0) {
                tally.status(s.status(), 1);
            }
            ErrorClass failure = failure(s, expectedBytes, bytes);
            if (failure != null) {
                tally.failure(client, failure);
                continue;
            }
            long body = bytes == Bytes.NONE ? 0 : bytes == Bytes.HEAD_AND_BODY ? Math.min(s.bytes(), expectedBytes) : s.bytes();
            long head = bytes == Bytes.HEAD_AND_BODY ? s.bytes() - body : 0;
            tally.success(client, Math.max(1, Math.round(s.latencyMs() * 1e6)), head, body);
            if (s.endMs() > windowEndMs) {
                afterWindow++;
            }
        }
        tally.completedAfterWindow(afterWindow);
        return tally.record(probe, clients, repeat, (windowEndMs - windowStartMs) / 1000.0)
                .expectedBodyBytes(bytes == Bytes.BODY ? expectedBytes : -1).cpu(cpu)
                .slices(slices(samples, windowStartMs, windowEndMs, expectedBytes, bytes)).build();
    }

    /**
     * The window's one-second slices by the same rule (a request belongs to the second it started in); a log has
     * no CPU per second, so theirs is NaN.
     */
    static List<Slice> slices(List<Sample> samples, double windowStartMs, double windowEndMs, long expectedBytes,
            Bytes bytes) {
        int n = (int) Math.max(1, Math.ceil((windowEndMs - windowStartMs) / 1000 - 1e-9));
        long[] requests = new long[n];
        long[] errors = new long[n];
        long[] body = new long[n];
        double[] latencyMs = new double[n];
        for (Sample s : samples) {
            if (s.startMs() < windowStartMs || s.startMs() >= windowEndMs) {
                continue;
            }
            int i = (int) Math.min(n - 1, (s.startMs() - windowStartMs) / 1000);
            if (failure(s, expectedBytes, bytes) != null) {
                errors[i]++;
            } else {
                requests[i]++;
                body[i] += bytes == Bytes.NONE ? 0 : bytes == Bytes.HEAD_AND_BODY ? Math.min(s.bytes(), expectedBytes) : s.bytes();
                latencyMs[i] += s.latencyMs();
            }
        }
        List<Slice> slices = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            double start = i * 1000.0;
            double length = Math.min(1000, windowEndMs - windowStartMs - start);
            slices.add(new Slice(start / 1000, length / 1000, requests[i], errors[i], body[i], latencyMs[i], Double.NaN,
                    Double.NaN));
        }
        return slices;
    }

    /** The clients in name order, each with its index; none when the tool does not name them. */
    private static Map<String, Integer> clientIndex(List<Sample> samples) {
        Map<String, Integer> index = new TreeMap<>();
        samples.forEach(s -> index.putIfAbsent(s.client(), 0));
        if (index.size() == 1 && index.containsKey("")) {
            return Map.of();
        }
        int next = 0;
        for (Map.Entry<String, Integer> client : index.entrySet()) {
            client.setValue(next++);
        }
        return index;
    }

    /** Why a sample does not count, or null when it does. */
    static ErrorClass failure(Sample s, long expectedBytes, Bytes bytes) {
        if (s.status() == 0) {
            return ErrorClass.ofMessage(s.error());
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
