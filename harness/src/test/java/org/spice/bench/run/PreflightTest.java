package org.spice.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.model.BenchSettings;
import org.spice.bench.proc.ServerCpu;
import org.spice.commands.BenchCommand;

/**
 * The run's first phase refuses what the options alone could not check, before anything is written, with the status
 * that says whose fault it is (1: the machine or the server; 2: the options), and otherwise hands the run its settings
 * as recorded and the notes on where the server's CPU is read. A socket of this JVM stands for the server.
 */
@Tag("unit")
class PreflightTest {

    @TempDir
    Path out;

    private final ByteArrayOutputStream said = new ByteArrayOutputStream();
    private final PrintStream err = new PrintStream(said, true, StandardCharsets.UTF_8);

    private BenchSettings settings(int port, String... more) {
        List<String> args = new java.util.ArrayList<>(List.of("--target", "http://127.0.0.1:" + port, "--probes", "static",
                "--warm-up", "5", "--out", out.toString()));
        args.addAll(List.of(more));
        return BenchCommand.settings(args.toArray(String[]::new));
    }

    private static ServerSocket listening() throws IOException {
        return new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    }

    @Test
    void aServerNoOneCanReachEndsTheRunWithStatusOneAndNothingWritten() throws Exception {
        int port;
        try (ServerSocket gone = listening()) {
            port = gone.getLocalPort();
        }
        BenchSettings settings = settings(port);
        Preflight.Refused refused = assertThrows(Preflight.Refused.class, () -> Preflight.check(settings, err));
        assertEquals(1, refused.status());
        assertTrue(refused.getMessage().startsWith("cannot reach http://127.0.0.1:" + port), refused.getMessage());
        try (Stream<Path> written = Files.list(out)) {
            assertEquals(0, written.count(), "nothing written");
        }
    }

    @Test
    void aServerPidThatNamesNoProcessIsTheOptionsFault() throws Exception {
        // a PID with no entry in /proc (nor a thread's, which /proc serves unlisted), from the highest a 64-bit Linux
        // gives (its pid_max at most 2^22) down: none runs by that number
        long none = (1 << 22) - 1;
        while (Files.exists(Path.of("/proc", Long.toString(none)))) {
            none--;
        }
        try (ServerSocket server = listening()) {
            long pid = none;
            BenchSettings settings = settings(server.getLocalPort(), "--server-pid", Long.toString(pid));
            Preflight.Refused refused = assertThrows(Preflight.Refused.class, () -> Preflight.check(settings, err));
            assertEquals(2, refused.status());
            assertEquals("--server-pid: no process " + pid + " on this machine", refused.getMessage());
        }
    }

    @Test
    void aReachableServerIsReadyWithTheSettingsAsRecorded() throws Exception {
        try (ServerSocket server = listening()) {
            Preflight.Ready ready = Preflight.check(settings(server.getLocalPort(), "--server-pid",
                    Long.toString(ProcessHandle.current().pid())), err);
            assertNull(ready.tls(), "no TLS asked");
            assertEquals(List.of(), ready.notes(), "a local server's processes need no note");
            String rule = String.valueOf(ready.recorded().asMap().get("steady_state_rule"));
            assertTrue(rule.startsWith("warm each workload in rounds until ") && rule.contains("at most 5.0 s each"), rule);
            assertEquals(Runtime.getRuntime().availableProcessors(), ready.recorded().clientCpus());
        }
    }

    @Test
    void aServerElsewhereWithoutItsExportersHasNoServerCpuAndTheResultsSaySo() {
        BenchSettings settings = BenchCommand.settings("--target", "http://192.0.2.7:8080", "--probes", "static", "--out",
                out.toString());
        List<String> notes = Preflight.cpuNotes(settings, new ServerCpu(List.of(), false, List.of(), null));
        assertEquals(1, notes.size(), notes.toString());
        assertTrue(notes.get(0).startsWith("The server is not on this machine (http://192.0.2.7:8080)")
                && notes.get(0).contains("pass --server-metrics"), notes.get(0));
    }
}
