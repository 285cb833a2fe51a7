package org.spice.commands;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.spice.bench.net.TestServer;
import org.spice.cli.Cli;

/**
 * A bench against a test server on 127.0.0.1 with a short timing, no warm-up and no CPU rounds (a test's own options
 * replace those it names), its output kept for the test to read.
 */
public final class ShortBench {

    public static final int SIZE = 6250;

    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final ByteArrayOutputStream err = new ByteArrayOutputStream();

    /** bench --target the server, results into {@code dir}; {@code extra} options after (or instead of) the short timing's. */
    public int run(TestServer server, Path dir, String... extra) {
        Map<String, String> base = new LinkedHashMap<>();
        base.put("--target", server.url());
        base.put("--ramp-up", "0.2");
        base.put("--duration", "0.6");
        base.put("--ramp-down", "0.1");
        base.put("--pause", "0");
        base.put("--timeout", "2000");
        base.put("--out", dir.toString());
        base.put("--bytes", Integer.toString(SIZE));
        base.put("--cpu-time", "0");
        base.put("--warm-up", "0");
        List.of(extra).forEach(base::remove);
        Stream<String> options = base.entrySet().stream().flatMap(e -> Stream.of(e.getKey(), e.getValue()));
        return Cli.run(new BenchCommand(), print(out), print(err), Stream.concat(options, Stream.of(extra))
                .toArray(String[]::new));
    }

    public String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    public String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    static PrintStream print(ByteArrayOutputStream bytes) {
        return new PrintStream(bytes, true, StandardCharsets.UTF_8);
    }
}
