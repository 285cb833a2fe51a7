package org.spice.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.figures.SpiceFigures;
import org.spice.bench.model.Results;
import org.spice.bench.model.ResultsJson;
import org.spice.bench.model.RunRecord;
import org.spice.bench.plan.BenchCommand;
import org.spice.cli.Cli;

/**
 * The A/A check: the embedded server, started as a process of its own (so its CPU is apart from the client's), has
 * its static file measured twice in one run under two names; the verdict calls them the same (their 95 % intervals
 * overlap), and every figure carries its slices and its interval.
 */
class AaCheckTest {

    @TempDir
    Path dir;

    private Process server;

    @AfterEach
    void stop() throws InterruptedException {
        if (server != null) {
            server.destroy();
            if (!server.waitFor(30, TimeUnit.SECONDS)) {
                server.destroyForcibly();
            }
        }
    }

    @Test
    void theSameProbeMeasuredTwiceIsCalledTheSame() throws Exception {
        int port = freePort();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        server = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), EmbeddedTomcat.class.getName(),
                "--host", "127.0.0.1", "--port", Integer.toString(port), "--war", StartedEmbeddedTomcat.WAR.toString(),
                "--base", dir.resolve("tomcat").toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("server.log").toFile()).start();
        awaitListening(port);
        Path again = dir.resolve("static-again.mix");
        Files.writeString(again, "1 /spice/static/spice.html\n");
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        PrintStream print = new PrintStream(console, true, StandardCharsets.UTF_8);
        int status = Cli.run(new BenchCommand(), print, print, "--target", "http://127.0.0.1:" + port, "--server-pid",
                Long.toString(server.pid()), "--probes", "static", "--mix", again.toString(), "--clients", "8",
                "--ramp-up", "0.5", "--duration", "3", "--ramp-down", "0.2", "--pause", "0", "--warm-up", "15",
                "--out", dir.resolve("results").toString());
        String printed = console.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, printed);
        Results results;
        try (Stream<Path> files = Files.walk(dir.resolve("results"))) {
            results = ResultsJson.read(files.filter(p -> p.getFileName().toString().equals(ResultsJson.FILE))
                    .findFirst().orElseThrow());
        }
        for (RunRecord run : results.runs()) {
            assertEquals(3, run.slices().size(), run.probe() + ": a 3 s window is three slices");
            assertEquals(run.requests(), run.slices().stream().mapToLong(s -> s.requests()).sum(), "the slices add up");
            assertTrue(run.serverCpuUsPerReqCi() > 0, run.probe() + " has an interval: " + run.slices());
        }
        assertEquals(2, results.steadyState().size(), "both workloads warmed: " + results.steadyState());
        assertTrue(results.idle() != null && results.idle().serverCpuCores() >= 0, "idle CPU measured: " + results.idle());
        SpiceFigures.Summary aa = results.summary().get(1);
        assertEquals("static-again", aa.probe());
        assertTrue(aa.cpuIntervalsKnown() && !aa.cpuDistinguishableFromStatic(), "A/A: " + aa.cpuUsPerReqAtPeak() + " ± "
                + aa.noise().cpuUsPerReqAtPeakCi() + " µs against static's " + aa.noise().staticCpuUsPerReq() + " ± "
                + aa.noise().staticCpuUsPerReqCi() + "\n" + printed);
        assertTrue(printed.contains("static-again costs what the static file costs here"), printed);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private void awaitListening(int port) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            assertTrue(server.isAlive(), "the server ended: " + Files.readString(dir.resolve("server.log")));
            try (Socket socket = new Socket("127.0.0.1", port)) {
                return;
            } catch (IOException e) {
                Thread.sleep(200);
            }
        }
        throw new AssertionError("the server did not listen on " + port + ": " + Files.readString(dir.resolve("server.log")));
    }
}
