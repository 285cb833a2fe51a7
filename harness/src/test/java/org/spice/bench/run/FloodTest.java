package org.spice.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.model.BenchSettings;
import org.spice.bench.model.Overload;
import org.spice.bench.model.Stop;
import org.spice.bench.net.TestServer;
import org.spice.bench.proc.ServerCpu;
import org.spice.commands.BenchCommand;
import org.spice.page.CanonicalPage;

/**
 * The flood phase against {@link FakeEngine}, whose server turns requests away past 8 clients: three checks before it,
 * then the workload at its peak's clients and at each multiple, then checks until it is back; its retention is each
 * step's rate over the 1 × step's, and it recovers at the first check, with the page exact (a socket of this JVM serves
 * it for the checks' GET; the engine sends nothing to it).
 */
@Tag("unit")
class FloodTest {

    @TempDir
    Path dir;

    @Test
    void eachWorkloadPastItsPeakThenWatchedUntilItIsBack() throws Exception {
        java.util.concurrent.atomic.AtomicInteger gets = new java.util.concurrent.atomic.AtomicInteger();
        try (TestServer server = new TestServer((head, socket, o) -> {
            gets.incrementAndGet();
            page(o, head.startsWith("HEAD"));
            return false;
        })) {
            BenchSettings settings = BenchCommand.settings("--target", server.url(), "--server", "test server", "--probes",
                    "static", "--clients", "2", "--duration", "1", "--pause", "0", "--warm-up", "0", "--cpu-time", "0", "--profile", "overload",
                    "--peak-clients", "4", "--multiples", "4,16", "--flood-timing", "0,1,0,0", "--out", dir.toString());
            FakeEngine engine = new FakeEngine(Map.of("static", 1.0), Map.of(), Map.of("static", 9_000.0));
            engine.floodLimit = 8;
            ByteArrayOutputStream said = new ByteArrayOutputStream();
            PrintStream err = new PrintStream(said, true, StandardCharsets.UTF_8);
            Preflight.Ready ready = new Preflight.Ready(null, new ServerCpu(List.of(), true, List.of(), null),
                    settings.recorded(Preflight.machine(), null, Ladder.ORDER, "test"), List.of());
            Recorder recorder = Recorder.open(settings, ready, err);
            Flood flood = new Flood(settings, engine, new Stop(), err, recorder);
            assertNull(flood.run(), said.toString());

            assertEquals(List.of("slice static", "slice static", "slice static", "flood static 4", "flood static 16",
                    "flood static 64", "slice static"), engine.calls, "three checks, the steps, then the check that"
                    + " found it back");
            Overload o = flood.done().get(0);
            assertEquals(List.of(1, 4, 16), o.steps().stream().map(Overload.Step::multiple).toList());
            assertEquals(List.of(4, 16, 64), o.steps().stream().map(Overload.Step::clients).toList());
            assertEquals(3, o.watch().baseline().size());
            assertTrue(o.steps().stream().allMatch(s -> s.readings() != null), "every step keeps its readings");
            assertEquals(0.5, o.retention().get("4"), 1e-9, "past 8 clients the model's rate falls as 8 / clients: 16");
            assertEquals(0.125, o.retention().get("16"), 1e-9, "and 64 clients: " + o.retention());
            assertFalse(Double.isNaN(o.recoveredAfterS()), "back at the first check: " + o.watch());
            assertNotNull(o.watch().checks().get(0).readings());
            assertNull(o.watch().checks().get(0).notExact(), "the page exact after the flood");
            assertEquals(4, gets.get(), "a GET a check, the three before the flood and the one after it");
            assertTrue(said.toString().contains("overload: static, peak 4"), said.toString());
        }
    }

    /** The canonical page of this build's size, as a server answers it over HTTP/1.0. */
    private static void page(OutputStream o, boolean head) throws java.io.IOException {
        byte[] body = CanonicalPage.of(CanonicalPage.builtBytes()).render(CanonicalPage.FIXED_SLOT)
                .getBytes(StandardCharsets.US_ASCII);
        o.write(("HTTP/1.0 200 OK\r\nContent-Type: " + CanonicalPage.CONTENT_TYPE + "\r\nContent-Length: " + body.length
                + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        if (!head) {
            o.write(body);
        }
        o.flush();
    }
}
