package org.spice.bench.model;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

import org.HdrHistogram.Histogram;
import org.spice.bench.figures.LatencySummary;
import org.spice.bench.net.ErrorClass;

/**
 * The counts of one mix as they are gathered, request by request (a tool's log, JMeter's samples) or loop by
 * loop (SPICE's event loops): successes with their latencies in one histogram, failures by class, non-200
 * statuses, bytes, and the same per client. {@link #record} turns them into a {@link RunRecord}; every engine
 * and importer tallies the same way.
 */
public final class Tally {

    private final long[] clientRequests;
    private final long[] clientSumNanos;
    private final long[] clientErrors;
    private final long[] errorsByClass = new long[ErrorClass.count()];
    private final Map<Integer, Long> statusCodes = new TreeMap<>();
    private final Histogram histogram = new Histogram(3);
    private long requests;
    private long sumNanos;
    private long headerBytes;
    private long bodyBytes;
    private long afterWindow;
    private long keptOpen;
    private long reconnects;

    /** @param clients how many clients have figures of their own; 0 when the source does not tell clients apart */
    public Tally(int clients) {
        clientRequests = new long[clients];
        clientSumNanos = new long[clients];
        clientErrors = new long[clients];
        histogram.setAutoResize(true);
    }

    /** A request that counts; {@code client} is -1 where the source does not say. */
    public void success(int client, long latencyNanos, long body) {
        success(client, latencyNanos, 0, body);
    }

    /** As above, with the bytes of the response's head beside its body's. */
    public void success(int client, long latencyNanos, long head, long body) {
        headerBytes += head;
        requests++;
        sumNanos += latencyNanos;
        histogram.recordValue(latencyNanos);
        bodyBytes += body;
        if (client >= 0) {
            clientRequests[client]++;
            clientSumNanos[client] += latencyNanos;
        }
    }

    /** A request that does not count, and why. */
    public void failure(int client, ErrorClass why) {
        errorsByClass[why.ordinal()]++;
        if (client >= 0) {
            clientErrors[client]++;
        }
    }

    public void status(int code, long count) {
        if (count > 0) {
            statusCodes.merge(code, count, Long::sum);
        }
    }

    public void completedAfterWindow(long count) {
        afterWindow += count;
    }

    /** A client's totals, where the engine kept them per client (its latencies go in through {@link #loop}). */
    public void client(int client, long successes, long latencySumNanos, long errors) {
        clientRequests[client] += successes;
        clientSumNanos[client] += latencySumNanos;
        clientErrors[client] += errors;
        requests += successes;
        sumNanos += latencySumNanos;
    }

    /** An event loop's totals: its histogram, bytes, failures by class and connection counts. */
    public void loop(Histogram latencies, long head, long body, long[] failures, long serverKeptOpen, long reopened) {
        histogram.add(latencies);
        headerBytes += head;
        bodyBytes += body;
        for (int i = 0; i < failures.length; i++) {
            errorsByClass[i] += failures[i];
        }
        keptOpen += serverKeptOpen;
        reconnects += reopened;
    }

    /** The run these counts make, over a window of {@code durationS}. */
    public RunRecordBuilder record(String probe, int clients, int repeat, double durationS) {
        Map<String, Long> errors = new LinkedHashMap<>();
        for (ErrorClass c : ErrorClass.values()) {
            errors.put(c.id(), errorsByClass[c.ordinal()]);
        }
        Map<String, Long> statuses = new LinkedHashMap<>();
        statusCodes.forEach((code, count) -> statuses.put(Integer.toString(code), count));
        double[] meanMs = new double[clientRequests.length];
        for (int i = 0; i < meanMs.length; i++) {
            meanMs[i] = clientRequests[i] > 0 ? clientSumNanos[i] / (double) clientRequests[i] / 1e6 : Double.NaN;
        }
        return RunRecord.builder(probe, clients, repeat).durationS(durationS).requests(requests).errors(errors)
                .statusCodes(statuses).bytes(headerBytes, bodyBytes).latency(LatencySummary.of(histogram, sumNanos))
                .perClient(Arrays.copyOf(clientRequests, clientRequests.length), meanMs,
                        Arrays.copyOf(clientErrors, clientErrors.length))
                .completedAfterWindow(afterWindow).connections(keptOpen, reconnects);
    }
}
