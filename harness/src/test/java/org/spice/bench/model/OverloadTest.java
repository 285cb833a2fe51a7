package org.spice.bench.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.analysis.Summaries;
import org.spice.bench.figures.LatencySummary;

/** The overload figures from known counts: retention, what is left out, error outcomes, fairness by chance, recovery. */
@Tag("unit")
class OverloadTest {

    /** A step's run: {@code requests} in a 5 s window shared equally by {@code clients}, with these errors. */
    static RunRecord run(int clients, long requests, Map<String, Long> errors, String failed) {
        long[] perClient = new long[clients];
        Arrays.fill(perClient, requests / clients);
        double[] meanMs = new double[clients];
        Arrays.fill(meanMs, 5000.0 * clients / requests);
        RunRecordBuilder b = RunRecord.builder("static", clients, 0).durationS(5).requests(requests).errors(errors)
                .bytes(requests * 200, requests * 6250).expectedBodyBytes(6250)
                .latency(new LatencySummary(1, 1, 1, 1, 1, 1, List.of())).perClient(perClient, meanMs, new long[clients])
                .cpu(Cpu.NONE);
        return (failed == null ? b : b.failed(Failure.of(Failure.Kind.ENGINE_BOUND, failed))).build();
    }

    static Overload flood(Overload.Recovery recovery) {
        return new Overload("static", 8, "given (--peak-clients)", List.of(
                new Overload.Step(1, 8, null, run(8, 50_000, Map.of(), null)),                       // 10,000 req/s
                new Overload.Step(2, 16, null, run(16, 45_000, Map.of("timeout", 3L), null)),        // 90 %
                new Overload.Step(4, 32, null, run(32, 20_000, Map.of("connect_refused", 2L, "reset", 1L,
                        "closed_early", 4L, "short_body", 5L, "status", 6L), null)),                 // 40 %
                new Overload.Step(8, 64, null, run(64, 30_000, Map.of(), "engine-bound: loops busy")),
                new Overload.Step(16, 100, "16 × 8 = 128 clients asked for; the open-files limit",
                        run(100, 10_000, Map.of("address_exhausted", 200L), null))), recovery);     // client-bound
    }

    @Test
    void retentionIsEachStepsRateOverTheOneTimesRateLeavingOutWhatTheClientPaced() {
        Overload o = flood(null);
        Map<String, Double> retention = o.retention();
        assertEquals(List.of("2", "4", "8", "16"), List.copyOf(retention.keySet()));
        assertEquals(0.9, retention.get("2"), 1e-12);
        assertEquals(0.4, retention.get("4"), 1e-12);
        assertNull(retention.get("8"), "engine-bound: says nothing about the server");
        assertNull(retention.get("16"), "200 of 10,200 requests (2 %) failed on the client's own limits");
        assertTrue(o.steps().get(4).excluded().startsWith("client-bound: 200 of 10200"));
        assertEquals(4, o.largestCounted().multiple());
    }

    @Test
    void errorsAreGroupedAsOverloadSeesThem() {
        Map<String, Long> outcomes = flood(null).steps().get(2).outcomes();
        Map<String, Long> expected = new LinkedHashMap<>();
        expected.put("refused", 2L);
        expected.put("status", 6L);
        expected.put("reset", 5L);
        expected.put("timed_out", 0L);
        expected.put("wrong_bytes", 5L);
        expected.put("client_limit", 0L);
        expected.put("other", 0L);
        assertEquals(expected, outcomes);
    }

    @Test
    void fairnessByChanceIsWhatPoissonCountsGive() {
        // 10,000 requests over 100 clients: m = 100, m / (m + 1)
        assertEquals(100.0 / 101, flood(null).steps().get(4).fairnessByChance(), 1e-12);
        assertEquals(1.0, flood(null).steps().get(0).fairness(), 1e-12);
    }

    @Test
    void recoveryIsTheFirstCheckWithinTenPercentWithNoFailureAndTheExactPage() {
        Overload o = flood(new Overload.Recovery(60, List.of(), List.of(
                new Overload.Check(0.2, "GET /spice/static/spice.html: connect timed out", 1.2, 9_500, 0, 1),
                new Overload.Check(1.3, null, 2.3, 8_000, 0, 1),       // 80 %: not yet
                new Overload.Check(2.4, null, 3.4, 9_500, 1, 1),       // a failure
                new Overload.Check(3.5, null, 4.5, 9_000, 0, 1))));    // 90 %: back
        assertEquals(4.5, o.recoveredAfterS(), 1e-12);
        assertEquals(1.3, o.firstExactAnswerS(), 1e-12);
        Overload never = flood(new Overload.Recovery(60, List.of(), List.of(new Overload.Check(0.1, null, 1.1, 100, 0, 1))));
        assertTrue(Double.isNaN(never.recoveredAfterS()));
        assertFalse((Boolean) never.recovery().get("recovered"));
        assertNull(flood(null).recovery(), "not watched: no recovery figure");
    }

    /** results.json of a run with this one overload, as written. */
    private static String written(Path dir, Overload o) throws java.io.IOException {
        Results results = new Results("http://127.0.0.1:1", "apache", 6250, RecordedSettings.NONE, "a", "b", false, null,
                List.of(), List.of()).withOverload(List.of(o));
        Summaries.write(dir, results);
        return Files.readString(dir.resolve(ResultsJson.FILE));
    }

