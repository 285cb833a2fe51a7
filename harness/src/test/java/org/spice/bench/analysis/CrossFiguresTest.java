package org.spice.bench.analysis;

import org.spice.bench.model.Across;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.figures.SpiceFigures;
import org.spice.bench.model.CpuFrom;
import org.spice.bench.model.CpuRounds;
import org.spice.bench.model.CpuSlice;
import org.spice.bench.model.Protocol;
import org.spice.bench.model.Results;
import org.spice.bench.model.ResultsJson;

import com.fasterxml.jackson.databind.JsonNode;

/** Servers side by side: the ratios across servers from known slices, each server's own figures, the stopping rule. */
@Tag("unit")
class CrossFiguresTest {

    private static final SpiceFigures.CpuSource SERVER = SpiceFigures.CpuSource.SERVER;

    /**
     * {@code n} rounds of two servers: on "a" static 100 µs, servlet 80, cgi 3,000; on "b" static 150, servlet 100,
     * cgi 3,000; the machine's drift (every slice of a round × the same factor, ±{@code drift}) and a little noise of
     * each slice's own (±{@code own}, a different pattern per arm).
     */
    static CpuRounds rounds(int n, double drift, double own) {
        CpuRounds rounds = new CpuRounds(8, 0.05, 300, "in progress", List.of(), List.of("a", "b"));
        for (int r = 0; r < n; r++) {
            double machine = 1 + (r % 2 == 0 ? drift : -drift);
            List<CpuSlice> slices = new ArrayList<>();
            int arm = 0;
            for (Object[] a : new Object[][] {{"a", "static", 100.0}, {"a", "servlet", 80.0}, {"a", "cgi", 3000.0},
                {"b", "static", 150.0}, {"b", "servlet", 100.0}, {"b", "cgi", 3000.0}}) {
                double wobble = 1 + own * Math.sin(1.7 * r + 2.3 * arm++);
                slices.add(taken((String) a[0], (String) a[1], (Double) a[2] * machine * wobble));
            }
            rounds = rounds.with(new CpuRounds.Round(r + 1, slices), "in progress");
        }
        return rounds;
    }

    private static CpuSlice taken(String server, String probe, double cpuUs) {
        return new CpuSlice(server, probe, 1000, 0, 1.0, cpuUs * 1000 / 1e6, Double.NaN, 0.3, Double.NaN, 0.001);
    }

    private static Across.Cross find(List<Across.Cross> all, String probe) {
        return all.stream().filter(c -> c.probe().equals(probe)).findFirst().orElseThrow();
    }

    @Test
    void eachProbeOnOneServerAgainstTheOtherIsPairedByRoundAndTheMachinesDriftCancels() {
        List<Across.Cross> all = CrossFigures.of(rounds(12, 0.2, 0), (server, probe) -> SERVER);
        assertEquals(3, all.size(), "static, servlet and cgi on both: " + all);
        Across.Cross servlet = find(all, "servlet");
        assertEquals("a", servlet.a());
        assertEquals("b", servlet.b());
        assertEquals(0.8, servlet.ratio(), 1e-9);
        assertTrue(servlet.relativeCiOfRatio() < 1e-9, "a drift common to a round cancels: " + servlet);
        assertEquals(12, servlet.rounds());
        assertEquals(1, servlet.restarts());
        assertEquals((80.0 / 100) / (100.0 / 150), servlet.relative(), 1e-9, "each against its own static file");
        assertEquals(100.0 / 150, find(all, "static").ratio(), 1e-9);
        assertTrue(Double.isNaN(find(all, "static").relative()), "the static file against itself says nothing");
        assertEquals(0.05, servlet.aim(), 1e-12);
        assertEquals(0.10, find(all, "cgi").aim(), 1e-12, "past 2 × its static file on a: twice the precision");
        assertTrue(find(all, "cgi").holdsOne() && !servlet.holdsOne());
    }

