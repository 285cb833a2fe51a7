package org.spice.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.model.ResultsJson;
import org.spice.bench.net.TestServer;
import org.spice.bench.run.Ladder;
import org.spice.cli.Cli;
import org.spice.testkit.Bound;
import org.spice.testkit.CommandRun;
import org.spice.testkit.Text;

/** The bench command end to end on a short ladder: results on disk, and the faults that must stop it. */
@Tag("load")
class BenchCommandTest {

    private static final int SIZE = ShortBench.SIZE;
    /** The request after which a test server stops accepting connections. */
    private static final long CRASH_AFTER = 400;

    @AutoClose
    private TestServer server;
    private final ShortBench bench = new ShortBench();
    private final ByteArrayOutputStream out = bench.out;
    private final ByteArrayOutputStream err = bench.err;

    @Test
    void shortLadderWritesResultsAndReport(@TempDir Path dir) throws Exception {
        server = new TestServer((head, socket, o) -> {
            TestServer.respond(o, 200, SIZE, SIZE);
            return true;
        });
        int status = bench(dir, "--probes", "static,servlet", "--clients", "1,2", "--server", "test server");
        assertEquals(0, status, text(out) + text(err));
        assertTrue(text(err).contains("[4/4] servlet 2 clients"), text(err));
        Path results = CommandRun.resultsDir(dir);
        Map<?, ?> json = ResultsJson.MAPPER.readValue(results.resolve("results.json").toFile(), Map.class);
        assertEquals(Boolean.FALSE, json.get("partial"));
        assertEquals("test server", json.get("server"));
        assertEquals(4, ((List<?>) json.get("runs")).size());
        assertEquals(2, ((List<?>) json.get("summary")).size());
        Map<?, ?> run = (Map<?, ?>) ((List<?>) json.get("runs")).get(3);
        assertEquals(6250.0, ((Number) run.get("bytes_per_response")).doubleValue());
        assertEquals(0, ((Number) run.get("errors")).intValue());
        assertTrue(Files.exists(results.resolve("report.html")));
        assertTrue(Text.unwrapped(text(out)).contains("SPICE summary"), text(out));
    }

    /**
     * results.json says each mix's ramp-up: the first mix at a client count above every count the server had run (the
     * warm-up's and the rounds' 1 here) had the longer one, the others the one asked for.
     */
    @Test
    void eachRunRecordsItsRampUpTheFirstAtANewLoadTheLongerOne(@TempDir Path dir) throws Exception {
        server = new TestServer((head, socket, o) -> {
            TestServer.respond(o, 200, SIZE, SIZE);
            return true;
        });
        int status = bench(dir, "--probes", "static,servlet", "--clients", "1,2", "--warm-up", "1", "--cpu-time", "2",
                "--cpu-clients", "1");
        assertEquals(0, status, text(out) + text(err));
        List<?> runs = (List<?>) ResultsJson.MAPPER.readValue(CommandRun.resultsDir(dir).resolve("results.json").toFile(), Map.class)
                .get("runs");
        List<String> rampUps = runs.stream().map(r -> (Map<?, ?>) r).map(r -> r.get("probe") + "@" + r.get("clients") + " "
                + r.get("ramp_up_s")).toList();
        assertEquals(List.of("static@1 0.2", "servlet@1 0.2", "static@2 " + Ladder.NEW_LOAD_RAMP_UP_S, "servlet@2 0.2"),
                rampUps);
    }

