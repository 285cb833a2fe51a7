package org.spice.bench.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The warm-up's rule: the CPU per request settled, and on a JVM the JIT quiet. */
@Tag("unit")
class SteadyStateTest {

    @Test
    void theCpuRuleTakesTheLastThreeSlices() {
        assertFalse(SteadyState.settled(List.of(60.0, 61.0)));
        assertTrue(SteadyState.settled(List.of(300.0, 60.0, 62.0, 59.0)));
        assertFalse(SteadyState.settled(List.of(60.0, 62.0, 70.0)), "70 is 8 % above the three's mean");
    }

    /** A default bench's static file: warm from its third slice, three slices within 5 % of their mean only at the 17th. */
    @Test
    void aWorkloadWhoseCpuHasStoppedFallingIsSteadyThoughItsSlicesSpreadWiderThanTheBand() {
        List<Double> slices = List.of(349.0, 117.0, 63.0, 71.0, 58.0, 67.0, 57.0, 77.0, 84.0);
        assertFalse(SteadyState.settled(slices.subList(0, 6)), "176 to 65: still falling");
        assertFalse(SteadyState.settled(slices.subList(0, 7)), "84 to 61: still falling");
        assertTrue(SteadyState.settled(slices.subList(0, 8)), "64 then 67: no longer falling");
        assertFalse(SteadyState.settled(List.of(100.0, 95.0, 90.0, 85.0, 80.0, 75.0)), "5 % a slice down is warming");
        assertTrue(SteadyState.settled(List.of(60.0, 70.0, 55.0, 72.0, 58.0, 66.0)), "noise about a level");
        assertFalse(SteadyState.settled(List.of(0.0, 0.0, 0.0, 0.0, 0.0, 0.0)), "no CPU measured is not steady");
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