    /**
     * Side by side, a round that one server's JIT compiled through (over 3 % of its CPU) is left out of every ratio,
     * the other server's too: its slices there ran beside a server that was not yet measuring its interface.
     */
    @Test
    void aRoundOneServersJitCompiledThroughIsInNoRatio() {
        CpuRounds rounds = rounds(8, 0, 0);
        List<CpuSlice> busy = new ArrayList<>();
        for (CpuSlice t : rounds(1, 0, 0).rounds().get(0).slices()) {
            double cpuS = t.serverCpuS() * (t.server().equals("b") ? 3 : 1);
            busy.add(new CpuSlice(t.server(), t.probe(), t.requests(), 0, 1.0, cpuS,
                    Double.NaN, 0.3, t.server().equals("b") ? 0.5 * cpuS : 0, 0.001));
        }
        rounds = rounds.with(new CpuRounds.Round(9, busy), "in progress");
        assertTrue(rounds.rounds().get(8).jitBusy(), "b's JIT took half its CPU");
        assertEquals(8, rounds.counted());
        Across.Cross servlet = find(CrossFigures.of(rounds, (server, probe) -> SERVER), "servlet");
        assertEquals(8, servlet.rounds(), "the busy round is in no ratio");
        assertEquals(0.8, servlet.ratio(), 1e-9, "b's servlet at 3 × its cost in that round moved nothing");
    }

    @Test
    void theFirstArmNamedIsTheNumeratorWhateverRanFirst() {
        CpuRounds named = rounds(8, 0.1, 0);
        named = new CpuRounds(8, 0.05, 300, "done", named.rounds(), List.of("b", "a"));
        assertEquals(List.of("b", "a"), CrossFigures.servers(named));
        Across.Cross servlet = find(CrossFigures.of(named, (s, p) -> SERVER), "servlet");
        assertEquals("b", servlet.a());
        assertEquals(1.25, servlet.ratio(), 1e-9);
    }

    @Test
    void eachServersOwnRoundsAreItsSlicesAlone() {
        CpuRounds rounds = rounds(8, 0.1, 0.02);
        assertEquals(List.of("a", "b"), CrossFigures.servers(rounds));
        CpuRounds b = rounds.of("b");
        assertTrue(b.rounds().stream().allMatch(r -> r.slices().size() == 3
                && r.slices().stream().allMatch(t -> t.server() == null)));
        Map<String, RoundFigures.Figures> own = RoundFigures.of(b, probe -> SERVER);
        assertEquals(100.0 / 150, own.get("servlet").paired().ratio(), 0.01);
        assertTrue(CrossFigures.servers(b).isEmpty(), "one server's rounds name none");
    }

    @Test
    void theRoundsStopOnlyWhenEveryRatioAcrossAndWithinIsPrecise() {
        assertFalse(CrossFigures.preciseEnough(rounds(5, 0.2, 0.001), (s, p) -> SERVER),
                "fewer rounds than an interval needs");
        assertTrue(CrossFigures.preciseEnough(rounds(8, 0.2, 0.001), (s, p) -> SERVER));
        assertFalse(CrossFigures.preciseEnough(rounds(8, 0.2, 0.15), (s, p) -> SERVER),
                "±15 % of each slice's own noise over 8 rounds is not within ±5 %");
    }

    @Test
    void armsThatDifferInBothServerAndProtocolAreNotCompared() {
        assertTrue(CrossFigures.comparable("tomcat", "jetty"));
        assertTrue(CrossFigures.comparable("tomcat:http1.0", "tomcat:keepalive"));
        assertTrue(CrossFigures.comparable("tomcat:keepalive", "jetty:keepalive"));
        assertFalse(CrossFigures.comparable("tomcat:http1.0", "jetty:keepalive"));
    }

