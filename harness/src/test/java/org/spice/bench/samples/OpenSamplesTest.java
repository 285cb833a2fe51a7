package org.spice.bench.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.spice.bench.model.OpenLoopRun;

/** The open loop rebuilt from a tool's samples: due times per engine, latency from them, lag, timeouts. */
@Tag("unit")
class OpenSamplesTest {

    @Test
    void requestsHeldByAStallWaitFromTheirDueTimes() {
        // 100 a second for 1 s, 1 ms each; the server stalled from 200 to 300 ms: the ten due in it end at 300 ms
        List<Sample> samples = new ArrayList<>();
        for (int k = 0; k < 100; k++) {
            double start = 1_000_000 + k * 10;
            double end = k >= 20 && k < 30 ? 1_000_300 : start + 1;
            samples.add(new Sample(start, end - start, 200, 6_500, "local/spice 1-" + (k + 1), null));
        }
        OpenLoopRun run = OpenSamples.of("static", 100, 1, samples, 1, 10_000, 0.05);
        assertEquals(100, run.sent());
        assertEquals(100, run.succeeded());
        assertEquals(100, run.achievedRps(), 1e-9);
        assertEquals(1.0, run.p50Ms(), 0.01);
        assertEquals(100, run.maxMs(), 0.1, "the request due at 200 ms waited the whole stall");
        assertEquals(0, run.generatorLagP99Ms(), 1e-9, "every request started on time");
        assertFalse(run.generatorLimited());
        assertEquals(500, run.serverCpuUsPerReq(), 1e-9);
    }

    @Test
    void aScheduleWhoseFirstRequestsWereLateKeepsItsOrigin() {
        // 100 a second; the first five went out together 40 ms late, the rest on time: due times from the schedule's
        // origin (0), so those five were late, and the others were not
        List<Sample> samples = new ArrayList<>();
        for (int k = 0; k < 100; k++) {
            double start = k < 5 ? 40 : k * 10;
            samples.add(new Sample(1_000_000 + start, 1, 200, 6_500, "local/t", null));
        }
        assertEquals(1_000_000, OpenSamples.origin(samples, 10), 1e-9);
        OpenLoopRun run = OpenSamples.of("static", 100, 1, samples, 1, 10_000, Double.NaN);
        assertEquals(40, run.generatorLagMaxMs(), 0.01, "the first was 40 ms late");
        assertEquals(41, run.maxMs(), 0.05);
        assertEquals(1, run.p50Ms(), 0.01);
    }

    @Test
    void eachEngineKeepsItsOwnScheduleAndLateStartsAreLag() {
        // two engines at 50 a second each (100 in all); the second starts 300 ms after the first, and its 10th
        // request went out 5 ms late
        List<Sample> samples = new ArrayList<>();
        for (int k = 0; k < 50; k++) {
            samples.add(new Sample(1_000_000 + k * 20, 1, 200, 6_500, "a:1099/t", null));
            double late = k == 10 ? 5 : 0;
            samples.add(new Sample(1_000_300 + k * 20 + late, 1, 200, 6_500, "b:1099/t", null));
        }
        samples.add(new Sample(1_001_000, 10_000, 0, -1, "a:1099/t", "java.net.SocketTimeoutException: Read timed out"));
        OpenLoopRun run = OpenSamples.of("static", 100, 1, samples, 2, 10_000, Double.NaN);
        assertEquals(101, run.sent());
        assertEquals(1, run.timeouts());
        assertEquals(5, run.generatorLagMaxMs(), 0.01, "the late start is the generator's lag");
        assertTrue(run.generatorLimited(), "a lag of 5 ms at the p99.9 is the generator's");
        assertEquals(10_000, run.maxMs(), 10, "the timeout counts as the timeout");
    }
}
