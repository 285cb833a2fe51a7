package org.spice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.spice.harness.Main;
import org.spice.testkit.CommandRun;

/**
 * The entry point answers as a new user expects: every shell command answers --help (exit 0), an unknown
 * command is one line and a hint (exit 2), and --version prints the version, in the shell and in Java alike.
 * The shell is run for real (bash scripts/spice); these paths need no build.
 */
class ShellHelpTest {

    private static final Path SPICE = Path.of("..", "scripts", "spice").toAbsolutePath().normalize();

    private record Ran(int status, String out, String err) {
    }

    private static Ran shell(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("bash", SPICE.toString()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).start();
        byte[] out = process.getInputStream().readAllBytes();
        byte[] err = process.getErrorStream().readAllBytes();
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), "scripts/spice ended");
        return new Ran(process.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
    }

    @Test
    void everyShellCommandAnswersHelp() throws Exception {
        for (String command : List.of("serve", "server", "metrics-agent", "jmeter-server", "build", "test", "test-bundles")) {
            for (String asked : List.of("--help", "-h")) {
                Ran ran = shell(command, asked);
                assertEquals(0, ran.status(), command + " " + asked + ": " + ran.err());
                // server --help lists the servers once the harness is built: "usage: scripts/spice server ...".
                assertTrue(ran.out().startsWith("usage: scripts/spice\n  " + command + " ")
                        || ran.out().startsWith("usage: scripts/spice " + command + " "), command + ": " + ran.out());
            }
            Ran help = shell("help", command);
            assertEquals(0, help.status(), "help " + command + ": " + help.err());
            assertTrue(help.out().contains("  " + command + " "), "help " + command + ": " + help.out());
        }
    }

    @Test
    void anUnknownCommandIsOneLineAndAHint() throws Exception {
        Ran ran = shell("frobnicate");
        assertEquals(2, ran.status());
        assertEquals("", ran.out());
        assertEquals("spice: unknown command \"frobnicate\" (scripts/spice help lists the commands)\n", ran.err());
    }

    @Test
    void aServersListenAddressIsCheckedBeforeAnythingStarts() throws Exception {
        Ran bad = shell("server", "start", "embedded", "--listen", "300.1.2.3");
        assertEquals(2, bad.status(), bad.err());
        assertEquals("", bad.out());
        assertTrue(bad.err().contains("server: --listen takes an IPv4 address of this machine (127.0.0.1 by default;"
                + " 0.0.0.0 for every one), not \"300.1.2.3\""), bad.err());
        Ran elsewhere = shell("server", "start", "embedded", "--listen", "192.0.2.77");
        assertEquals(2, elsewhere.status(), elsewhere.err());
        assertTrue(elsewhere.err().contains("--listen 192.0.2.77: no interface of this machine has that address"),
                "TEST-NET-1, on no interface here: " + elsewhere.err());
        Ran stop = shell("server", "stop", "embedded", "--listen", "127.0.0.2");
        assertEquals(2, stop.status(), stop.err());
        assertTrue(stop.err().contains("server: --listen goes with start"), stop.err());
    }

    @Test
    void versionIsPrintedByEveryCommand() {
        for (String[] args : List.of(new String[] {"--version"}, new String[] {"bench", "--version"},
                new String[] {"verify", "--version"}, new String[] {"import", "--version"})) {
            CommandRun ran = CommandRun.of(new Main(), args);
            int status = ran.status();
            String printed = ran.console();
            assertEquals(0, status, String.join(" ", args) + ": " + printed);
            assertTrue(printed.startsWith("SPICE ") && printed.contains(", Java "), String.join(" ", args) + ": " + printed);
        }
    }
}