    @Test
    void resultsJsonKeepsTheRoundsWithTheirServersAndTheCrossRatios(@TempDir Path dir) throws Exception {
        CpuRounds rounds = rounds(8, 0.1, 0.01);
        CrossResults.write(dir, List.of(new Results.Member("a", "tomcat", CpuFrom.CGROUP, dir.resolve("a").toString()),
                new Results.Member("b", "jetty", CpuFrom.CGROUP, dir.resolve("b").toString())),
                List.of(Protocol.HTTP10), List.of(rounds));
        JsonNode json = ResultsJson.MAPPER.readTree(Files.readString(dir.resolve("results.json")));
        assertEquals(Results.SCHEMA, json.get("schema").asText());
        assertFalse(json.has("earlier_starts"), "one start: no earlier ones");
        assertEquals("a", json.get("arms").get(0).get("name").asText());
        JsonNode slice = json.get("cpu_rounds").get("rounds").get(0).get("slices").get(0);
        assertEquals("a", slice.get("server").asText());
        assertEquals(0.001, slice.get("others_cpu_s").asDouble(), 1e-12);
        JsonNode servlet = json.get("cross_ratios").get(1);
        assertEquals("servlet", servlet.get("probe").asText());
        for (String field : List.of("a", "b", "ratio", "ratio_ci", "ratio_low", "ratio_high", "rounds", "restarts")) {
            assertTrue(servlet.has(field), field + " in " + servlet);
        }
        assertEquals(0.8, servlet.get("ratio").asDouble(), 0.01);
        assertEquals("servlet", json.get("own_ratios").get(0).get("probe").asText());
        Results back = ResultsFiles.read(dir.resolve("results.json"));
        assertTrue(back.severalArms());
        assertEquals(1, back.starts().size());
        assertEquals(rounds.rounds().size(), back.starts().get(0).rounds().size());
        assertEquals(List.of("a", "b"), back.starts().get(0).arms());
        assertEquals(CrossFigures.of(rounds, (s, p) -> SERVER), back.across().cross(),
                "the figures computed again from the rounds read back");
    }

    @Test
    void aSliceOfOneServerWritesNoServerAndReadsBackWithoutOne() throws Exception {
        CpuSlice alone = new CpuSlice("static", 10, 0, 1, 0.001, 0.002, 0.001, Double.NaN);
        String json = ResultsJson.MAPPER.writeValueAsString(alone);
        assertFalse(json.contains("\"server\""), json);
        CpuSlice back = ResultsJson.MAPPER.readValue("{\"probe\": \"static\", \"requests\": 10, \"errors\": 0,"
                + " \"duration_s\": 1, \"server_cpu_s\": 0.001, \"machine_cpu_s\": 0.002, \"client_cpu_s\": 0.001,"
                + " \"jit_cpu_s\": null}", CpuSlice.class);
        assertNull(back.server());
        assertTrue(Double.isNaN(back.othersCpuS()), "absent from an older file: not measured, " + back);
        assertEquals("static", back.arm());
    }

    @Test
    void namedPairsAreTheOnlyComparisonsAndOneProbeMayStandAgainstAnother() {
        CpuRounds all = rounds(10, 0.1, 0.001);
        CpuRounds named = new CpuRounds(8, 0.05, 300, "done", all.rounds(), List.of("a", "b"),
                List.of("b/a", "servlet@a/static@b", "cgi@a/servlet@a"));
        List<Across.Cross> figures = CrossFigures.of(named, (s, p) -> SERVER);
        assertEquals(5, figures.size(), "b/a on three probes, then the two probe pairs: " + figures);
        assertEquals("b", figures.get(0).a(), "the pair's order, not the arms'");
        assertEquals(1.5, find(figures, "static").ratio(), 0.005);
        Across.Cross across = figures.get(3);
        assertEquals("servlet / static", across.label());
        assertEquals("static", across.bProbe());
        assertEquals(80.0 / 150, across.ratio(), 0.005);
        Across.Cross within = figures.get(4);
        assertEquals("a", within.b(), "two probes of one arm: the interface alone");
        assertEquals(3000.0 / 80, within.ratio(), 0.2);
        assertEquals(within.ratio(), within.relative(), 1e-9, "both against the same static file: the ratio again");
        assertNull(find(figures, "static").bProbe(), "one probe on both: none written");
    }

    @Test
    void aPairIsTwoArmsOrTwoProbesAtTwoArms() {
        assertEquals(new CrossFigures.Pair(null, "tomcat", null, "tomcat-2"), CrossFigures.Pair.parse("tomcat/tomcat-2"));
        assertEquals(new CrossFigures.Pair("php-fpm", "apache", "mod-php", "apache-prefork"),
                CrossFigures.Pair.parse("php-fpm@apache/mod-php@apache-prefork"));
        assertEquals("php-fpm@apache/mod-php@apache-prefork",
                CrossFigures.Pair.parse("php-fpm@apache/mod-php@apache-prefork").toString());
        for (String bad : List.of("tomcat", "a/b/c", "x@a/b", "@a/x@b", "a/", "x@y@a/x@b")) {
            try {
                CrossFigures.Pair.parse(bad);
                throw new AssertionError(bad + " parsed");
            } catch (IllegalArgumentException expected) {
                assertTrue(expected.getMessage().contains(bad), expected.getMessage());
            }
        }
    }
}
