package org.spice.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.spice.bench.analysis.CrossFigures;
import org.spice.bench.analysis.Summaries;
import org.spice.bench.figures.SpiceFigures;
import org.spice.bench.model.CpuRounds;
import org.spice.bench.model.LoadEngine;

/** The rounds' one rate (--cpu-rate), and the rate each figure says it was taken at. */
class RoundRateTest {

    private static CpuRounds.Taken slice(String server, String probe, long requests, double seconds, double cpuS) {
        return new CpuRounds.Taken(server, probe, requests, 0, seconds, cpuS, Double.NaN, 0.1, Double.NaN, 0.0);
    }

    @Test
    void autoTakesHalfTheSlowestArmsRateRoundedDownToTwoFigures() {
        LoadEngine.Round pace = new LoadEngine.Round(null, List.of(slice("a", "static", 22_400, 1, 1),
                slice("a", "cgi", 437, 0.5, 1), slice("a", "cgi", 440, 0.5, 1), slice("b", "static", 9_000, 1, 1)),
                null, null);
        RoundRate rate = RoundRate.auto(pace, 0.5, 8);
        assertEquals(430, rate.rps(), "half of a/cgi's 877 req/s, two significant figures, down");
        assertEquals("auto: 0.5 × a/cgi's 877 req/s at 8 clients, the slowest arm's rate in a round before the rounds",
                rate.from());
        assertEquals(11_000, RoundRate.roundedDown(11_234));
        assertEquals(7, RoundRate.roundedDown(7.9));
        assertEquals(1, RoundRate.roundedDown(0.3));
        assertNull(RoundRate.auto(new LoadEngine.Round(null, List.of(slice("a", "static", 0, 1, 0)), null, null), 0.5, 8),
                "nothing served: no rate to take a share of");
    }

    @Test
    void everyFigureSaysTheRateItsArmsRanAtAndWhetherOfferedOrAchieved() {
        CpuRounds closed = new CpuRounds(8, 0.05, 60, "done", List.of(), List.of("a", "b"), List.of());
        for (int r = 1; r <= 6; r++) {
            closed = closed.with(new CpuRounds.Round(r, List.of(slice("a", "static", 20_000, 1, 1.6),
                    slice("b", "static", 10_000, 1, 1.2), slice("a", "servlet", 18_000, 1, 1.5),
                    slice("b", "servlet", 9_000, 1, 1.1))), "done");
        }
        CrossFigures.Cross staticAtoB = CrossFigures.of(closed, (arm, probe) -> SpiceFigures.CpuSource.SERVER).get(0);
        assertEquals(List.of(20_000.0, 10_000.0), staticAtoB.rateRps(), "closed loop: what each arm achieved");
        assertEquals(CpuRounds.ACHIEVED, staticAtoB.rateKind());
        assertEquals(true, staticAtoB.ratesDiffer());

        CpuRounds open = closed.offered(5_000, "--cpu-rate");
        CrossFigures.Cross held = CrossFigures.of(open, (arm, probe) -> SpiceFigures.CpuSource.SERVER).get(0);
        assertEquals(List.of(5_000.0, 5_000.0), held.rateRps());
        assertEquals(CpuRounds.OFFERED, held.rateKind());
        assertEquals(false, held.ratesDiffer());
        assertEquals("5,000 req/s offered", open.load());
        assertEquals("8 clients", closed.load());

        SpiceFigures.Rounds servlet = Summaries.withRounds(List.of(), closed.of("a"), p -> SpiceFigures.CpuSource.SERVER)
                .stream().filter(s -> s.probe().equals("servlet")).findFirst().orElseThrow().rounds();
        assertEquals(List.of(18_000.0, 20_000.0), servlet.rateRps(), "the probe's rate, then the static file's");
        assertEquals(CpuRounds.ACHIEVED, servlet.rateKind());
        assertEquals(8, servlet.cpuClients());
        SpiceFigures.Rounds servletHeld = Summaries.withRounds(List.of(), open.of("a"),
                p -> SpiceFigures.CpuSource.SERVER).stream().filter(s -> s.probe().equals("servlet")).findFirst()
                .orElseThrow().rounds();
        assertEquals(List.of(5_000.0, 5_000.0), servletHeld.rateRps());
        assertEquals(CpuRounds.OFFERED, servletHeld.rateKind());
        assertNull(servletHeld.cpuClients(), "open loop: no client count to state");
    }
}
