package org.spice.bench.engine;

import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;
import org.spice.bench.net.ErrorClass;

/**
 * What the clients of one event loop measured in the window of one mix: the latency histogram, errors
 * by class, status codes and byte counts, kept once per loop thread rather than per client. Written by
 * that thread only and read by the runner after it has ended (Thread.join orders the two); the two live
 * counters are volatile because the runner watches them while the mix runs to notice a dead server.
 */
public final class LoopStats {

    /** HdrHistogram precision: 3 significant digits, i.e. 0.1% relative error on every percentile. */
    private static final int DIGITS = 3;
    private static final int STATUSES = 600;

    private final Histogram latencyNanos;
    private final long[] errors = new long[ErrorClass.count()];
    private final long[] statusCounts = new long[STATUSES];
    private long headerBytes;
    private long bodyBytes;
    private long completedAfterWindow;
    private long serverKeptOpen;
    private long reconnects;
    /** When the last counted request of this loop ended (System.nanoTime), 0 if none did. */
    private long lastSuccessAt;

    /** The window's slices: requests by the second of the window they started in (the window rule, per second). */
    private long windowStart;
    private long[] sliceRequests = new long[0];
    private long[] sliceErrors = new long[0];
    private long[] sliceBodyBytes = new long[0];
    private long[] sliceLatencyNanos = new long[0];

    private volatile long liveSuccesses;
    private volatile long liveRefusals;

    /** @param timeoutMillis sizes the histogram; it still grows if a latency exceeds it */
    public LoopStats(int timeoutMillis) {
        latencyNanos = new Histogram(TimeUnit.MILLISECONDS.toNanos(Math.max(1, timeoutMillis)) * 2, DIGITS);
        latencyNanos.setAutoResize(true);
    }

    /** The window the slices divide, on the System.nanoTime clock: set by the loop before its clients start. */
    public void window(long start, long end) {
        windowStart = start;
        int n = (int) Math.max(1, (end - start + EventLoopEngine.SLICE_NANOS - 1) / EventLoopEngine.SLICE_NANOS);
        sliceRequests = new long[n];
        sliceErrors = new long[n];
        sliceBodyBytes = new long[n];
        sliceLatencyNanos = new long[n];
    }

    /** A request of {@code client} that started in the window and counts. */
    public void recordSuccess(ClientCounts client, long start, long end, long head, long body,
            boolean completedAfterWindowEnd) {
        long latency = end - start;
        int slice = slice(start);
        if (slice >= 0) {
            sliceRequests[slice]++;
            sliceBodyBytes[slice] += body;
            sliceLatencyNanos[slice] += latency;
        }
        client.requests++;
        client.latencySumNanos += latency;
        headerBytes += head;
        bodyBytes += body;
        latencyNanos.recordValue(Math.max(1, latency));
        lastSuccessAt = end;
        if (completedAfterWindowEnd) {
            completedAfterWindow++;
        }
    }

    /** A request of {@code client} that started in the window (at {@code start}) and failed. */
    public void recordError(ClientCounts client, ErrorClass error, int status, long start) {
        client.errors++;
        int slice = slice(start);
        if (slice >= 0) {
            sliceErrors[slice]++;
        }
        errors[error.ordinal()]++;
        if (error == ErrorClass.STATUS && status >= 0 && status < STATUSES) {
            statusCounts[status]++;
        }
    }

    /** Any request in any phase, for the runner's watch on the server. */
    public void recordLive(boolean success, ErrorClass error) {
        if (success) {
            liveSuccesses++;   // single writer: the read-modify-write of a volatile is safe here
        } else if (error == ErrorClass.CONNECT_REFUSED) {
            liveRefusals++;
        }
    }

    public void addConnectionCounts(long keptOpen, long reopened) {
        serverKeptOpen += keptOpen;
        reconnects += reopened;
    }

    private int slice(long start) {
        long index = (start - windowStart) / EventLoopEngine.SLICE_NANOS;
        return index >= 0 && index < sliceRequests.length ? (int) index : -1;
    }

    public long[] sliceRequests() {
        return sliceRequests;
    }

    public long[] sliceErrors() {
        return sliceErrors;
    }

    public long[] sliceBodyBytes() {
        return sliceBodyBytes;
    }

    public long[] sliceLatencyNanos() {
        return sliceLatencyNanos;
    }

    public Histogram histogram() {
        return latencyNanos;
    }

    public long errors(ErrorClass error) {
        return errors[error.ordinal()];
    }

    public boolean anyErrors() {
        for (long count : errors) {
            if (count > 0) {
                return true;
            }
        }
        return false;
    }

    public long statusCount(int status) {
        return statusCounts[status];
    }

    public long headerBytes() {
        return headerBytes;
    }

    public long bodyBytes() {
        return bodyBytes;
    }

    public long completedAfterWindow() {
        return completedAfterWindow;
    }

    public long serverKeptOpen() {
        return serverKeptOpen;
    }

    public long reconnects() {
        return reconnects;
    }

    public long lastSuccessAt() {
        return lastSuccessAt;
    }

    public long liveSuccesses() {
        return liveSuccesses;
    }

    public long liveRefusals() {
        return liveRefusals;
    }
}
