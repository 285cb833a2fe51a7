package org.spice.bench.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.mix.Mix;
import org.spice.bench.mix.MixFile;
import org.spice.bench.model.BenchSettings;
import org.spice.bench.model.CpuSlice;
import org.spice.bench.model.Failure;
import org.spice.bench.model.LoadEngine;
import org.spice.bench.model.RunRecord;
import org.spice.bench.model.RecordedSettings;
import org.spice.bench.model.Stop;
import org.spice.bench.net.TestServer;
import org.spice.bench.proc.ServerCpu;
import org.spice.commands.BenchCommand;
import org.spice.page.Probe;
import org.spice.testkit.Bound;

/**
 * The engine against a server with a known service time: a closed loop of N clients on a server that
 * answers in 20 ms must measure about 20 ms and about N / 20 ms requests per second. The tolerances are
 * wide: the test checks that the engine measures the right thing, not how fast this machine is.
 */
@Tag("load")
class EngineTest {

    private static final int SIZE = 6250;
    private static final int DELAY_MS = 20;
    /**
     * How far above the 20 ms service time the mean may be: the stub's and the engine's own time, 0.3-1.4 ms over ten
     * runs here, 4.4 ms once with the machine busy with another build; 10 ms is twice that.
     */
    private static final double LATENCY_OVER_MS = 10;
    /**
     * The achieved rate over N / 20 ms: never above it but for a window's edges (a request of ~50 a client: 5 %), and
     * below it what the latency bound allows (20 / 30 ms), less the edges: 0.6. Over ten runs 0.92-0.98; 0.82 once busy.
     */
    private static final double RATE_LOW = 0.6;
    private static final double RATE_HIGH = 1.05;
    /** Little's law from the same requests: the edges and ramps, a request a client of ~50; 0.988-1.009 over ten runs. */
    private static final double LITTLE = 0.05;

    private TestServer server;

    @AfterEach
    void stop() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void closedLoopMeasuresTheServiceTime() throws Exception {
        server = delayed();
        for (boolean keepAlive : new boolean[] {false, true}) {
            EventLoopEngine runner = keepAlive ? runner(Map.of("--keepalive", "")) : runner(Map.of());
            for (int clients : new int[] {1, 4}) {
                RunRecord r = runner.run(Mix.of(Probe.STATIC), clients, 1);
                String what = clients + " clients, keepAlive=" + keepAlive + ": " + r;
                assertFalse(r.failed(), what);
                assertEquals(0, r.errorTotal(), what);
                assertEquals(SIZE, r.bytesPerResponse(), what);
                assertEquals(SIZE * r.rateRps(), r.throughputBytesS(), 1e-6, what);
                String at = clients + " clients" + (keepAlive ? ", kept alive" : "");
                Bound.within(at + ": mean latency, ms", r.latency().meanMs(), DELAY_MS, DELAY_MS + LATENCY_OVER_MS,
                        "the stub sleeps 20 ms, so never less; above it the stub's and the engine's own time:"
                        + " +0.3-1.4 ms over 10 runs, +4.4 once busy");
                double ideal = clients * 1000.0 / DELAY_MS;
                Bound.within(at + ": rate over N / 20 ms", r.rateRps() / ideal, RATE_LOW, RATE_HIGH, "each client waits"
                        + " 20 ms a request, so at most N / 20 ms, 5 % for a 1 s window's edges (a request each of ~50);"
                        + " below, what the latency bound allows (20/30) less the edges; 0.92-0.98 over 10 runs");
                Bound.within(at + ": Little's law (rate × latency / clients)", r.littleRatio(), 1 - LITTLE, 1 + LITTLE,
                        "rate and latency from the same requests; the window's edges and the ramps differ by a request"
                        + " a client of ~50 (2 %); 0.988-1.009 over 10 runs");
                Bound.atLeast(at + ": Jain's fairness over the clients", r.fairnessJain(), 0.9, "identical clients on a"
                        + " thread-per-connection stub differ by a request or two of ~50: 0.9999-1 over 10 runs; 0.9 is"
                        + " one client of four served a third as often as the others");
                assertTrue(r.latency().p50Ms() <= r.latency().p99Ms() && r.latency().p99Ms() <= r.latency().maxMs() + 0.01);
                assertEquals(clients, r.clientRequests().length);
            }
        }
    }

