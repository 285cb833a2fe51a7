package org.spice.bench.run;

import org.spice.bench.model.Across;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.spice.bench.analysis.CrossFigures;
import org.spice.bench.analysis.Summaries;
import org.spice.bench.figures.SpiceFigures;
import org.spice.bench.mix.Mix;
import org.spice.bench.model.CpuRounds;
import org.spice.bench.model.CpuSlice;
import org.spice.bench.model.LoadEngine;
import org.spice.bench.model.StealLimit;
import org.spice.page.Probe;

/** The rounds' one rate (--cpu-rate), and the rate each figure says it was taken at. */
@Tag("unit")
class RoundRateTest {

    private static CpuSlice slice(String server, String probe, long requests, double seconds, double cpuS) {
        return new CpuSlice(server, probe, requests, 0, seconds, cpuS, Double.NaN, 0.1, Double.NaN, 0.0);
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
        Across.Cross staticAtoB = CrossFigures.of(closed, (arm, probe) -> SpiceFigures.CpuSource.SERVER).get(0);
        assertEquals(List.of(20_000.0, 10_000.0), staticAtoB.rateRps(), "closed loop: what each arm achieved");
        assertEquals(CpuRounds.ACHIEVED, staticAtoB.rateKind());
        assertEquals(true, staticAtoB.ratesDiffer());

        CpuRounds open = closed.offered(5_000, "--cpu-rate");
        Across.Cross held = CrossFigures.of(open, (arm, probe) -> SpiceFigures.CpuSource.SERVER).get(0);
        assertEquals(List.of(5_000.0, 5_000.0), held.rateRps());
        assertEquals(CpuRounds.OFFERED, held.rateKind());
        assertEquals(false, held.ratesDiffer());
        assertEquals("5,000 req/s offered", open.load());
        assertEquals("8 clients", closed.load());

        SpiceFigures.Rounds servlet = Summaries.withRounds(List.of(), closed.of("a"), p -> SpiceFigures.CpuSource.SERVER)
                .stream().filter(s -> s.probe().equals("servlet")).findFirst().orElseThrow().rounds();
        assertEquals(18_000.0, servlet.rateRps(), "the probe's rate");
        assertEquals(20_000.0, servlet.staticRateRps(), "then the static file's, closed loop");
        assertEquals(CpuRounds.ACHIEVED, servlet.rateKind());
        assertEquals(8, servlet.cpuClients());
        SpiceFigures.Rounds servletHeld = Summaries.withRounds(List.of(), open.of("a"),
                p -> SpiceFigures.CpuSource.SERVER).stream().filter(s -> s.probe().equals("servlet")).findFirst()
                .orElseThrow().rounds();
        assertEquals(5_000.0, servletHeld.rateRps());
        assertNull(servletHeld.staticRateRps(), "one rate for both");
        assertEquals(CpuRounds.OFFERED, servletHeld.rateKind());
        assertNull(servletHeld.cpuClients(), "open loop: no client count to state");
    }
    @Test
    void oneServersDefaultOffersAFarProbeHalfItsOwnRateWithTheStaticFileBesideItAtThatRate() {
        LoadEngine.Round pace = new LoadEngine.Round(null, List.of(slice(null, "static", 11_500, 1, 1),
                slice(null, "servlet", 9_300, 1, 1), slice(null, "shtml", 4_900, 1, 1), slice(null, "cgi", 476, 1, 1),
                slice(null, "static", 11_700, 1, 1)), null, null);
        RoundRate rate = RoundRate.apart(pace, 0.5, 8, 2.0 / 3);
        assertEquals(4_600, rate.rps(), "half of the servlet's 9,300, the slowest at 2/3 of the static file's 11,600 or more");
        assertEquals(java.util.Map.of("shtml", 2_400.0, "cgi", 230.0), rate.far(),
                "4,900 and 476 req/s, under 2/3 of 11,600: each at half its own");
        assertEquals("auto: 0.5 × servlet's 9,300 req/s at 8 clients, the slowest arm's rate in a round before the"
                + " rounds; shtml and cgi, under 67 % of the static file's rate, each at 0.5 × its own, the static file"
                + " beside it at that rate", rate.from());
        assertEquals("4,600 req/s offered (" + rate.from() + "); 2,400 to shtml; 230 to cgi", RoundRate.load(rate, 8));
        RoundRate noStatic = RoundRate.apart(new LoadEngine.Round(null, List.of(slice(null, "a", 2_000, 1, 1),
                slice(null, "b", 100, 1, 1)), null, null), 0.5, 8, 2.0 / 3);
        assertEquals(50, noStatic.rps(), "no static file to be near: every arm at half the slowest's rate");
        assertEquals(java.util.Map.of(), noStatic.far());

        // Each far probe's part carries a static slice at its rate; the main part the static file √k times.
        Mix st = Mix.of(Probe.STATIC);
        Mix servlet = Mix.of(Probe.SERVLET);
        Mix shtml = Mix.of(Probe.SHTML);
        Mix cgi = Mix.of(Probe.CGI);
        java.util.Map<Double, List<Mix>> parts = RateParts.of(List.of(st, servlet, shtml, cgi), rate, List.of(), 7, 1);
        assertEquals(List.of(4_600.0, 2_400.0, 230.0), List.copyOf(parts.keySet()), "the held rate's part first");
        assertEquals(List.of(st, servlet), parts.get(4_600.0));
        assertEquals(java.util.Set.of(shtml, st), java.util.Set.copyOf(parts.get(2_400.0)));
        assertEquals(2, parts.get(230.0).size());
        assertEquals(3, RateParts.count(List.of(st, servlet, shtml, cgi), rate, List.of()));
        assertEquals(6, RateParts.slices(List.of(st, servlet, shtml, cgi), rate, List.of()));
        assertEquals(List.of(2, 2, 2), List.of(parts.get(4_600.0).size(), parts.get(2_400.0).size(),
                parts.get(230.0).size()));
        List<Mix> even = RateParts.of(List.of(st, servlet, shtml, cgi), rate, List.of(), 7, 2).get(230.0);
        assertEquals(parts.get(230.0).get(0), even.get(1), "the next round runs a far part in reverse");
    }

