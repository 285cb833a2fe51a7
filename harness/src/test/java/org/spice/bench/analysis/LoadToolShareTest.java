package org.spice.bench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.spice.bench.model.CpuRounds;
import org.spice.bench.model.CpuSlice;

/** The load tool's CPU per request and the machine's busy share through an arm's slices, from their counts. */
@Tag("unit")
class LoadToolShareTest {

    private static CpuSlice slice(String probe, long requests, double machineS, double clientS) {
        return new CpuSlice(probe, requests, 0, 1.0, machineS, machineS, clientS, 0.0);
    }

    @Test
    void theLoadToolsCpuPerRequestAndTheMachinesBusyShareAreTheSlicesSums() {
        CpuRounds rounds = new CpuRounds(8, 0.05, 60, "test", List.of());
        // static: 1,000 then 3,000 requests, the load tool 0.2 then 0.6 s of CPU: 200 µs a request; the machine busy
        // (0.5 + 0.2) + (0.9 + 0.6) = 2.2 CPU-seconds over 2 s on 2 CPUs: 55 %
        rounds = rounds.with(new CpuRounds.Round(1, List.of(slice("static", 1000, 0.5, 0.2), slice("cgi", 100, 0.8, 0.05))),
                "test");
        rounds = rounds.with(new CpuRounds.Round(2, List.of(slice("static", 3000, 0.9, 0.6))), "test");
        double[] load = Summaries.loadTool(rounds, "static", 2);
        assertEquals(200, load[0], 1e-9);
        assertEquals(0.55, load[1], 1e-12);
        assertEquals(500, Summaries.loadTool(rounds, "cgi", 2)[0], 1e-9, "0.05 s over 100 requests");
        assertTrue(Double.isNaN(Summaries.loadTool(rounds, "static", 0)[1]), "no CPUs recorded: no share");
        assertTrue(Double.isNaN(Summaries.loadTool(rounds, "module", 2)[0]), "an arm with no slice: not read");
    }
}
