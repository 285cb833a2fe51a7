package org.spice.bench.report;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.spice.bench.analysis.Summaries;
import org.spice.bench.model.CpuRounds;
import org.spice.bench.model.CpuSlice;
import org.spice.bench.model.RecordedSettings;
import org.spice.bench.model.Results;

/**
 * The pairs --pairs asked for are said in the verdict, each in the asked order (results.json may hold it the other way
 * round), in the one judge's words: its multiple and ends, or the same within its farthest end.
 */
@Tag("unit")
class AskedPairsTest {

    /** Eight closed-loop rounds: each probe's CPU its multiple of the static file's, the static file moving ±2 %. */
    private static Results run(Map<String, Double> multiples, List<String> pairs) {
        List<CpuRounds.Round> rounds = new ArrayList<>();
        for (int r = 0; r < 8; r++) {
            double staticUs = 100 * (1 + (r % 2 == 0 ? 0.02 : -0.02));
            List<CpuSlice> slices = new ArrayList<>();
            int i = 0;
            for (Map.Entry<String, Double> m : multiples.entrySet()) {
                double seconds = staticUs * m.getValue() * (1 + ((r + i++) % 3 - 1) * 0.01) * 2000 / 1e6;
                slices.add(new CpuSlice(null, m.getKey(), 2000, 0, 1.0, seconds, seconds, 0.4, Double.NaN, 0.0));
            }
            rounds.add(new CpuRounds.Round(r + 1, slices));
        }
        CpuRounds cpu = new CpuRounds(8, 0.05, 90, "every probe within its precision", rounds, List.of(), pairs);
        return Summaries.conclude(new Results("http://127.0.0.1:18084", "nginx", 6250, RecordedSettings.NONE,
                "2026-12-07T00:00:00Z", "2026-12-07T00:05:00Z", false, null, List.of(), List.of(), null, List.of(),
                List.of(), cpu));
    }

    @Test
    void eachAskedPairIsSaidInTheOrderAsked() {
        Map<String, Double> multiples = new java.util.LinkedHashMap<>();
        multiples.put("static", 1.0);
        multiples.put("fastcgi", 3.0);
        multiples.put("wasm", 6.0);
        multiples.put("cgi", 12.0);
        multiples.put("wasm-kept", 3.0);
        String said = Verdict.askedPairs(run(multiples, List.of("cgi/wasm", "wasm-kept/fastcgi")));
        // 12 / 6 with each slice's ±1 % turn: 1.990, its ends apart from 1
        assertTrue(said.startsWith("Paired by round, as asked (--pairs): cgi costs 1.990 × wasm's ("), said);
        assertTrue(said.contains("; wasm-kept costs the same as fastcgi's within ± "), said);
        assertTrue(said.contains("8 rounds, each at its own rate"), said);
        assertFalse(said.contains("wasm costs") || said.contains("fastcgi costs"), "in the order asked: " + said);
    }

    @Test
    void noPairAskedIsNoSentence() {
        assertNull(Verdict.askedPairs(run(Map.of("static", 1.0, "cgi", 12.0), List.of())));
    }
}
