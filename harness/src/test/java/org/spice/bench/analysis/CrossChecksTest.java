package org.spice.bench.analysis;

import org.spice.bench.model.Across;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.spice.bench.figures.SpiceFigures;
import org.spice.bench.model.CpuRounds;
import org.spice.bench.model.CpuSlice;

/** The checks of side-by-side rounds on known slices: carry-over found where it was put, and only there. */
@Tag("unit")
class CrossChecksTest {

    private static final SpiceFigures.CpuSource SERVER = SpiceFigures.CpuSource.SERVER;

    /**
     * {@code n} rounds of servers a and b, four probes each, in a shuffled order; a round's drift common to all; each
     * slice ±5 % of its own (log-normal); a slice of "a" that follows one of "b" costs {@code carry} times more.
     */
    private static CpuRounds rounds(int n, double carry, long seed) {
        Random random = new Random(seed);
        CpuRounds rounds = new CpuRounds(8, 0.05, 300, "done", List.of(), List.of("a", "b"));
        for (int r = 1; r <= n; r++) {
            double machine = Math.exp(0.2 * random.nextGaussian());
            List<String[]> order = new ArrayList<>();
            for (String server : List.of("a", "b")) {
                for (String probe : List.of("static", "servlet", "jsp", "module")) {
                    order.add(new String[] {server, probe});
                }
            }
            java.util.Collections.shuffle(order, random);
            List<CpuSlice> slices = new ArrayList<>();
            String before = null;
            for (String[] arm : order) {
                double us = (arm[1].equals("static") ? 100 : 80) * machine * Math.exp(0.05 * random.nextGaussian())
                        * (arm[0].equals("a") && "b".equals(before) ? carry : 1);
                double stealS = slices.size() == 0 ? 0.02 : 0;
                slices.add(new CpuSlice(arm[0], arm[1], 1000, 0, 1.0, us * 1000 / 1e6, Double.NaN, 0.3,
                        Double.NaN, us * 1000 / 1e6 * 0.004, stealS));
                before = arm[0];
            }
            rounds = rounds.with(new CpuRounds.Round(r, slices), "done");
        }
        return rounds;
    }

    @Test
    void aSliceThatCostsMoreAfterAnotherServerIsFoundAndOnlyOnThatServer() {
        Across.Checks checks = CrossChecks.of(rounds(40, 1.10, 7), (s, p) -> SERVER);
        Across.CarryOver a = checks.carryOver().get(0);
        Across.CarryOver b = checks.carryOver().get(1);
        assertEquals("a", a.server());
        assertEquals(1.10, a.effect(), 0.04, a.toString());
        assertFalse(a.holdsOne(), a.toString());
        assertTrue(b.holdsOne(), "b carries nothing over: " + b);
        assertEquals(40 * 7, a.afterSame() + a.afterOther() + b.afterSame() + b.afterOther(),
                "every slice but a round's first, which follows the lead-in");
    }

    @Test
    void withoutCarryOverBothHoldOneAndTheSharesAreRead() {
        Across.Checks checks = CrossChecks.of(rounds(40, 1.0, 11), (s, p) -> SERVER);
        checks.carryOver().forEach(c -> assertTrue(c.holdsOne(), c.toString()));
        assertEquals(0.004, checks.idleShare().median(), 1e-9);
        assertEquals(0.004, checks.idleShare().max(), 1e-9);
        assertEquals(0, checks.stealShare().median(), 1e-12);
        assertEquals(0.02, checks.stealShare().max(), 1e-12, "a round's first slice lost 20 ms of its second");
        assertEquals(40 * 8, checks.stealShare().slices());
    }

    @Test
    void slicesWithoutSteadyCountsAreNoFigure() {
        CpuRounds one = new CpuRounds(8, 0.05, 300, "done", List.of(), List.of("a", "b")).with(new CpuRounds.Round(1,
                List.of(new CpuSlice("a", "static", 10, 0, 1, 0.001, Double.NaN, 0.1, Double.NaN, Double.NaN))),
                "done");
        Across.Checks checks = CrossChecks.of(one, (s, p) -> SERVER);
        assertTrue(Double.isNaN(checks.carryOver().get(0).effect()));
        assertTrue(Double.isNaN(checks.idleShare().median()), "others not read: no share");
        assertEquals(0, checks.stealShare().slices());
    }
}
