package org.spice.bench.plan;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A harness command (bench, at a page size or for a lesson's question) or a build in a process of its own, with no shell
 * between: the JVM this one runs on with the jar it runs from ({@code scripts/spice} starts lesson and sweep from a
 * copy a rebuild leaves alone), or another tree's jar, and {@code spice.root} naming the tree; Maven for a build. A
 * sweep's size runs its copy's jar itself, not a copy of it: only that sweep builds that copy, before its bench (two
 * sweeps of one checkout at once would share the copies, and their sources too).
 */
public final class HarnessProcess {

    private HarnessProcess() {
    }

    /** {@code java -Dspice.root=ROOT -jar JAR ARGS}: {@code jar} null for the jar this harness runs from. */
    public static List<String> command(Path root, Path jar, List<String> args) {
        List<String> command = new ArrayList<>(List.of(java(), "-Dspice.root=" + root.toAbsolutePath(), "-jar",
                (jar != null ? jar : ownJar(root)).toAbsolutePath().toString()));
        command.addAll(args);
        return command;
    }

    /** The tree's own harness jar, as its build writes it. */
    public static Path jarOf(Path root) {
        return root.resolve("harness/target/spice-harness.jar");
    }

    /** Builds {@code root} with Maven ({@code mvn -B package -DskipTests} and {@code options}), its output to ours. */
    public static int build(Path root, List<String> options, PrintStream err) throws IOException {
        List<String> command = new ArrayList<>(List.of("mvn", "-B", "package", "-DskipTests"));
        command.addAll(options);
        return run(new ProcessBuilder(command).directory(root.toFile()), err);
    }

    /** Runs {@code builder}'s command, its output and errors to {@code err}; its exit status. */
    public static int run(ProcessBuilder builder, PrintStream err) throws IOException {
        Process process = builder.redirectErrorStream(true).start();
        process.getInputStream().transferTo(err);
        return waitFor(process);
    }

    /** The exit status of {@code process}; interrupted, it is ended and the wait fails. */
    static int waitFor(Process process) throws IOException {
        try {
            return process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroy();
            throw new IOException("interrupted");
        }
    }

    /** The java this JVM runs on (the same JDK for the child). */
    static String java() {
        return ProcessHandle.current().info().command().orElse("java");
    }

    /** The jar this harness runs from; run from classes (a test), the checkout's built jar. */
    static Path ownJar(Path root) {
        try {
            Path code = Path.of(HarnessProcess.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (Files.isRegularFile(code) && code.toString().endsWith(".jar")) {
                return code;
            }
        } catch (java.net.URISyntaxException | RuntimeException e) {
            // run from somewhere unnamed: the checkout's jar below
        }
        return jarOf(root);
    }
}
