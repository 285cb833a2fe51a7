package org.spice.bench.engine;

import java.util.Locale;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;
import org.spice.bench.figures.OpenFigures;
import org.spice.bench.model.OpenLoopRun;
import org.spice.bench.net.ErrorClass;

/**
 * What an {@link OpenLoop} measured: latency from each request's due time, service time from when it went out, the
 * generator's lag, and the counts. Every value goes into HdrHistogram with a plain {@code recordValue}: latency taken
 * from the due time already holds the wait a stalled server caused, so the histogram's expected-interval correction
 * would count it twice. Written by the loop's thread only.
 */
public final class OpenStats {

    /**
     * A run whose generator was later than {@link OpenFigures#OpenFigures.LAG_LIMIT_MS} at its 99.9th percentile was the
     * generator's, not the server's; so was one that dropped more than this share of its requests.
     */
    public static final double DROP_LIMIT = 0.001;
    private static final int DIGITS = 3;

    private final OpenPlan plan;
    private final long timeoutNanos;
    private final Histogram latency;
    private final Histogram service;
    private final Histogram lag;
    private final long[] errors = new long[ErrorClass.count()];
    /** Per slice of a round's schedule ({@link OpenPlan.Slicing}; none otherwise): successes, and the rest. */
    private final long[] sliceSucceeded;
    private final long[] sliceFailed;
    private long sent;
    private long succeeded;
    private long dropped;
    private long timedOut;
    private long lastEnd;
    private long t0;
    private long due;
    private long gcMillis;
    private boolean stopped;

    OpenStats(OpenPlan plan) {
        this.plan = plan;
        this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(plan.timeoutMillis());
        long highest = Math.max(2 * timeoutNanos, TimeUnit.SECONDS.toNanos(1));
        latency = autoResizing(highest);
        service = autoResizing(highest);
        lag = autoResizing(highest);
        int slices = plan.slicing() == null ? 0 : plan.slicing().courses().size();
        sliceSucceeded = new long[slices];
        sliceFailed = new long[slices];
    }

    private static Histogram autoResizing(long highest) {
        Histogram h = new Histogram(highest, DIGITS);
        h.setAutoResize(true);
        return h;
    }

    void lag(long nanos) {
        lag.recordValue(Math.max(0, nanos));
    }

    void sent() {
        sent++;
    }

    /** Requests sent so far: which request of the plan goes next. */
    long sentSoFar() {
        return sent;
    }

    void succeeded(long latencyNanos, long serviceNanos, long end, int slice) {
        if (slice >= 0) {
            sliceSucceeded[slice]++;
        }
        succeeded++;
        latency.recordValue(Math.max(0, latencyNanos));
        service.recordValue(Math.max(0, serviceNanos));
        lastEnd = Math.max(lastEnd, end);
    }

    void failed(ErrorClass outcome, int slice) {
        if (slice >= 0) {
            sliceFailed[slice]++;
        }
        errors[outcome.ordinal()]++;
    }

    /** A request that ran out of time: in the percentiles as the timeout, at least what it waited. */
    void timedOut() {
        timedOut++;
        latency.recordValue(timeoutNanos);
    }

    /** A request due when every slot and the queue were full: never sent, taken as the timeout. */
    void dropped(int slice) {
        if (slice >= 0) {
            sliceFailed[slice]++;
        }
        dropped++;
        latency.recordValue(timeoutNanos);
    }

    void ended(long t0, long due, long gcMillis, boolean stopped) {
        this.t0 = t0;
        this.due = due;
        this.gcMillis = gcMillis;
        this.stopped = stopped;
    }

    /** Whether the generator, not the server, may have set the figures: late sends, or requests it dropped. */
    public boolean generatorLimited() {
        return lagMs(99.9) > OpenFigures.LAG_LIMIT_MS || dropped > DROP_LIMIT * Math.max(1, due);
    }

    /** How late the generator came to its requests at the 99th percentile, ms. */
    public double lagP99Ms() {
        return lagMs(99);
    }

    /** The share of the requests due that were dropped, never sent. */
    public double droppedShare() {
        return (double) dropped / Math.max(1, due);
    }

    /** Why the run is the generator's, or null. */
    String generatorNote() {
        if (!generatorLimited()) {
            return null;
        }
        return String.format(Locale.ROOT, "generator-limited: %s%s (GC %d ms in the run)",
                lagMs(99.9) > OpenFigures.LAG_LIMIT_MS ? String.format(Locale.ROOT, "its sends were late by %.2f ms at p99.9"
                        + " (limit %.1f ms)", lagMs(99.9), OpenFigures.LAG_LIMIT_MS) : "",
                dropped > DROP_LIMIT * Math.max(1, due) ? String.format(Locale.ROOT, "%s%d requests dropped (%.2f %%;"
                        + " more than --max-in-flight and its queue were waiting)", lagMs(99.9) > OpenFigures.LAG_LIMIT_MS ? "; "
                        : "", dropped, 100.0 * dropped / Math.max(1, due)) : "", gcMillis);
    }

    private double lagMs(double percentile) {
        return OpenFigures.lagMs(lag, percentile);
    }


    /**
     * The run's figures as results.json keeps them, {@code serverCpuS} the server's CPU over the run (NaN where not
     * read).
     */
    public OpenLoopRun figures(String probe, double serverCpuS) {
        double spanS = Math.max(plan.durationS(), lastEnd > t0 ? (lastEnd - t0) / 1e9 : 0);
        long errorCount = 0;
        for (long e : errors) {
            errorCount += e;
        }
        return OpenLoopRun.builder(probe, plan.rate(), plan.durationS()).requests(due, sent)
                .outcomes(succeeded / spanS, succeeded, errorCount, timedOut, dropped).latency(latency).service(service)
                .lag(lag, gcMillis).generatorLimited(generatorNote()).cut(stopped).serverCpuS(serverCpuS).build();
    }

    /** The requests due in slice {@code i} of a round's schedule that succeeded. */
    public long sliceSucceeded(int i) {
        return sliceSucceeded[i];
    }

    /** The requests due in slice {@code i} that failed, timed out or were dropped. */
    public long sliceFailed(int i) {
        return sliceFailed[i];
    }

    /** Successes over the whole schedule. */
    public long succeeded() {
        return succeeded;
    }

    /** A copy of the latencies (nanoseconds), to pool with other runs'. */
    public Histogram latencyCopy() {
        return latency.copy();
    }
}