    @Test
    void aFarProbesRatioPairsItWithTheStaticSlicesAtItsOwnRate() {
        CpuRounds rounds = new CpuRounds(8, 0.05, 60, "done", List.of()).offered(4_600, "auto",
                java.util.Map.of("cgi", 230.0));
        for (int r = 1; r <= 6; r++) {
            // the static file costs 100 µs at 4,600 req/s and 300 µs at 230; cgi 6,000 µs at 230
            rounds = rounds.with(new CpuRounds.Round(r, List.of(slice(null, "static", 4_600, 1, 0.46).at(4_600),
                    slice(null, "servlet", 4_600, 1, 0.46 * (0.9 + 0.001 * r)).at(4_600),
                    slice(null, "cgi", 230, 1, 230 * 6000e-6 * (1 + 0.001 * r)).at(230),
                    slice(null, "static", 230, 1, 230 * 300e-6).at(230))), "done");
        }
        List<SpiceFigures.Summary> summaries = Summaries.withRounds(List.of(), rounds, p -> SpiceFigures.CpuSource.SERVER);
        SpiceFigures.Rounds cgi = summaries.stream().filter(s -> s.probe().equals("cgi")).findFirst().orElseThrow()
                .rounds();
        assertEquals(20, cgi.cpuRatio(), 0.1, "6,000 µs over the static file's 300 at the same 230 req/s, not its 100");
        assertEquals(230.0, cgi.rateRps(), "one rate for both arms of the ratio");
        assertEquals(6_000, cgi.cpuUsPerReq(), 30, "its µs the static file's at 230 req/s × its ratio, not at 4,600's");
        assertNull(cgi.staticRateRps(), "the static file's slices ran at it");
        assertEquals(CpuRounds.OFFERED, cgi.rateKind());
        SpiceFigures.Rounds stat = summaries.stream().filter(s -> s.probe().equals("static")).findFirst().orElseThrow()
                .rounds();
        assertEquals(100, stat.cpuUsPerReq(), 0.5, "the static file's own figure at the held rate alone");
        SpiceFigures.Rounds servletFig = summaries.stream().filter(s -> s.probe().equals("servlet")).findFirst()
                .orElseThrow().rounds();
        assertEquals(0.9035, servletFig.cpuRatio(), 0.002, "against the held rate's static slices");
        assertEquals(4_600.0, servletFig.rateRps());
    }

