package org.spice.bench.engine;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** vegeta (MIT), the independent open-loop tool the tests hold SPICE's against; scripts/spice test installs it. */
public final class Vegeta {

    /** Where scripts/spice test installs it ({@code go install}, pinned). */
    static final Path INSTALLED = Path.of("..", ".cache", "tools", "bin", "vegeta");

    private Vegeta() {
    }

    /** vegeta: $SPICE_VEGETA, else where scripts/spice test installs it, else on the PATH; an AssertionError says how. */
    public static Path find() {
        String env = System.getenv("SPICE_VEGETA");
        if (env != null && Files.isExecutable(Path.of(env))) {
            return Path.of(env);
        }
        if (Files.isExecutable(INSTALLED)) {
            return INSTALLED.toAbsolutePath().normalize();
        }
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "vegeta"))) {
                return Path.of(dir, "vegeta");
            }
        }
        throw new AssertionError("vegeta is not installed: scripts/spice test installs it (Go's go install"
                + " github.com/tsenart/vegeta/v12@v12.13.0 into .cache/tools/bin), or set SPICE_VEGETA");
    }

    /**
     * {@code vegeta attack} at {@code rate} for {@code seconds} against the stub on {@code port}, a connection per
     * request (as SPICE's HTTP/1.0), then {@code vegeta report -type=json}: its latencies in nanoseconds.
     */
    static JsonNode attack(Path vegeta, int port, double rate, double seconds) throws IOException, InterruptedException {
        return attack(vegeta, "http://127.0.0.1:" + port + "/static", rate, seconds, null);
    }

    /**
     * {@code vegeta attack} on {@code url} at {@code rate} for {@code seconds}, a connection per request; its
     * {@code report -type=json}, and where {@code encoded} is given its results there as {@code vegeta encode --to
     * json} writes them (a line a request).
     */
    public static JsonNode attack(Path vegeta, String url, double rate, double seconds, Path encoded)
            throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("spice-vegeta");
        try {
            Path targets = Files.writeString(dir.resolve("targets"), "GET " + url + "\n", StandardCharsets.US_ASCII);
            Path results = dir.resolve("results.bin");
            run(List.of(vegeta.toString(), "attack", "-targets", targets.toString(), "-rate",
                    String.format(Locale.ROOT, "%.0f/1s", rate), "-duration", String.format(Locale.ROOT, "%.0fs", seconds),
                    "-keepalive=false", "-timeout", "10s", "-output", results.toString()), dir.resolve("attack.out"));
            Path report = dir.resolve("report.json");
            run(List.of(vegeta.toString(), "report", "-type=json", "-output", report.toString(), results.toString()),
                    dir.resolve("report.out"));
            if (encoded != null) {
                run(List.of(vegeta.toString(), "encode", "--to", "json", "-output", encoded.toString(),
                        results.toString()), dir.resolve("encode.out"));
            }
            return new ObjectMapper().readTree(report.toFile());
        } finally {
            try (var files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    static void run(List<String> command, Path log) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (p.waitFor() != 0) {
            throw new AssertionError(String.join(" ", command) + " failed: " + Files.readString(log));
        }
    }
}
