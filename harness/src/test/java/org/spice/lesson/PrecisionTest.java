package org.spice.lesson;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.OptionalDouble;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.spice.bench.model.CpuRounds;

/** What a question says of its precision, from its rounds' record of why they stopped and its figures' intervals. */
@Tag("unit")
class PrecisionTest {

    private static CpuRounds stopped(double boundS, String why) {
        return new CpuRounds(8, 0.05, boundS, why, List.of());
    }

    @Test
    void roundsStoppedAtTheirBoundSayItTheAimAndTheWidestInterval() {
        String said = Precision.of(List.of(stopped(272, "the time bound (272 s) before every ratio was within its"
                + " precision")), OptionalDouble.of(0.0734));
        assertEquals("Precision: the rounds stopped at their time bound (272 s) before every figure reached its aim"
                + " (± 5.0 %); the widest interval here is ± 7.3 %. A longer run narrows it: without --quick, or with a"
                + " larger --cpu-time.", said);
    }

    @Test
    void roundsThatReachedTheirAimSaySoAndABoundAmongSeveralRunsIsTheLongestOfThose() {
        assertEquals("Precision: every figure reached its aim (± 5.0 %) before the rounds' time bound; the widest"
                + " interval here is ± 4.6 %.", Precision.of(List.of(stopped(90, "every probe within its precision")),
                OptionalDouble.of(0.046)));
        String sweep = Precision.of(List.of(stopped(50, "every probe within its precision"),
                stopped(50, "the time bound (50 s) before every probe was within its precision"),
                stopped(60, "the time bound (60 s) before every probe was within its precision")), OptionalDouble.empty());
        assertEquals("Precision: the rounds stopped at their time bound (60 s) before every figure reached its aim"
                + " (± 5.0 %). A longer run narrows it: without --quick, or with a larger --cpu-time.", sweep);
    }

    @Test
    void aRunWithoutRoundsSaysNothing() {
        assertNull(Precision.of(List.of(), OptionalDouble.of(0.1)));
        assertEquals(false, stopped(60, "cut short: a signal").stoppedAtTimeBound());
        assertEquals(false, stopped(60, null).stoppedAtTimeBound());
    }
}
