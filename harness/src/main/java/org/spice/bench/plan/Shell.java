package org.spice.bench.plan;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.spice.bench.model.Server;

/**
 * What the plan asks of {@code scripts/spice}: start, stop and list the processes of a server (the shell
 * installs and runs servers; the plan decides which, when, on which port). What the shell prints goes to
 * stderr, so that stdout carries results only; the one answer read back (the PIDs) is one documented line.
 */
public final class Shell {

    /**
     * The script's own command lines, parsed in this JVM: the variables {@code scripts/spice} evaluates for them, or
     * null for the script to parse them itself ({@code org.spice.commands.shell.ShellArgs}).
     */
    @FunctionalInterface
    public interface Parser {
        String assignments(List<String> args);
    }

    private final Path script;
    private final Parser parser;
    private final PrintStream err;

    public Shell(Path root, PrintStream err) {
        this(root, args -> null, err);
    }

    /** A shell whose server commands come parsed by {@code parser}: the script starts no JVM of its own to parse them. */
    public Shell(Path root, Parser parser, PrintStream err) {
        this.script = root.resolve("scripts/spice");
        this.parser = parser;
        this.err = err;
    }

    public void start(Server server, int port) throws IOException {
        if (run(List.of("server", "start", server.id(), "--port", Integer.toString(port)), null) != 0) {
            throw new IOException(server.id() + " did not start on port " + port + " (see above)");
        }
    }

    public void stop(Server server, int port) {
        try {
            run(List.of("server", "stop", server.id(), "--port", Integer.toString(port)), null);
        } catch (IOException e) {
            err.println("spice bench: could not stop " + server.id() + " on port " + port + ": " + e.getMessage());
        }
    }

    /** The PIDs of everything the instance is made of: {@code scripts/spice server pids} prints them comma-separated. */
    public List<Long> pids(Server server, int port) throws IOException {
        List<String> lines = new ArrayList<>();
        if (run(List.of("server", "pids", server.id(), "--port", Integer.toString(port)), lines) != 0 || lines.isEmpty()) {
            throw new IOException("no PIDs for " + server.id() + " on port " + port);
        }
        List<Long> pids = new ArrayList<>();
        try {
            for (String pid : lines.get(lines.size() - 1).split(",")) {
                pids.add(Long.parseLong(pid.trim()));
            }
        } catch (NumberFormatException e) {
            throw new IOException("scripts/spice server pids printed \"" + lines.get(lines.size() - 1) + "\", not PIDs");
        }
        return pids;
    }

    /** The cgroup the started server runs in (its CPU is the server's), or null where none could be made. */
    Path cgroup(Server server, int port) throws IOException {
        List<String> lines = new ArrayList<>();
        if (run(List.of("server", "cgroup", server.id(), "--port", Integer.toString(port)), lines) != 0) {
            throw new IOException("scripts/spice server cgroup " + server.id() + " failed");
        }
        String last = lines.isEmpty() ? "" : lines.get(lines.size() - 1).strip();
        return last.startsWith("/") ? Path.of(last) : null;
    }

    /** The CGI cost split for results directories: the shell builds the C programs it needs, then runs the harness. */
    int cgiFloor(List<Path> dirs) throws IOException {
        List<String> args = new ArrayList<>(List.of("cgi-floor"));
        dirs.forEach(d -> args.add(d.toString()));
        ProcessBuilder builder = new ProcessBuilder(command(args)).inheritIO();
        return HarnessProcess.waitFor(builder.start());
    }

    /** Runs ROOT/scripts/spice ARGS (ROOT: this checkout or a copy of it), its output to {@code err}; its exit status. */
    public static int runScript(Path root, List<String> args, PrintStream err) throws IOException {
        return new Shell(root, err).run(args, null);
    }

    /** Runs ROOT/scripts/spice ARGS, its stdout's lines into {@code captured} (its stderr to ours); its exit status. */
    public static int runScript(Path root, List<String> args, List<String> captured) throws IOException {
        return new Shell(root, System.err).run(args, captured);
    }

    /** Runs scripts/spice ARGS; its output goes to stderr, or into {@code captured} (stderr still to ours). */
    private int run(List<String> args, List<String> captured) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command(args)).redirectInput(ProcessBuilder.Redirect.INHERIT);
        String parsed = parser.assignments(args);
        if (parsed != null) {
            // scripts/spice compares the arguments with its own ("$*") before it takes the assignments for them
            builder.environment().put("SPICE_PARSED", parsed);
            builder.environment().put("SPICE_PARSED_ARGS", String.join(" ", args));
        }
        if (captured == null) {
            builder.redirectErrorStream(true);
        } else {
            builder.redirectError(ProcessBuilder.Redirect.INHERIT);
        }
        Process process = builder.start();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (captured != null) {
                    captured.add(line);
                } else {
                    err.println(line);
                }
            }
        }
        return HarnessProcess.waitFor(process);
    }

    private List<String> command(List<String> args) {
        List<String> command = new ArrayList<>(List.of("bash", script.toString()));
        command.addAll(args);
        return command;
    }
}
