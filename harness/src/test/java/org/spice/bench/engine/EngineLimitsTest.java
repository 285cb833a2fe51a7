package org.spice.bench.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.figures.LatencySummary;
import org.spice.bench.model.Cpu;
import org.spice.bench.model.Failure;
import org.spice.bench.model.RunRecord;

/** When the engine, not the server, is the limit, and how many clients the machine allows: the arithmetic. */
@Tag("unit")
class EngineLimitsTest {

    @Test
    void aSaturatedLoopWithFewClientsInARequestIsEngineBound() {
        // 1,000 clients, 2 s window, 2,000 requests of 100 ms: 100 clients busy on average, Little 0.10
        RunRecord lagging = run(1000, 2000, 0, 100, 1.9);
        Failure why = EventLoopEngine.engineBound(lagging, 0.99);
        assertEquals(Failure.Kind.ENGINE_BOUND, why.kind());
        assertTrue(why.reason().contains("(Little's law 0.10)"), why.reason());
        assertNull(EventLoopEngine.engineBound(lagging, 0.5), "a loop with time to spare is not the limit");
        assertNull(EventLoopEngine.engineBound(run(1000, 2000, 0, 100, 0.5), 0.99), "the client used half a core");
        // the same clients kept busy: 20,000 requests of 100 ms, Little 1.0
        assertNull(EventLoopEngine.engineBound(run(1000, 20_000, 0, 100, 1.9), 0.99));
        // failed requests keep clients busy too: 2,000 successes and 18,000 errors, Little 1.0
        assertNull(EventLoopEngine.engineBound(run(1000, 2000, 18_000, 100, 1.9), 0.99));
    }

    @Test
    void theLimitsAreReadFromProc(@TempDir Path dir) throws IOException {
        Path limits = Files.writeString(dir.resolve("limits"), """
                Limit                     Soft Limit           Hard Limit           Units
                Max cpu time              unlimited            unlimited            seconds
                Max open files            20000                20000                files
                """);
        assertEquals(20000, ClientLimits.openFilesLimit(limits));
        assertEquals(28232, ClientLimits.localPorts(Files.writeString(dir.resolve("range"), "32768\t60999\n")));
        assertEquals(-1, ClientLimits.localPorts(dir.resolve("absent")));
        assertTrue(ClientLimits.openDescriptors() > 2, "stdin, stdout and stderr at least");
        String refusal = ClientLimits.refusal(10_000_000, false);
        assertTrue(refusal != null && refusal.startsWith("10000000 clients need "), refusal);
        assertNull(ClientLimits.refusal(10, false));
    }

    /** A 2-second window of {@code clients} clients with the given counts, mean latency and client CPU (cores). */
    private static RunRecord run(int clients, long requests, long errors, double meanMs, double clientCores) {
        double duration = 2;
        return RunRecord.builder("static", clients, 1).durationS(duration).requests(requests)
                .errors(Map.of("timeout", errors)).bytes(0, requests * 6250).expectedBodyBytes(6250)
                .latency(new LatencySummary(meanMs, meanMs, meanMs, meanMs, meanMs, meanMs))
                .perClient(new long[clients], new double[clients], new long[clients])
                .cpu(new Cpu(clientCores * duration, Double.NaN, Double.NaN)).build();
    }
}