    @Test
    void aServerThatFailsVerifyIsNotMeasured(@TempDir Path dir) throws IOException {
        server = new TestServer((head, socket, o) -> {
            TestServer.respond(o, 200, SIZE, SIZE);   // the right size, not the page
            return true;
        });
        int status = Cli.run(new BenchCommand(), ShortBench.print(out), ShortBench.print(err), "--target", server.url(), "--probes", "static",
                "--clients", "1", "--duration", "0.2", "--out", dir.toString(), "--bytes", Integer.toString(SIZE));
        assertEquals(1, status);
        assertTrue(text(err).contains("does not pass verify"), text(err));
        assertTrue(text(out).isEmpty(), text(out));
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(0, files.count(), "nothing measured, nothing written");
        }
    }

    @Test
    void badOptionsAreNamedBeforeTheServerIsAsked(@TempDir Path dir) {
        int status = Cli.run(new BenchCommand(), ShortBench.print(out), ShortBench.print(err), "--target", "http://127.0.0.1:1", "--clients",
                "abc", "--out", dir.toString());
        assertEquals(2, status);
        assertTrue(text(err).startsWith("bench: Invalid value for option '--clients' (LIST): \"abc\" is not a client count"),
                text(err));
        assertTrue(text(out).isEmpty(), text(out));
    }

    @Test
    void sigtermEndsTheRunWithItsResultsMarkedPartial(@TempDir Path dir) throws Exception {
        Path log = Files.createTempFile("spice-bench", ".log");
        server = new TestServer((head, socket, o) -> {
            TestServer.respond(o, 200, SIZE, SIZE);
            return true;
        });
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process bench = new ProcessBuilder(javaBin, "-cp", System.getProperty("java.class.path"),
                "org.spice.harness.Main", "bench", "--target", server.url(), "--no-verify", "--probes", "static", "--clients", "1,2",
                "--duration", "60", "--warm-up", "0", "--ramp-up", "0", "--out", dir.toString(), "--bytes",
                Integer.toString(SIZE)).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (server.connections() < 10 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            bench.destroy();   // SIGTERM
            assertTrue(bench.waitFor(30, java.util.concurrent.TimeUnit.SECONDS), "bench ends after SIGTERM");
        } finally {
            bench.destroyForcibly();
        }
        String printed = Files.readString(log);
        assertEquals(143, bench.exitValue(), printed);
        Map<?, ?> json = ResultsJson.MAPPER.readValue(CommandRun.resultsDir(dir).resolve("results.json").toFile(), Map.class);
        assertEquals(Boolean.TRUE, json.get("partial"), printed);
        assertEquals("stopped by SIGTERM", json.get("partial_reason"), printed);
        Files.delete(log);
    }

    @Test
    void unreachableServerStopsBeforeTheLadder(@TempDir Path dir) throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        int status = Cli.run(new BenchCommand(), ShortBench.print(out), ShortBench.print(err), "--target", "http://127.0.0.1:" + port,
                "--no-verify", "--out", dir.toString());
        assertEquals(1, status);
        assertTrue(text(err).startsWith("spice bench: cannot reach http://127.0.0.1:" + port), text(err));
        assertTrue(text(out).isEmpty(), "stdout carries results only: " + text(out));
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(0, files.count());
        }
    }

    @Test
    void serverDyingMidRunFailsTheMixAndKeepsWhatWasMeasured(@TempDir Path dir) throws Exception {
        AtomicLong served = new AtomicLong();
        server = new TestServer((head, socket, o) -> {
            Thread.sleep(2);
            TestServer.respond(o, 200, SIZE, SIZE);
            if (served.incrementAndGet() == CRASH_AFTER) {
                // the server stops accepting inside the first window (its 0.2 s ramp-up holds at most 100 of these
                // 2 ms requests), by a count, not a clock: however slow the machine, the 10 s window is still open
                server.close();
            }
            return true;
        });
        int status = bench(dir, "--probes", "static,cgi", "--clients", "1,2", "--duration", "10");
        assertEquals(1, status, text(out) + text(err));
        Map<?, ?> json = ResultsJson.MAPPER.readValue(CommandRun.resultsDir(dir).resolve("results.json").toFile(), Map.class);
        assertEquals(Boolean.TRUE, json.get("partial"));
        List<?> runs = (List<?>) json.get("runs");
        assertEquals(1, runs.size(), json.toString());
        Map<?, ?> run = (Map<?, ?>) runs.get(0);
        assertEquals(Boolean.TRUE, run.get("failed"));
        assertTrue(String.valueOf(run.get("reason")).matches(".*(stopped answering|it has stopped).*"),
                String.valueOf(run.get("reason")));
        assertTrue(((Number) run.get("requests")).longValue() > 0);
        assertTrue(((Number) ((Map<?, ?>) run.get("errors_by_class")).get("connect_refused")).longValue() > 0,
                run.toString());
        // the rate is over the time the server answered, not the nominal window: what it answered, at most
        double duration = ((Number) run.get("duration_s")).doubleValue();
        assertTrue(((Number) run.get("requests")).longValue() < CRASH_AFTER, run.toString());
        Bound.within("the crashed run's duration_s", duration, 0, 10, "400 requests of 2 ms at one client end"
                + " inside the window (about 1 s here); the nominal 10 s window would mean the time after the crash"
                + " was counted");
        assertTrue(Text.unwrapped(text(out)).contains("PARTIAL RESULTS"), text(out));
    }

    private int bench(Path dir, String... extra) {
        return bench.run(server, dir, Stream.concat(Stream.of("--no-verify"), Stream.of(extra)).toArray(String[]::new));
    }


    private static String text(ByteArrayOutputStream bytes) {
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
