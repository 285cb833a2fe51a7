package org.spice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.spice.harness.Main;
import org.spice.testkit.CommandRun;

/**
 * The entry point answers as a new user expects: every shell command's help is the harness's, as every command's
 * (exit 0); its options are checked before anything starts; an unknown command is one line and a hint (exit 2), and
 * --version prints the version. The shell is run for real (bash scripts/spice) where it needs no build.
 */
@Tag("process")
class ShellHelpTest {

    private static final Path SPICE = Path.of("..", "scripts", "spice").toAbsolutePath().normalize();
    private static final List<String> SHELL_COMMANDS = List.of("serve", "server", "bundle", "metrics-agent",
            "jmeter-server", "build", "test", "test-bundles");

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
    void everyShellCommandAnswersHelp() {
        String all = CommandRun.of(new Main(), "--help").out();
        for (String command : SHELL_COMMANDS) {
            for (String asked : List.of("--help", "-h")) {
                CommandRun ran = CommandRun.of(new Main(), command, asked);
                assertEquals(0, ran.status(), command + " " + asked + ": " + ran);
                assertTrue(ran.out().startsWith("Usage: spice " + command + " "), command + ": " + ran.out());
            }
            assertTrue(all.contains("\n  " + command + " "), "spice --help lists " + command + ": " + all);
        }
        assertTrue(CommandRun.of(new Main(), "server", "--help").out().replaceAll("\\s+", " ").contains("apache-prefork (apache --mpm=prefork)"),
                "server's help names the servers and the variants, from the server table");
    }

    @Test
    void aShellCommandRunOutsideTheScriptSaysSo() {
        CommandRun ran = CommandRun.of(new Main(), "bundle", "apache");
        assertEquals(2, ran.status());
        assertTrue(ran.err().contains("bundle: is scripts/spice's own command: run scripts/spice bundle apache"), ran.err());
    }

    @Test
    void anUnknownCommandIsOneLineAndAHint() throws Exception {
        Ran ran = shell("frobnicate");
        assertEquals(2, ran.status());
        assertEquals("", ran.out());
        assertEquals("spice: unknown command \"frobnicate\" (scripts/spice help lists the commands)\n", ran.err());
    }

    @Test
    void aServersListenAddressIsCheckedBeforeAnythingStarts() {
        CommandRun bad = CommandRun.of(new Main(), "server", "start", "embedded", "--listen", "300.1.2.3");
        assertEquals(2, bad.status(), bad.toString());
        assertEquals("", bad.out());
        assertTrue(bad.err().contains("server: --listen takes an IPv4 address of this machine (127.0.0.1 by default;"
                + " 0.0.0.0 for every one), not \"300.1.2.3\""), bad.err());
        CommandRun elsewhere = CommandRun.of(new Main(), "server", "start", "embedded", "--listen", "192.0.2.77");
        assertEquals(2, elsewhere.status(), elsewhere.toString());
        assertTrue(elsewhere.err().contains("--listen 192.0.2.77: no interface of this machine has that address"),
                "TEST-NET-1, on no interface here: " + elsewhere.err());
        CommandRun stop = CommandRun.of(new Main(), "server", "stop", "embedded", "--listen", "127.0.0.2");
        assertEquals(2, stop.status(), stop.toString());
        assertTrue(stop.err().contains("server: --listen goes with start"), stop.err());
        CommandRun two = CommandRun.of(new Main(), "server", "install", "tomcat", "jetty");
        assertEquals(2, two.status(), two.toString());
        assertTrue(two.err().contains("Unmatched argument at index 3: 'jetty'"), two.err());
    }

    @Test
    void versionIsPrintedByEveryCommand() {
        for (String[] args : List.of(new String[] {"--version"}, new String[] {"bench", "--version"},
                new String[] {"verify", "--version"}, new String[] {"import", "--version"}, new String[] {"server", "--version"})) {
            CommandRun ran = CommandRun.of(new Main(), args);
            int status = ran.status();
            String printed = ran.console();
            assertEquals(0, status, String.join(" ", args) + ": " + printed);
            assertTrue(printed.startsWith("SPICE ") && printed.contains(", Java "), String.join(" ", args) + ": " + printed);
        }
    }
}
