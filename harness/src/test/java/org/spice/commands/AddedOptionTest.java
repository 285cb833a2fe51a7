package org.spice.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.net.TestServer;
import org.spice.cli.Cli;
import org.spice.testkit.CommandRun;

import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * docs/code.md's way of adding an option, from a test's own source: one mixin and the record it fills, and results.json
 * records the option's value, with nothing else changed.
 */
@Tag("unit")
class AddedOptionTest {

    /** What the throwaway option sets, as results.json keeps it. */
    record Flavour(String flavour, int scoops) {
    }

    /** The throwaway option: one mixin. */
    static final class FlavourOptions implements BenchCommand.Recorded {
        @Option(names = "--flavour", paramLabel = "NAME", description = "A flavour, recorded.")
        String flavour = "plain";

        @Option(names = "--scoops", paramLabel = "N", description = "How many, recorded.")
        int scoops = 1;

        @Override
        public Record settings() {
            return new Flavour(flavour, scoops);
        }
    }

    @AutoClose
    private TestServer server;

    @Test
    void anOptionAddedAsAMixinIsInResultsJson(@TempDir Path dir) throws Exception {
        server = new TestServer((head, socket, o) -> {
            TestServer.respond(o, 200, ShortBench.SIZE, ShortBench.SIZE);
            return true;
        });
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        PrintStream print = new PrintStream(console, true, StandardCharsets.UTF_8);
        CommandLine bench = Cli.commandLine(new BenchCommand(), print, print);
        bench.addMixin("flavour", new FlavourOptions());
        int status = bench.execute("--target", server.url(), "--no-verify", "--probes", "static", "--clients", "1",
                "--ramp-up", "0.1", "--duration", "0.3", "--ramp-down", "0.1", "--pause", "0", "--warm-up", "0",
                "--cpu-time", "0", "--bytes", Integer.toString(ShortBench.SIZE), "--out", dir.toString(),
                "--flavour", "vanilla", "--scoops", "2");
        assertEquals(0, status, console.toString(StandardCharsets.UTF_8));
        var settings = CommandRun.results(dir).settings().asMap();
        assertEquals("vanilla", settings.get("flavour"), settings.toString());
        assertEquals(2, settings.get("scoops"), settings.toString());
    }
}
