package org.spice.bench.figures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The one judge of a ratio: its ends decide, its words stay inside them, its ± never understates. */
@Tag("unit")
class JudgeTest {

    /** The 4 Dec example's JSP (2026-12-04): 0.952, its Wilcoxon interval 0.9165 to 1.0015, which holds 1. */
    private static final Judge.Interval JSP = new Judge.Interval(0.952468, 0.916468, 1.001516);

    @Test
    void anIntervalThatLeansIsJudgedByItsEndsNotByAHalfWidth() {
        // its symmetric half-width, (1.0015 - 0.9165) / 2 = 0.0425, stops short of 1 from 0.952: the old rule's "0.952 ×"
        assertTrue(Math.abs(JSP.estimate() - 1) > (JSP.high() - JSP.low()) / 2, "the rule this replaces called it apart");
        assertEquals(Judge.Call.SAME, Judge.call(JSP));
        assertTrue(Judge.holdsOne(JSP));
        assertEquals("the same within ± 8.4 %", Judge.words(JSP));
        assertEquals("the same as the static file's within ± 8.4 %", Judge.words(JSP, "the static file's"));
    }

    @Test
    void thePrintedPlusMinusIsTheLargerHalf() {
        assertEquals(0.049048, JSP.largerHalf(), 1e-12, "1.0015 - 0.9525, not 0.9525 - 0.9165");
        assertEquals(0.049048 / 0.952468, JSP.relativeHalf(), 1e-12);
        assertEquals("± 5.1 %", Judge.plusMinus(JSP), "not the symmetric ± 4.5 % the table printed");
        assertEquals(0.083532, JSP.farthestFromOne(), 1e-12, "1 - 0.9165");
    }

    @Test
    void anIntervalWhollyOnOneSideOfOneIsToldApartWithItsEnds() {
        Judge.Interval servlet = new Judge.Interval(0.916, 0.881, 0.960);
        assertEquals(Judge.Call.BELOW, Judge.call(servlet));
        assertEquals("0.916 × the static file's (0.881 to 0.960)", Judge.words(servlet, "the static file's"));
        Judge.Interval cgi = new Judge.Interval(10.9, 9.9, 11.8);
        assertEquals(Judge.Call.ABOVE, Judge.call(cgi));
        assertEquals("10.9 × (9.900 to 11.8)", Judge.words(cgi));
    }

    @Test
    void anIntervalThatHoldsOneButReachesFarIsNotCalledTheSame() {
        // the latency profile's ladder figure that read "within ±266 %": no sentence may call that "the same"
        Judge.Interval wide = new Judge.Interval(1.3, 0.4, 3.66);
        assertEquals(Judge.Call.TOO_WIDE, Judge.call(wide));
        assertTrue(Judge.holdsOne(wide));
        assertFalse(Judge.words(wide).contains("the same"), Judge.words(wide));
        assertEquals("not told apart from the static file's (0.400 to 3.660 ×: too wide to say more)",
                Judge.words(wide, "the static file's"));
    }

    @Test
    void noIntervalIsUnknownAndNeverTheSame() {
        Judge.Interval few = new Judge.Interval(0.98, Double.NaN, Double.NaN);
        assertEquals(Judge.Call.UNKNOWN, Judge.call(few));
        assertFalse(Judge.holdsOne(few));
        assertEquals("", Judge.plusMinus(few));
        assertEquals("0.980 × (no interval)", Judge.words(few));
        assertEquals(Judge.Call.UNKNOWN, Judge.call(Judge.Interval.NONE));
    }

    @Test
    void twoRatiosAreApartOnlyWhereTheirIntervalsDoNotOverlap() {
        Judge.Interval before = new Judge.Interval(1.00, 0.97, 1.03);
        assertTrue(Judge.apart(before, new Judge.Interval(1.10, 1.06, 1.14)));
        assertFalse(Judge.apart(before, new Judge.Interval(1.06, 1.02, 1.10)));
        assertFalse(Judge.apart(before, new Judge.Interval(1.10, Double.NaN, Double.NaN)), "unknown is never apart");
    }

    @Test
    void theInverseSwapsTheEnds() {
        Judge.Interval inverse = new Judge.Interval(0.8, 0.5, 1.25).inverse();
        assertEquals(1.25, inverse.estimate(), 1e-12);
        assertEquals(0.8, inverse.low(), 1e-12);
        assertEquals(2.0, inverse.high(), 1e-12);
    }

    @Test
    void severalThatHoldOneAreTheSameWithinTheFarthestEndOfAny() {
        assertEquals("within ± 8.4 %", Judge.within(List.of(new Judge.Interval(1.01, 0.98, 1.04), JSP)));
    }

    @Test
    void pairedRoundsGiveTheirEndsToTheJudge() {
        // five rounds a little below 1 and one far above: the log interval leans up
        double[] probe = {0.93, 0.95, 0.94, 0.96, 0.92, 1.20, 0.95, 0.94};
        double[] reference = {1, 1, 1, 1, 1, 1, 1, 1};
        PairedRatio paired = PairedRatio.of(probe, reference);
        assertEquals(Judge.call(paired.interval()).holdsOne(), paired.holdsOne());
        assertEquals(paired.interval().largerHalf(), paired.ratioCi(), 1e-15);
        assertTrue(paired.high() - paired.ratio() >= paired.ratio() - paired.low(), "it leans up");
    }
}