    @Test
    void resultsJsonKeepsTheCountsAndRecomputesTheFigures(@TempDir Path dir) throws Exception {
        Overload o = flood(new Overload.Recovery(60, List.of(), List.of(new Overload.Check(0.01, null, 1.0, 9_900, 0, 1))));
        String json = written(dir, o);
        assertTrue(json.contains("\"overload_retention\""), json);
        assertTrue(json.contains("\"recovery\""), json);
        Overload back = ResultsJson.read(dir.resolve(ResultsJson.FILE)).overload().get(0);
        assertEquals(o.retention(), back.retention());
        assertEquals(1.0, back.recoveredAfterS(), 1e-12);
        assertEquals(0.01, back.firstExactAnswerS(), 1e-12);
        assertNotNull(back.steps().get(3).excluded());
        assertEquals("16 × 8 = 128 clients asked for; the open-files limit", back.steps().get(4).capped());
    }

    static Readings readings(long overflows, int busy, double serverCpuS) {
        return new Readings(2, Map.of("ESTABLISHED", 600, "SYN_SENT", 20), Map.of("SYN_RECV", 300), 511, overflows, 0,
                busy, 400, 0, serverCpuS, 2, 28_232);
    }

    @Test
    void recoveryIsHeldToTheMedianOfTheSameChecksBeforeTheFlood() {
        // the 1 × step ran 10,000 req/s in a ramped window; the one-second checks before the flood, 8,000 to 9,000
        List<Overload.Check> before = List.of(new Overload.Check(0, null, 1, 8_000, 0, 1),
                new Overload.Check(1, null, 2, 9_000, 0, 1), new Overload.Check(2, null, 3, 8_500, 0, 1));
        Overload o = flood(new Overload.Recovery(60, before, List.of(
                new Overload.Check(0.1, null, 1.1, 7_600, 0, 1, readings(120, 400, 1.2)),   // below 90 % of 8,500
                new Overload.Check(1.2, null, 2.2, 7_700, 0, 1, readings(0, 150, 1.9)),     // 7,650 counts: back
                new Overload.Check(2.3, null, 3.3, 7_000, 0, 1))));
        assertEquals(8_500, o.referenceRps(), 1e-9);
        assertEquals(2.2, o.recoveredAfterS(), 1e-12);
        assertEquals(Map.of("listen_queue", 1, "workers", 1), o.heldBy(), "the first check's readings, the only one not back");
        assertEquals(List.of("server_cpu"), o.watch().checks().get(1).heldBy(), "1.9 s of 2 cores' second: 95 %, over 75 %");
        assertEquals(10_000, flood(new Overload.Recovery(60, List.of(), List.of())).referenceRps(), 1e-9,
                "results written before the baseline: the 1 × step's rate");
    }

    @Test
    void aServerThatFailsSomeRequestsAtItsPeakIsBackWhenItFailsNoMore() {
        // nginx's CGI gateway answers some requests 502 at 625 clients: 10 % and 20 % of the checks before the flood
        List<Overload.Check> before = List.of(new Overload.Check(0, null, 1, 900, 100, 1),
                new Overload.Check(1, null, 2, 800, 200, 1));
        Overload o = flood(new Overload.Recovery(60, before, List.of(
                new Overload.Check(0.1, null, 1.1, 900, 300, 1),      // 25 % failed: not yet
                new Overload.Check(1.2, null, 2.2, 800, 200, 1))));   // 20 %, at 800 of the 850 median: back
        assertEquals(0.2, o.failedBefore(), 1e-12);
        assertEquals(2.2, o.recoveredAfterS(), 1e-12);
    }

    @Test
    void readingsNameWhatIsNearItsLimit() {
        assertEquals(List.of(), readings(0, 10, 0.5).heldBy(1));
        Readings ports = new Readings(1, Map.of("TIME_WAIT", 25_000, "ESTABLISHED", 500), Map.of(), -1, 0, 7, -1, -1, 2,
                Double.NaN, 2, 28_232);
        assertEquals(List.of("client_ports", "stopping"), ports.heldBy(1),
                "25,500 of 28,232 ports is over 90 %; SYN cookies delay nothing; no CPU measured is no CPU held");
    }

    @Test
    void readingsGoToResultsJsonAndBack(@TempDir Path dir) throws Exception {
        Overload o = new Overload("static", 8, "given", List.of(new Overload.Step(1, 8, null, run(8, 50_000, Map.of(), null),
                readings(3, 400, Double.NaN))), new Overload.Recovery(60, List.of(new Overload.Check(0, null, 1, 9_000, 0, 1)),
                List.of(new Overload.Check(0.01, null, 1.0, 7_000, 0, 1, readings(5, 12, 0.4)))));
        String json = written(dir, o);
        assertTrue(json.contains("\"held_by\" : [ \"listen_queue\", \"workers\" ]"), json);
        assertTrue(json.contains("\"listen_overflows\" : 5"), json);
        Overload back = ResultsJson.read(dir.resolve(ResultsJson.FILE)).overload().get(0);
        assertEquals(o.steps().get(0).readings().clientSockets(), back.steps().get(0).readings().clientSockets());
        assertTrue(Double.isNaN(back.steps().get(0).readings().serverCpuS()), "not measured: null, read back as NaN");
        assertEquals(9_000, back.referenceRps(), 1e-9);
        assertEquals(Map.of("listen_queue", 1), back.heldBy());
    }
}
