package org.spice.bench.plan;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.spice.bench.net.TestServer;
import org.spice.cli.Cli;

/**
 * A bench against a test server on 127.0.0.1 with a short timing, no warm-up and no CPU rounds (a test that wants them
 * gives --warm-up or --cpu-time), its output kept for the test to read.
 */
final class ShortBench {

    static final int SIZE = 6250;

    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final ByteArrayOutputStream err = new ByteArrayOutputStream();

    /** bench --target the server, results into {@code dir}; {@code extra} options after the short timing's. */
    int run(TestServer server, Path dir, String... extra) {
        String[] base = {"--target", server.url(), "--ramp-up", "0.2", "--duration", "0.6", "--ramp-down", "0.1",
            "--pause", "0", "--timeout", "2000", "--out", dir.toString(), "--bytes", Integer.toString(SIZE)};
        String[] rounds = List.of(extra).contains("--cpu-time") ? new String[0] : new String[] {"--cpu-time", "0"};
        String[] warmUp = List.of(extra).contains("--warm-up") ? new String[0] : new String[] {"--warm-up", "0"};
        return Cli.run(new BenchCommand(), print(out), print(err), Stream.of(base, rounds, warmUp, extra)
                .flatMap(Stream::of).toArray(String[]::new));
    }

    String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    static PrintStream print(ByteArrayOutputStream bytes) {
        return new PrintStream(bytes, true, StandardCharsets.UTF_8);
    }
}
