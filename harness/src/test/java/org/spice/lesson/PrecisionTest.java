package org.spice.lesson;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import java.util.List;
import java.util.OptionalDouble;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.model.CpuRounds;

/** What a question says of its precision, from its rounds' record of why they stopped and its figures' intervals. */
@Tag("unit")
class PrecisionTest {

    private static final String AIM = "± 5.0 %, twice that for a probe costing over twice the static file";

    private static CpuRounds stopped(double boundS, String why) {
        return new CpuRounds(8, 0.05, boundS, why, List.of());
    }

    @Test
    void roundsStoppedAtTheirBoundSayItTheAimTheWidestIntervalAndHowToNarrowIt() {
        CpuRounds atBound = stopped(272, "the time bound (272 s) before every ratio was within its precision");
        assertEquals("Precision: the rounds stopped at their time bound (272 s) before every paired figure reached its"
                + " aim (" + AIM + "); the widest interval here is ± 7.3 %. A longer run narrows it: the lesson without"
                + " --quick, or SPICE_LESSON_OPTIONS=\"--cpu-time N\" with a larger N.",
                Precision.of(List.of(atBound), OptionalDouble.of(0.0734), true));
        assertEquals("Precision: the rounds stopped at their time bound (272 s) before every paired figure reached its"
                + " aim (" + AIM + "). A longer run narrows it: SPICE_LESSON_OPTIONS=\"--cpu-time N\" with N above the"
                + " run's.", Precision.of(List.of(atBound), OptionalDouble.empty(), false));
    }

    @Test
    void roundsThatReachedTheirAimSaySoAndTheLongestBoundAmongSeveralIsSaid() {
        assertEquals("Precision: the rounds went on until every paired figure reached its aim (" + AIM + "); the widest"
                + " interval here is ± 4.6 %.", Precision.of(List.of(stopped(90, "every probe within its precision")),
                OptionalDouble.of(0.046), true));
        String several = Precision.of(List.of(stopped(50, "every ratio within its precision"),
                stopped(50, "the time bound (50 s) before every ratio was within its precision"),
                stopped(60, "the time bound (60 s) before every ratio was within its precision")), OptionalDouble.empty(),
                true);
        assertEquals("Precision: the rounds stopped at their time bound (60 s) before every paired figure reached its aim"
                + " (" + AIM + "). A longer run narrows it: the lesson without --quick, or"
                + " SPICE_LESSON_OPTIONS=\"--cpu-time N\" with a larger N.", several);
    }

    @Test
    void roundsCutShortOrNeverFinishedAreNeverCalledPrecise() {
        assertEquals("Precision: the rounds did not run to their end (cut short: stopped by SIGTERM): the intervals are"
                + " those of the rounds before; the widest interval here is ± 9.0 %.", Precision.of(List.of(
                stopped(90, "every probe within its precision"), stopped(90, "cut short: stopped by SIGTERM")),
                OptionalDouble.of(0.09), true));
        assertEquals("Precision: the rounds did not run to their end (in progress): the intervals are those of the rounds"
                + " before.", Precision.of(List.of(stopped(90, "in progress")), OptionalDouble.empty(), true));
        assertFalse(stopped(60, "cut short: a signal").stoppedAtTimeBound());
        assertFalse(stopped(60, null).stoppedAtTimeBound());
    }

    @Test
    void anAnswerWithoutPairedFiguresOrRoundsSaysNothing(@TempDir Path empty) {
        assertNull(Precision.of(List.of(), OptionalDouble.of(0.1), true));
        Answer slices = new Answer("s", List.of("h"), List.of(), List.of(), List.of(new Answer.Figure("servlet first / last",
                2.3, "×", Double.NaN, 0, "8 clients", "2.3")), null);
        assertNull(Precision.of(empty, slices, true), "question 4's slices are not paired over rounds");
        Answer paired = new Answer("s", List.of("h"), List.of(), List.of(), List.of(new Answer.Figure("jsp / servlet",
                1.0, "×", 0.04, 8, "4,600 req/s offered", "1.0")), null);
        assertNull(Precision.of(empty, paired, true), "no results to read: nothing said, the answer stands");
    }
}
