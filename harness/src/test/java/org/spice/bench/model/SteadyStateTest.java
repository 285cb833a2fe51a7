package org.spice.bench.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The warm-up's rule: the CPU per request settled, and on a JVM the JIT quiet. */
class SteadyStateTest {

    @Test
    void theCpuRuleTakesTheLastThreeSlices() {
        assertFalse(SteadyState.settled(List.of(60.0, 61.0)));
        assertTrue(SteadyState.settled(List.of(300.0, 60.0, 62.0, 59.0)));
        assertFalse(SteadyState.settled(List.of(60.0, 62.0, 70.0)), "70 is 8 % above the three's mean");
    }

    @Test
    void theJitIsQuietWhenItsLastTwoSlicesTookAtMostThreePercent() {
        assertTrue(SteadyState.jitQuiet(List.of()), "nothing read: the CPU rule alone decides");
        assertTrue(SteadyState.jitQuiet(List.of(Double.NaN, Double.NaN)));
        assertFalse(SteadyState.jitQuiet(List.of(0.0)), "one slice is not two");
        assertTrue(SteadyState.jitQuiet(List.of(0.40, 0.02, 0.03)));
        assertFalse(SteadyState.jitQuiet(List.of(0.0, 0.0, 0.18, 0.01)), "JSP's classes reaching C2");
    }

    @Test
    void theJitsShareIsOfTheServersCpu() {
        assertEquals(0.25, SteadyState.share(0.2, 0.8), 1e-12);
        assertEquals(1.0, SteadyState.share(0.1, 0), 1e-12, "compiling while the server did nothing else");
        assertEquals(0.0, SteadyState.share(0, 0), 1e-12);
    }
}