    @Test
    void errorsOfAMixAreCountedByClassAndNeverAveragedIn(@TempDir Path dir) throws Exception {
        server = new TestServer((head, socket, out) -> {
            switch (TestServer.path(head)) {
                case "/ok" -> TestServer.respond(out, 200, SIZE, SIZE);
                case "/short" -> TestServer.respond(out, 200, 100, 100);
                default -> TestServer.respond(out, 404, 9, 9);
            }
            return true;
        });
        Path file = dir.resolve("faults.mix");
        Files.writeString(file, "2 /ok\n1 /short\n1 /missing\n");
        RunRecord r = runner(Map.of()).run(MixFile.read(file), 2, 1);
        assertFalse(r.failed(), r.toString());
        assertTrue(r.requests() > 0);
        assertTrue(r.errors().get("short_body") > 0, r.errors().toString());
        assertTrue(r.errors().get("status") > 0, r.errors().toString());
        assertEquals(r.errors().get("status"), r.statusCodes().get("404"));
        assertEquals(r.errors().get("short_body") + r.errors().get("status"), r.errorTotal());
        assertEquals(SIZE, r.bytesPerResponse());   // the short bodies are errors, not averaged in
        // about half the draws go to /ok: a binomial share, four standard deviations of it
        long draws = r.requests() + r.errorTotal();
        double sd = Math.sqrt(0.25 / draws);
        Bound.within("share of the draws that went to /ok", r.requests() / (double) draws, 0.5 - 4 * sd, 0.5 + 4 * sd,
                String.format("weights 2:1:1, %d draws: 4 binomial sd (%.3f)", draws, sd));
    }

    /**
     * A request that never ends is timed out, and the run ends without it: /hang waits until the test is over, so a run
     * that waited for it would never return (the timeout below only keeps such a failure from hanging the build).
     */
    @Test
    @Timeout(60)
    void theEventLoopTimesOutRequestsAndKeepsTheOthersGoing(@TempDir Path dir) throws Exception {
        CountDownLatch testOver = new CountDownLatch(1);
        server = new TestServer((head, socket, out) -> {
            if (TestServer.path(head).equals("/hang")) {
                testOver.await();
            }
            TestServer.respond(out, 200, SIZE, SIZE);
            return true;
        });
        Path file = dir.resolve("hangs.mix");
        Files.writeString(file, "20 /ok\n1 /hang\n");
        RunRecord r;
        try {
            r = runner(Map.of("--ramp-up", "0", "--duration", "1.5", "--ramp-down", "0", "--timeout", "200"))
                    .run(MixFile.read(file), 4, 1);
        } finally {
            testOver.countDown();
        }
        assertFalse(r.failed(), r.toString());
        assertTrue(r.errors().get("timeout") > 0, r.errors().toString());
        assertEquals(r.errors().get("timeout"), r.errorTotal(), r.errors().toString());
        assertTrue(r.requests() > 100, r.toString());
        Bound.atMost("slowest success, ms", r.latency().maxMs(), 200, "the 200 ms timeout: a success that waited behind"
                + " a hanging request would take longer (the others take the stub's ~0.1 ms)");
    }