    @Test
    void aSliceTheHypervisorTookPastTheBoundIsLeftOutOfEveryFigure() {
        StealLimit limit = StealLimit.above(0.02);
        assertEquals(0.12, limit.share(), 1e-9, "the machine's idle steal and 10 % of a CPU");
        assertEquals(0.10, StealLimit.above(Double.NaN).share(), 1e-9, "idle steal not read: the margin");
        CpuRounds rounds = new CpuRounds(8, 0.05, 60, "done", List.of()).offered(1_000, "auto").leavingOut(limit);
        for (int r = 1; r <= 6; r++) {
            double stolen = r == 3 ? 0.8 : 0.01;
            rounds = rounds.with(new CpuRounds.Round(r, List.of(
                    stolenSlice("static", 1_000, 0.2, 0.01), stolenSlice("static", 1_000, r == 3 ? 0.9 : 0.2, stolen),
                    stolenSlice("servlet", 1_000, 0.18 + 0.001 * r, 0.01))), "done");
        }
        assertEquals(1, rounds.leftOutForSteal());
        assertEquals(200, org.spice.bench.analysis.RoundFigures.of(rounds, p -> SpiceFigures.CpuSource.SERVER)
                .get("static").cpuUsPerReq(), 0.5, "round 3's stolen slice (900 µs) in no figure");
        assertEquals(0, rounds.leavingOut(null).leftOutForSteal());
        try {
            String json = org.spice.bench.model.ResultsJson.MAPPER.writeValueAsString(rounds);
            assertEquals(1, org.spice.bench.model.ResultsJson.MAPPER.readTree(json).get("slices_left_out_for_steal")
                    .asInt(), json);
            CpuRounds read = org.spice.bench.model.ResultsJson.MAPPER.readValue(json, CpuRounds.class);
            assertEquals(limit, read.stealLimit());
            assertEquals(1_000.0, read.rounds().get(0).slices().get(0).offeredRps(), "each slice its offered rate");
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    private static CpuSlice stolenSlice(String probe, long requests, double cpuS, double stealS) {
        return new CpuSlice(null, probe, requests, 0, 1, cpuS, Double.NaN, 0.1, Double.NaN, Double.NaN, stealS)
                .at(1_000);
    }

    @Test
    void sideBySideHoldsEachFarProbeAtHalfItsSlowestServersRateOnEveryServer() {
        LoadEngine.Round pace = new LoadEngine.Round(null, List.of(slice("httpd", "static", 12_000, 1, 1),
                slice("httpd", "module", 11_000, 1, 1), slice("httpd", "shtml", 9_000, 1, 1),
                slice("httpd", "cgi", 900, 1, 1), slice("tomcat", "static", 7_000, 1, 1),
                slice("tomcat", "module", 6_100, 1, 1), slice("tomcat", "shtml", 2_000, 1, 1),
                slice("tomcat", "cgi", 350, 1, 1)), null, null);
        RoundRate rate = RoundRate.apart(pace, 0.5, 8, 2.0 / 3);
        assertEquals(3_000, rate.rps(), "half of tomcat/module's 6,100: shtml is near on httpd but far on tomcat");
        assertEquals(java.util.Map.of("httpd/shtml", 1_000.0, "tomcat/shtml", 1_000.0, "httpd/cgi", 170.0,
                "tomcat/cgi", 170.0), rate.far(), "each far probe at half its slowest server's rate, on both");
        assertEquals(170, rate.of("tomcat/cgi"));
        assertEquals(3_000, rate.of("httpd/static"));
        assertEquals("3,000 req/s offered (" + rate.from() + "); 170 to httpd/cgi and tomcat/cgi; 1,000 to httpd/shtml"
                + " and tomcat/shtml", RoundRate.load(rate, 8));
        assertEquals("auto: 0.5 × tomcat/module's 6,100 req/s at 8 clients, the slowest arm's rate in a round before the"
                + " rounds; cgi and shtml, under 67 % of the static file's rate, each at 0.5 × its own (its slowest"
                + " server's), the static file beside it at that rate", rate.from());
        RoundRate held = RoundRate.apart(new LoadEngine.Round(null, List.of(slice("a", "static", 12_000, 1, 1),
                slice("a", "fastcgi", 7_500, 1, 1), slice("b", "static", 7_000, 1, 1), slice("b", "fastcgi", 7_200, 1, 1)),
                null, null), 0.5, 8, 2.0 / 3);
        assertEquals(3_500, held.rps(), "fastcgi is far on a (7,500 of 12,000), but half its slowest is over the held rate");
        assertEquals(java.util.Map.of(), held.far(), "so it holds it, in the one part");
        RoundRate noStatic = RoundRate.apart(new LoadEngine.Round(null, List.of(slice("a", "x", 2_000, 1, 1),
                slice("b", "x", 100, 1, 1)), null, null), 0.5, 8, 2.0 / 3);
        assertEquals(50, noStatic.rps(), "no static file to be near: every arm at half the slowest's rate");
        assertEquals(java.util.Map.of(), noStatic.far());

        CpuRounds rounds = new CpuRounds(8, 0.05, 60, "done", List.of(), List.of("httpd", "tomcat"))
                .offered(3_000, rate.from(), new java.util.TreeMap<>(java.util.Map.of("httpd/cgi", 170.0,
                        "tomcat/cgi", 170.0)));
        for (int r = 1; r <= 6; r++) {
            rounds = rounds.with(new CpuRounds.Round(r, List.of(slice("httpd", "static", 3_000, 1, 0.3),
                    slice("httpd", "cgi", 170, 1, 0.35 + 0.001 * r), slice("tomcat", "static", 3_000, 1, 0.6),
                    slice("tomcat", "cgi", 170, 1, 0.7 - 0.001 * r))), "done");
        }
        assertEquals("3,000 req/s offered, 170 to httpd/cgi and tomcat/cgi", rounds.load());
        Across.Cross cgi = CrossFigures.of(rounds, (arm, probe) -> SpiceFigures.CpuSource.SERVER).stream()
                .filter(c -> c.probe().equals("cgi")).findFirst().orElseThrow();
        assertEquals(List.of(170.0, 170.0), cgi.rateRps(), "across servers: one offered rate");
        assertEquals(CpuRounds.OFFERED, cgi.rateKind());
        assertEquals(false, cgi.ratesDiffer());
        CpuRounds httpd = rounds.of("httpd");
        assertEquals(java.util.Map.of("cgi", 170.0), httpd.farOfferedRps(), "a server's own rounds name its probes");
        SpiceFigures.Rounds own = Summaries.withRounds(List.of(), httpd, p -> SpiceFigures.CpuSource.SERVER).stream()
                .filter(s -> s.probe().equals("cgi")).findFirst().orElseThrow().rounds();
        assertEquals(170.0, own.rateRps(), "cgi's offered rate");
        assertEquals(3_000.0, own.staticRateRps(), "results without static slices at cgi's rate: the static file's own");
        assertEquals(CpuRounds.OFFERED, own.rateKind());
        assertEquals("3,000 req/s offered, 170 to cgi", httpd.load());
        try {
            String json = org.spice.bench.model.ResultsJson.MAPPER.writeValueAsString(rounds);
            assertEquals(170.0, org.spice.bench.model.ResultsJson.MAPPER.readTree(json).get("far_offered_rps")
                    .get("tomcat/cgi").asDouble(), json);
            assertEquals(rounds.farOfferedRps(), org.spice.bench.model.ResultsJson.MAPPER.readValue(json, CpuRounds.class)
                    .farOfferedRps(), "results.json keeps each far arm's rate");
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }
}
