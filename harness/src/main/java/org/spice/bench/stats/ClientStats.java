package org.spice.bench.stats;

import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;
import org.spice.bench.net.ErrorClass;

/**
 * What one client measured in the window of one mix. Written by that client's thread only and read by
 * the runner after the thread has ended (Thread.join orders the two), so the counters need no locks. The
 * two live counters are volatile because the runner watches them while the mix runs to notice a dead server.
 */
public final class ClientStats {

    /** HdrHistogram precision: 3 significant digits, i.e. 0.1% relative error on every percentile. */
    private static final int DIGITS = 3;

    private final Histogram latencyNanos;
    private final long[] errors = new long[ErrorClass.count()];
    private final long[] statusCounts = new long[600];
    private long requests;
    private long headerBytes;
    private long bodyBytes;
    private long latencySumNanos;
    private long completedAfterWindow;
    private long serverKeptOpen;
    private long reconnects;

    private volatile long liveSuccesses;
    private volatile long liveRefusals;

    /** @param timeoutMillis sizes the histogram; it still grows if a latency exceeds it */
    public ClientStats(int timeoutMillis) {
        latencyNanos = new Histogram(TimeUnit.MILLISECONDS.toNanos(Math.max(1, timeoutMillis)) * 2, DIGITS);
        latencyNanos.setAutoResize(true);
    }

    /** A request that started in the window and counts. */
    public void recordSuccess(long latency, long head, long body, boolean completedAfterWindowEnd) {
        requests++;
        headerBytes += head;
        bodyBytes += body;
        latencySumNanos += latency;
        latencyNanos.recordValue(Math.max(1, latency));
        if (completedAfterWindowEnd) {
            completedAfterWindow++;
        }
    }

    /** A request that started in the window and failed. */
    public void recordError(ErrorClass error, int status) {
        errors[error.ordinal()]++;
        if (error == ErrorClass.STATUS && status >= 0 && status < statusCounts.length) {
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

    public Histogram histogram() {
        return latencyNanos;
    }

    public long requests() {
        return requests;
    }

    public long errors(ErrorClass error) {
        return errors[error.ordinal()];
    }

    public long errorTotal() {
        long total = 0;
        for (long count : errors) {
            total += count;
        }
        return total;
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

    public long latencySumNanos() {
        return latencySumNanos;
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

    public long liveSuccesses() {
        return liveSuccesses;
    }

    public long liveRefusals() {
        return liveRefusals;
    }
}
