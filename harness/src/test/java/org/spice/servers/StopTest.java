package org.spice.servers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.model.Server;

/**
 * A stop by PID file ends what a launcher started in its own session, as the servers are started (setsid): the
 * process its PID file names, and the workers of its process group, which a daemon such as httpd leaves behind; it
 * removes the PID files, and an instance with none left is not running.
 */
@Tag("process")
class StopTest {

    @TempDir
    Path runRoot;

    @Test
    void aStopEndsTheRecordedProcessAndItsGroup() throws Exception {
        Path run = Files.createDirectories(runRoot.resolve("embedded-18999"));
        // a leader that starts a worker, as a daemon does, then exits itself only on SIGTERM; the worker ignores it
        Process leader = new ProcessBuilder("setsid", "bash", "-c", "echo $$ > '" + run + "/server.pid'; trap '' TERM;"
                + " sleep 600 & echo $! > '" + run + "/worker'; trap 'exit 0' TERM; while :; do sleep 0.1; done").start();
        assertTrue(Processes.await(10, () -> Files.exists(run.resolve("worker"))), "the worker started");
        long bash = Long.parseLong(Files.readString(run.resolve("server.pid")).strip());
        long worker = Long.parseLong(Files.readString(run.resolve("worker")).strip());
        ByteArrayOutputStream said = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(said, true, StandardCharsets.UTF_8);
        Servers servers = new Servers(Path.of(".."), out, out);
        servers.stopPids(new Instance(Server.EMBEDDED, 18999, run));
        assertFalse(Processes.running(bash), "the recorded process ended");
        assertTrue(Processes.await(5, () -> !Processes.running(worker)), "its group's worker ended too");
        assertFalse(Files.exists(run.resolve("server.pid")), "its PID file removed");
        assertEquals(List.of(), new Instance(Server.EMBEDDED, 18999, run).pidFiles());
        leader.waitFor(10, TimeUnit.SECONDS);
    }
}