    /**
     * The ramp-down keeps the load on until every client has ended what it started in the window, and no longer: with
     * a 20 ms service time and 5 s allowed, the mix ends some 20 ms after its window, every request it started there
     * counted, those that ended in the ramp-down included.
     */
    @Test
    void theRampDownEndsWhenTheWindowsLastRequestsHaveEnded() throws Exception {
        AtomicLong served = new AtomicLong();
        server = new TestServer((head, socket, out) -> {
            Thread.sleep(DELAY_MS);
            TestServer.respond(out, 200, SIZE, SIZE);
            served.incrementAndGet();
            return true;
        });
        EventLoopEngine runner = runner(Map.of("--ramp-up", "0", "--duration", "1", "--ramp-down", "5"));
        RunRecord r = runner.run(Mix.of(Probe.STATIC), 4, 1);
        assertFalse(r.failed(), r.toString());
        // No ramp-up: every request the server answered started in the window, or in the ramp-down. Kept on for its
        // 5 s, the ramp-down would have sent some 1,000 more (4 clients, 20 ms each); ended with the window's last
        // requests, a request or two more per client.
        assertTrue(served.get() - r.requests() <= 8, served.get() + " answered, " + r.requests() + " in the window");
        assertTrue(r.completedAfterWindow() > 0, "the requests in flight at the window's end were waited for: " + r);
        Bound.within("rate over 4 / 20 ms", r.rateRps() / (4 / (DELAY_MS / 1000.0)), RATE_LOW, RATE_HIGH,
                "as the closed loop's bound: at most N / 20 ms and a window's edge; 0.92-0.96 over 10 runs");
    }

    /**
     * A CPU round runs its mixes a slice each under one load: every request the server sees in the middle slice's
     * second is that slice's probe, and the slice counts exactly the requests that started in it, no client having
     * stopped in between (the ramp-up and ramp-down load the first and last probes only).
     */
    @Test
    void aRoundGoesFromMixToMixASliceEachUnderALoadThatDoesNotStop() throws Exception {
        List<String> seen = java.util.Collections.synchronizedList(new ArrayList<>());
        server = new TestServer((head, socket, out) -> {
            seen.add(TestServer.path(head));
            Thread.sleep(2);
            TestServer.respond(out, 200, SIZE, SIZE);
            return true;
        });
        List<Mix> order = List.of(Mix.of(Probe.SERVLET), Mix.of(Probe.STATIC), Mix.of(Probe.MODULE));
        LoadEngine.Round round = runner(Map.of()).round(order, 3, 0.2, false);
        assertFalse(round.whole().failed(), round.whole().toString());
        assertEquals(List.of("servlet", "static", "module"), round.slices().stream().map(CpuSlice::probe).toList());
        for (CpuSlice slice : round.slices()) {
            Bound.within(slice.probe() + ": slice length, s", slice.durationS(), 0.98, 1.02, "a 1 s slice timed by the"
                    + " engine's clock; its edge waits for the requests under way (2 ms each): 0.996-1.001 over 10 runs");
            assertEquals(0, slice.errors(), slice.toString());
            assertTrue(slice.requests() > 100, slice.toString());
            assertTrue(Double.isNaN(slice.jitCpuS()), "no JIT read unless asked: " + slice);
        }
        long staticSeen = seen.stream().filter(path -> path.equals(Probe.STATIC.path())).count();
        assertEquals(round.slices().get(1).requests(), staticSeen, 3, "the static file was asked for in its slice only");
        assertEquals(seen.size(), seen.stream().filter(path -> path.equals(Probe.SERVLET.path())
                || path.equals(Probe.STATIC.path()) || path.equals(Probe.MODULE.path())).count());
        int changes = 0;
        for (int i = 1; i < seen.size(); i++) {
            changes += seen.get(i).equals(seen.get(i - 1)) ? 0 : 1;
        }
        assertTrue(changes <= 2 * 3, "the probes follow each other, mixed only at a slice's edge: " + changes + " changes");
        assertEquals(round.slices().stream().mapToLong(CpuSlice::requests).sum(), round.whole().requests());
    }

