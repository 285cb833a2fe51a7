package org.spice.bench.model;

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
}
