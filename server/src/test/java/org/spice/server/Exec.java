package org.spice.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A command run to its end, its output and error together: what the deploy tests run around SPICE's own commands
 * (install.sh, the stock servers' own start scripts, ip netns). A command that outlives its time limit is killed
 * with what it started, and says so in its output.
 *
 * @param status its exit status, -1 where it was killed at its time limit
 * @param out    what it printed, output and error in the order written
 */
record Exec(int status, String out) {

    /** The checkout this module sits in. */
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final Path SPICE = ROOT.resolve("scripts/spice");
    static final Path HARNESS_JAR = ROOT.resolve("harness/target/spice-harness.jar");

    static Exec run(String... command) {
        return run(null, Map.of(), 300, List.of(command));
    }

    /** {@code command} in {@code dir} (null: this one), with {@code env} added, killed after {@code limitS} seconds. */
    static Exec run(Path dir, Map<String, String> env, long limitS, List<String> command) {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        if (dir != null) {
            builder.directory(dir.toFile());
        }
        builder.environment().putAll(env);
        try {
            Process process = builder.start();
            process.getOutputStream().close();
            StringBuffer out = new StringBuffer();
            Thread reader = new Thread(() -> {
                try {
                    out.append(new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
                } catch (IOException e) {
                    out.append("(output unreadable: ").append(e.getMessage()).append(')');
                }
            });
            reader.setDaemon(true);
            reader.start();
            boolean ended = process.waitFor(limitS, TimeUnit.SECONDS);
            if (!ended) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            reader.join(10_000);
            return new Exec(ended ? process.exitValue() : -1, out + (ended ? "" : "\n(killed after " + limitS + " s)"));
        } catch (IOException e) {
            return new Exec(-1, String.join(" ", command) + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Exec(-1, String.join(" ", command) + ": interrupted");
        }
    }

    /** A function of scripts/lib/common.sh, which the metrics agent and the tests' stock servers share (stop_pids). */
    static Exec lib(String function, String... args) {
        List<String> command = new ArrayList<>(List.of("bash", "-c", "source \"$0/scripts/lib/common.sh\" && \"$@\"",
                ROOT.toString(), function));
        command.addAll(List.of(args));
        return run(null, Map.of(), 300, command);
    }

    /** {@code scripts/spice} with {@code args}. */
    static Exec spice(String... args) {
        List<String> command = new ArrayList<>(List.of("bash", SPICE.toString()));
        command.addAll(List.of(args));
        return run(null, Map.of(), 600, command);
    }

    /** What {@code metrics-agent start} printed for bench's --server-metrics (its last such line), or "". */
    String serverMetrics() {
        return out.lines().filter(l -> l.startsWith("--server-metrics ")).map(l -> l.substring("--server-metrics ".length()))
                .reduce((a, b) -> b).orElse("");
    }

    /** This, asserted to have ended with status 0; {@code what} names it in the failure. */
    Exec ok(String what) {
        assertEquals(0, status, what + " failed:\n" + out);
        return this;
    }
}
