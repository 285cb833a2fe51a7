package org.spice.servers;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.spice.bench.model.Server;

/**
 * The part of a server's life cycle that is each server's own, in bash (scripts/lib/launch.sh and its servers/*.sh):
 * what it needs installed and how to install it, how its run directory is laid out and how it is started. Run with the
 * server table and the start's options in its environment, so that it starts no JVM; what it says goes to
 * {@code err}, what it answers (its stdout) is read back.
 */
final class Launcher {

    /** launch.sh launch's status where the server is not installed. */
    static final int NOT_INSTALLED = 3;
    /** A launch that did not run to its status (launch.sh could not be run, or the wait was interrupted). */
    static final int FAILED = -1;

    private final Path script;
    private final PrintStream err;
    private Path runDir;

    Launcher(Path root, PrintStream err) {
        this.script = root.resolve("scripts/lib/launch.sh");
        this.err = err;
    }

    /**
     * run/: the checkout's, or where the service user cannot reach the checkout, the folder it links to (common.sh,
     * which may move it there the first time). Asked once: every later call is handed it (SPICE_HARNESS_RUN), so that
     * run/ stays where this harness found it while it runs.
     */
    synchronized Path runDir() throws IOException {
        if (runDir == null) {
            List<String> lines = new ArrayList<>();
            if (run(Options.fromEnvironment(), Map.of(), List.of("run-dir"), lines::add) != 0 || lines.isEmpty()) {
                throw new IOException("scripts/lib/launch.sh run-dir named no run directory");
            }
            runDir = Path.of(lines.get(lines.size() - 1));
        }
        return runDir;
    }

    /** What a start of {@code server} lacks, as the commands that install it; empty where nothing. */
    List<String> missing(Server server, Options options) throws IOException {
        List<String> lines = new ArrayList<>();
        int status = run(options, Map.of(), List.of("installed", server.id()), lines::add);
        return status == 0 ? List.of() : lines.isEmpty() ? List.of("scripts/spice server install " + server.id()) : lines;
    }

    /** Installs what {@code server} needs, what the installer says to {@code out}; its exit status. */
    int install(Server server, PrintStream out) throws IOException {
        return run(Options.fromEnvironment(), Map.of(), List.of("install", server.id()), out::println);
    }

    /**
     * Lays out {@code instance}'s run directory, starts it there (in {@code cgroup}, if any) and waits for its answer;
     * its status (0, {@link #NOT_INSTALLED}, or another for a start that failed), its log files into {@code logs}.
     */
    int launch(Instance instance, Options options, Path cgroup, List<String> logs) throws IOException {
        return run(options, Map.of("SPICE_CGROUP", cgroup == null ? "" : cgroup.toString()), List.of("launch",
                instance.name(), instance.run().toString(), Integer.toString(instance.port())), logs::add);
    }

    private int run(Options options, Map<String, String> extra, List<String> args, Consumer<String> answer) throws IOException {
        List<String> command = new ArrayList<>(List.of("bash", script.toString()));
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.INHERIT);
        Map<String, String> env = builder.environment();
        env.put("SPICE_SERVER_TABLE", ServerTable.text());
        if (runDir != null) {
            env.put("SPICE_HARNESS_RUN", runDir.toString());
        }
        options.into(env);
        env.putAll(extra);
        Process process = builder.start();
        Thread said = new Thread(() -> lines(process.getErrorStream(), err::println), "launch.sh stderr");
        said.setDaemon(true);
        said.start();
        try {
            lines(process.getInputStream(), answer);
            int status = process.waitFor();
            // what a launcher starts writes to its logs, never to this pipe; a bound all the same, not a hang
            said.join(10_000);
            return status;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroy();
            throw new IOException("interrupted while scripts/lib/launch.sh " + String.join(" ", args) + " ran");
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private static void lines(InputStream in, Consumer<String> to) {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                to.accept(line);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
