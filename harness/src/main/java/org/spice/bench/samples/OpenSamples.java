package org.spice.bench.samples;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.HdrHistogram.Histogram;
import org.spice.bench.figures.OpenFigures;
import org.spice.bench.model.OpenLoopRun;

/**
 * An open loop a tool ran with arrivals evenly spaced (JMeter's open model), from its samples: the tool records when
 * each request started, not when it was due, so the schedule is rebuilt per engine: its k-th request (in the order
 * they started) was due k / rate after the schedule's origin, the latest time consistent with no request going out
 * before it was due ({@link #origin}). Latency is then completion less due time, as SPICE's own open loop
 * takes it, and the lag (start less due) says where the tool was late. The times are the tool's (JMeter's: whole
 * milliseconds), and a schedule that started late as a whole cannot be seen.
 */
public final class OpenSamples {

    private OpenSamples() {
    }

    /**
     * The run of {@code probe} at {@code rate} requests a second over {@code durationS}, from {@code samples} whose
     * client is "ENGINE/THREAD", each of {@code engines} engines at its share of the rate; a sample counts if its status
     * is 200 without an error; one that failed for a timeout counts as {@code timeoutMillis}.
     */
    public static OpenLoopRun of(String probe, double rate, double durationS, List<Sample> samples, int engines,
            int timeoutMillis, double serverCpuS) {
        Histogram latency = OpenFigures.histogram();
        Histogram service = OpenFigures.histogram();
        Histogram lag = OpenFigures.histogram();
        long succeeded = 0;
        long errors = 0;
        long timeouts = 0;
        double first = Double.MAX_VALUE;
        double lastEnd = 0;
        double intervalMs = 1000.0 * engines / rate;
        for (List<Sample> engine : byEngine(samples)) {
            engine.sort(Comparator.comparingDouble(Sample::startMs));
            double t0 = origin(engine, intervalMs);
            first = Math.min(first, engine.get(0).startMs());
            for (int k = 0; k < engine.size(); k++) {
                Sample s = engine.get(k);
                double due = t0 + k * intervalMs;
                lag.recordValue(nanos(Math.max(0, s.startMs() - due)));
                lastEnd = Math.max(lastEnd, s.endMs());
                if (s.status() == 200 && s.error() == null) {
                    succeeded++;
                    latency.recordValue(nanos(Math.max(0, s.endMs() - due)));
                    service.recordValue(nanos(Math.max(0, s.latencyMs())));
                } else if (s.error() != null && s.error().toLowerCase(Locale.ROOT).contains("timed out")) {
                    timeouts++;
                    latency.recordValue(nanos(Math.max(timeoutMillis, s.endMs() - due)));
                } else {
                    errors++;
                }
            }
        }
        double spanS = Math.max(durationS, samples.isEmpty() ? 0 : (lastEnd - first) / 1000);
        double lagP999 = OpenFigures.lagMs(lag, 99.9);
        String note = lagP999 <= OpenFigures.LAG_LIMIT_MS ? null : String.format(Locale.ROOT, "generator-limited: its"
                + " sends were late by %.2f ms at p99.9 (limit %.1f ms; the tool's times are whole milliseconds)", lagP999,
                OpenFigures.LAG_LIMIT_MS);
        return OpenLoopRun.builder(probe, rate, durationS).requests(Math.round(rate * durationS), samples.size())
                .outcomes(succeeded / spanS, succeeded, errors, timeouts, 0).latency(latency).service(service)
                .lag(lag, 0).generatorLimited(note).serverCpuS(serverCpuS).build();
    }

    /** The samples of each engine ("ENGINE/THREAD" clients; one engine where the client names none). */
    private static Collection<List<Sample>> byEngine(List<Sample> samples) {
        Map<String, List<Sample>> byEngine = new LinkedHashMap<>();
        for (Sample s : samples) {
            String client = s.client();
            byEngine.computeIfAbsent(client.contains("/") ? client.substring(0, client.indexOf('/')) : "", e ->
                    new ArrayList<>()).add(s);
        }
        return byEngine.values();
    }

    /**
     * When the engine's schedule began: no request goes out before it is due, so request k's start bounds the origin
     * from above by start − k × interval, and the origin is the least of these bounds. Taking the first request's start
     * instead was wrong whenever the first requests went out late (JMeter starting its threads): every due time then
     * fell later than the schedule's, and a 1 s stall showed as 0.76 s.
     */
    static double origin(List<Sample> sorted, double intervalMs) {
        double origin = Double.MAX_VALUE;
        for (int k = 0; k < sorted.size(); k++) {
            origin = Math.min(origin, sorted.get(k).startMs() - k * intervalMs);
        }
        return origin;
    }

    private static long nanos(double ms) {
        return Math.round(ms * 1e6);
    }

}
