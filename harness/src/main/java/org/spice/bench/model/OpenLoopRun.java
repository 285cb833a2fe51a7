package org.spice.bench.model;

import org.HdrHistogram.Histogram;
import org.spice.bench.figures.Histograms;
import org.spice.bench.figures.OpenFigures;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * One probe at one offered rate, open loop (results.json {@code open_loop}; bench.engine.OpenLoop): every request due
 * on a schedule, its latency from its due time, so that what a stalled server makes users wait is counted.
 *
 * @param offeredRps         the rate the schedule offered
 * @param scheduled          requests the schedule held in its duration (fewer if the run was cut short)
 * @param achievedRps        successful responses per second, over the duration or until the last one ended
 * @param timeouts           requests that ran out of time; in the percentiles as the timeout
 * @param dropped            requests due when every slot and the queue were taken, never sent; in the percentiles as
 *                           the timeout
 * @param p50Ms              latency (completion less due time) percentiles over successes, timeouts and drops
 * @param serviceP50Ms       service time (completion less the actual send) percentiles, successes only
 * @param generatorLagP99Ms  how late the generator came to a due request (send, queue or drop less due)
 * @param gcMs               the generator's garbage collection in the run
 * @param generatorLimited   the lag's p99.9 above 1 ms, or drops above 0.1 %: the figures are the generator's
 * @param generatorNote      why, where it was
 * @param cut                the run was stopped before its end
 * @param serverCpuUsPerReq  the server's CPU over the run per successful request (NaN where not read)
 * @param latencyHistogram   HdrHistogram, compressed and base64, nanoseconds
 * @see #builder
 */
@JsonPropertyOrder({"probe", "offered_rps", "duration_s", "scheduled", "sent", "achieved_rps", "succeeded", "errors",
    "timeouts", "dropped", "p50_ms", "p90_ms", "p99_ms", "p999_ms", "max_ms", "service_p50_ms", "service_p99_ms",
    "generator_lag_p99_ms", "generator_lag_p999_ms", "generator_lag_max_ms", "gc_ms", "generator_limited",
    "generator_note", "cut", "server_cpu_us_per_req", "latency_histogram", "service_histogram"})
public record OpenLoopRun(String probe, double offeredRps, double durationS, long scheduled, long sent,
        double achievedRps, long succeeded, long errors, long timeouts, long dropped, double p50Ms, double p90Ms,
        double p99Ms, double p999Ms, double maxMs, double serviceP50Ms, double serviceP99Ms, double generatorLagP99Ms,
        double generatorLagP999Ms, double generatorLagMaxMs, long gcMs, boolean generatorLimited,
        @JsonInclude(JsonInclude.Include.NON_NULL) String generatorNote, boolean cut, double serverCpuUsPerReq,
        String latencyHistogram, String serviceHistogram) {

    /**
     * A run of {@code probe} at {@code offeredRps} over {@code durationS}, its figures set by name; what is not set
     * is what a tool that does not give it leaves: NaN for a figure, 0 for a count, none for a note or a histogram.
     */
    public static Builder builder(String probe, double offeredRps, double durationS) {
        return new Builder(probe, offeredRps, durationS);
    }

    /** Builds a run by name ({@link #builder}). */
    public static final class Builder {
        private final String probe;
        private final double offeredRps;
        private final double durationS;
        private long scheduled;
        private long sent;
        private double achievedRps = Double.NaN;
        private long succeeded;
        private long errors;
        private long timeouts;
        private long dropped;
        private double[] latencyMs = {Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN};
        private double serviceP50Ms = Double.NaN;
        private double serviceP99Ms = Double.NaN;
        private double[] lagMs = {Double.NaN, Double.NaN, Double.NaN};
        private long gcMs;
        private boolean generatorLimited;
        private String generatorNote;
        private boolean cut;
        private double serverCpuS = Double.NaN;
        private String latencyHistogram;
        private String serviceHistogram;

        private Builder(String probe, double offeredRps, double durationS) {
            this.probe = probe;
            this.offeredRps = offeredRps;
            this.durationS = durationS;
        }

        /** The requests the schedule held, and those sent. */
        public Builder requests(long scheduled, long sent) {
            this.scheduled = scheduled;
            this.sent = sent;
            return this;
        }

        /** What came of them: the successes per second, and the count of each outcome. */
        public Builder outcomes(double achievedRps, long succeeded, long errors, long timeouts, long dropped) {
            this.achievedRps = achievedRps;
            this.succeeded = succeeded;
            this.errors = errors;
            this.timeouts = timeouts;
            this.dropped = dropped;
            return this;
        }

        /** The latency's percentiles and histogram, from its histogram (nanoseconds). */
        public Builder latency(Histogram latency) {
            latencyHistogram = Histograms.encoded(latency);
            return latencyMs(OpenFigures.ms(latency, 50), OpenFigures.ms(latency, 90), OpenFigures.ms(latency, 99),
                    OpenFigures.ms(latency, 99.9), OpenFigures.maxMs(latency));
        }

        /** The latency's percentiles as a tool gives them, without a histogram. */
        public Builder latencyMs(double p50, double p90, double p99, double p999, double max) {
            latencyMs = new double[] {p50, p90, p99, p999, max};
            return this;
        }

        /** The service time's percentiles and histogram, from its histogram (nanoseconds). */
        public Builder service(Histogram service) {
            serviceHistogram = Histograms.encoded(service);
            serviceP50Ms = OpenFigures.ms(service, 50);
            serviceP99Ms = OpenFigures.ms(service, 99);
            return this;
        }

        /** The service time's percentiles as a tool gives them. */
        public Builder serviceMs(double p50, double p99) {
            serviceP50Ms = p50;
            serviceP99Ms = p99;
            return this;
        }

        /** The generator's lag, from its histogram (nanoseconds), and its garbage collection in the run. */
        public Builder lag(Histogram lag, long gcMs) {
            lagMs = new double[] {OpenFigures.lagMs(lag, 99), OpenFigures.lagMs(lag, 99.9), OpenFigures.lagMaxMs(lag)};
            this.gcMs = gcMs;
            return this;
        }

        /** Why the figures are the generator's, or null where they are the server's. */
        public Builder generatorLimited(String note) {
            generatorLimited = note != null;
            generatorNote = note;
            return this;
        }

        /** Whether the run was stopped before its end. */
        public Builder cut(boolean value) {
            cut = value;
            return this;
        }

        /** The server's CPU over the run, seconds (NaN where not read): per successful request in the run. */
        public Builder serverCpuS(double seconds) {
            serverCpuS = seconds;
            return this;
        }

        public OpenLoopRun build() {
            return new OpenLoopRun(probe, offeredRps, durationS, scheduled, sent, achievedRps, succeeded, errors,
                    timeouts, dropped, latencyMs[0], latencyMs[1], latencyMs[2], latencyMs[3], latencyMs[4],
                    serviceP50Ms, serviceP99Ms, lagMs[0], lagMs[1], lagMs[2], gcMs, generatorLimited, generatorNote,
                    cut, succeeded > 0 ? serverCpuS * 1e6 / succeeded : Double.NaN, latencyHistogram, serviceHistogram);
        }
    }
}