    /**
     * An open round offers every slice the rate, whatever the server does: each slice counts exactly rate × 1 s
     * requests (those due in it), every one its own probe's, and the round's lead-in and tail load the first and last
     * probes only.
     */
    @Test
    void anOpenRoundOffersEverySliceTheRateAndSendsItsOwnProbe() throws Exception {
        List<String> seen = java.util.Collections.synchronizedList(new ArrayList<>());
        server = new TestServer((head, socket, out) -> {
            seen.add(TestServer.path(head));
            TestServer.respond(out, 200, SIZE, SIZE);
            return true;
        });
        List<Mix> order = List.of(Mix.of(Probe.SERVLET), Mix.of(Probe.STATIC), Mix.of(Probe.MODULE));
        LoadEngine.Round round = runner(Map.of()).openRound(order, 300, 0.2, false);
        assertEquals(null, round.ends());
        assertEquals(List.of("servlet", "static", "module"), round.slices().stream().map(CpuSlice::probe).toList());
        for (CpuSlice slice : round.slices()) {
            assertEquals(300, slice.requests() + slice.errors(), "a slice counts the requests due in it: " + slice);
            assertEquals(0, slice.errors(), slice.toString());
            Bound.within(slice.probe() + ": slice length, s", slice.durationS(), 0.95, 1.05, "edges read on the schedule's"
                    + " own clock, a park's oversleep (0.1 ms) and a reading's time apart: 0.9998-1.0002 in three runs"
                    + " here; 5 % leaves a loaded machine's scheduler its room");
        }
        // lead-in 0.2 s of servlet (60), then 300 each, then the 0.5 s tail of module (150)
        assertEquals(60 + 300, seen.stream().filter(p -> p.equals(Probe.SERVLET.path())).count());
        assertEquals(300, seen.stream().filter(p -> p.equals(Probe.STATIC.path())).count());
        assertEquals(300 + 150, seen.stream().filter(p -> p.equals(Probe.MODULE.path())).count());
    }

    @Test
    void theEngineRecordsItsName() throws Exception {
        server = delayed();
        BenchSettings settings = BenchCommand.settings("--target", server.url(), "--probes", "static");
        assertEquals(EventLoopEngine.EVENT_LOOP, settings.recorded(new RecordedSettings.Machine(2, 100L, "java", "linux"), null,
                "order", "rule").engine());
        assertEquals("event-loop", EventLoopEngine.EVENT_LOOP);
    }

    @Test
    void aMixWithNoSuccessFails() throws Exception {
        server = new TestServer((head, socket, out) -> {
            TestServer.respond(out, 500, 0, 0);
            return true;
        });
        RunRecord r = runner(Map.of()).run(Mix.of(Probe.CGI), 1, 1);
        assertTrue(r.failed());
        assertEquals(Failure.Kind.NO_ANSWER, r.failureKind(), r.reason());
        assertTrue(r.errors().get("status") > 0);
    }

    private TestServer delayed() throws IOException {
        return new TestServer((head, socket, out) -> {
            Thread.sleep(DELAY_MS);
            TestServer.respond(out, 200, SIZE, SIZE);
            return true;
        });
    }

    /** An engine on the test server: 0.3 s ramp-up, a 1.2 s window, 0.1 s ramp-down, unless {@code options} say otherwise. */
    private EventLoopEngine runner(Map<String, String> options) throws IOException {
        Map<String, String> all = new LinkedHashMap<>(Map.of("--target", server.url(), "--ramp-up", "0.3", "--duration",
                "1.2", "--ramp-down", "0.1", "--timeout", "3000", "--bytes", Integer.toString(SIZE), "--clients", "1"));
        all.putAll(options);
        List<String> args = new ArrayList<>();
        all.forEach((option, value) -> {
            args.add(option);
            if (!value.isEmpty()) {
                args.add(value);
            }
        });
        return new EventLoopEngine(BenchCommand.settings(args.toArray(String[]::new)), null, new Stop(),
                new ServerCpu(List.of(), true, List.of(), null));
    }
}
