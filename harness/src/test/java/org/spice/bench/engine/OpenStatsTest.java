package org.spice.bench.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.spice.bench.model.OpenLoopRun;
import org.spice.bench.model.ResultsJson;
import org.spice.bench.net.Endpoint;
import org.spice.bench.net.Request;

/** The open loop's schedule and figures on known inputs: due times from k, the percentiles, the generator's rule. */
@Tag("unit")
class OpenStatsTest {

    private static final Request GET = Request.get(Endpoint.parse("http://127.0.0.1:1"), "/static", false, 10);

    private static OpenPlan plan(double rate, double seconds) {
        return new OpenPlan(List.of(GET), rate, seconds, 10, 100, 1_000);
    }

    @Test
    void theKthRequestIsDueAtKOverTheRateComputedFromKWithoutDrift() {
        OpenPlan plan = plan(3, 1_000_000);
        assertEquals(3_000_000, plan.scheduled());
        assertEquals(1_000, plan.due(1_000, 0));
        assertEquals(1_000 + 333_333_333, plan.due(1_000, 1));
        assertEquals(1_000 + 333_333_333_333_333L, plan.due(1_000, 1_000_000), "a sum of 1/3 s steps would have drifted");
        assertEquals(12_000, plan(400, 30).scheduled());
        assertThrows(IllegalArgumentException.class, () -> plan(0, 10));
    }

    @Test
    void latencyPercentilesCountTimeoutsAndDropsAsTheTimeout() {
        OpenStats stats = new OpenStats(plan(100, 1));
        for (int i = 1; i <= 96; i++) {
            stats.lag(50_000);
            stats.sent();
            stats.succeeded(i * 1_000_000L, 500_000, 0, -1);
        }
        stats.timedOut();
        stats.timedOut();
        stats.dropped(-1);
        stats.dropped(-1);
        stats.ended(0, 100, 3, false);
        OpenLoopRun run = stats.figures("static", 0.0096);
        assertEquals(100, run.scheduled());
        assertEquals(96, run.succeeded());
        assertEquals(2, run.timeouts());
        assertEquals(2, run.dropped());
        assertEquals(50, run.p50Ms(), 0.1);
        assertEquals(1_000, run.p99Ms(), 1, "the 99th of 100 is a timeout, at the timeout");
        assertEquals(0.5, run.serviceP50Ms(), 0.001);
        assertEquals(96, run.achievedRps(), 1e-9, "over the 1 s duration");
        assertEquals(100, run.serverCpuUsPerReq(), 1e-9);
        assertTrue(run.generatorLimited(), "2 % dropped is past 0.1 %");
        assertTrue(run.generatorNote().contains("2 requests dropped"), run.generatorNote());
    }

    @Test
    void aLateGeneratorIsMarkedAndAPunctualOneIsNot() {
        OpenStats punctual = new OpenStats(plan(1_000, 2));
        OpenStats late = new OpenStats(plan(1_000, 2));
        for (int i = 0; i < 2_000; i++) {
            punctual.lag(i < 2 ? 5_000_000 : 80_000);   // two sends 5 ms late: under p99.9
            late.lag(i < 10 ? 5_000_000 : 80_000);      // ten: p99.9 is 5 ms
        }
        punctual.ended(0, 2_000, 0, false);
        late.ended(0, 2_000, 0, false);
        assertFalse(punctual.generatorLimited());
        assertNull(punctual.figures("static", Double.NaN).generatorNote());
        assertTrue(late.generatorLimited());
        OpenLoopRun run = late.figures("static", Double.NaN);
        assertEquals(5, run.generatorLagP999Ms(), 0.01);
        assertTrue(Double.isNaN(run.p50Ms()), "no response, no latency");
    }

    @Test
    void resultsJsonKeepsARunAndItsHistogramReadBack() throws Exception {
        OpenStats stats = new OpenStats(plan(10, 1));
        stats.succeeded(2_000_000, 1_000_000, 0, -1);
        stats.ended(0, 10, 0, false);
        OpenLoopRun run = stats.figures("cgi", Double.NaN);
        String json = ResultsJson.MAPPER.writeValueAsString(run);
        for (String field : List.of("offered_rps", "achieved_rps", "p50_ms", "p99_ms", "p999_ms", "max_ms", "dropped",
                "generator_lag_p99_ms", "generator_limited", "latency_histogram")) {
            assertTrue(json.contains("\"" + field + "\""), field + " in " + json);
        }
        assertEquals(run.p50Ms(), ResultsJson.MAPPER.readValue(json, OpenLoopRun.class).p50Ms());
        assertEquals(1, org.HdrHistogram.Histogram.decodeFromCompressedByteBuffer(java.nio.ByteBuffer.wrap(
                java.util.Base64.getDecoder().decode(run.latencyHistogram())), 0).getTotalCount());
    }
}
