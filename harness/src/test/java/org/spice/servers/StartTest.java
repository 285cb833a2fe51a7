package org.spice.servers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.model.Server;

/**
 * A launcher's program started in the background: its PID recorded is the program's, it writes to its log, it runs in a
 * session of its own, and it is not this JVM's child (a JVM that ends with a child running waits for it 0.3 s); a
 * program run to its end gives its status. Real processes (sh, sleep), as the user running the test.
 */
@Tag("process")
class StartTest {

    @TempDir
    Path run;

    @Test
    void aBackgroundProgramIsItselfInItsOwnSessionAndNotThisJvmsChild() throws Exception {
        Site site = new Site(Path.of("..").toAbsolutePath().normalize(), run, new ServiceUser("nobody", false, false),
                new PrintStream(new ByteArrayOutputStream()));
        Start start = new Start(site, Instance.of(run, Server.EMBEDDED, 18080), Options.fromEnvironment(), null);
        Path log = run.resolve("logs/sleep.log");
        long pid = start.program("sh", "-c", "echo started; exec sleep 30").ownSession().log(log)
                .background(run.resolve("sleep.pid"));
        try {
            assertEquals(pid + "\n", Files.readString(run.resolve("sleep.pid")));
            assertTrue(Processes.await(5, () -> Processes.commandLine(pid).startsWith("sleep 30")),
                    "the PID is the program's: " + Processes.commandLine(pid));
            assertTrue(Processes.await(5, () -> read(log).equals("started\n")),
                    "its output in its log");
            ProcessHandle handle = ProcessHandle.of(pid).orElseThrow();
            assertNotEquals(ProcessHandle.current().pid(), handle.parent().map(ProcessHandle::pid).orElse(-1L),
                    "not this JVM's child");
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            assertEquals(Long.toString(pid), fields[3], "the leader of a session of its own (setsid)");
        } finally {
            Processes.signal(pid, true);
        }
        assertEquals(3, start.program("sh", "-c", "exit 3").toEnd(), "a program run to its end gives its status");
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (java.io.IOException e) {
            return "";
        }
    }
}
