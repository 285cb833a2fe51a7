package org.spice.servers;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The machine's programs as a launcher uses them: where one is, a command run to its end (its output kept or said),
 * Debian's packages.
 */
final class Programs {

    private Programs() {
    }

    /** The first of {@code names} on the PATH, else the first of them that is an executable absolute path; null for none. */
    static Path which(String... names) {
        String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
        for (String name : names) {
            if (name.startsWith("/")) {
                continue;
            }
            for (String dir : path.split(File.pathSeparator)) {
                Path candidate = Path.of(dir.isEmpty() ? "." : dir, name);
                if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                    return candidate;
                }
            }
        }
        for (String name : names) {
            if (name.startsWith("/") && Files.isRegularFile(Path.of(name)) && Files.isExecutable(Path.of(name))) {
                return Path.of(name);
            }
        }
        return null;
    }

    /** The result of a command run to its end: its exit status and what it printed (stdout and stderr). */
    record Result(int status, String output) {
        boolean ok() {
            return status == 0;
        }
    }

    /** Runs {@code command} to its end, its output kept; status -1 where it could not be run. */
    static Result output(List<String> command) {
        return output(command, Map.of());
    }

    static Result output(List<String> command, Map<String, String> env) {
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            builder.environment().putAll(env);
            Process process = builder.start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return new Result(process.waitFor(), out);
        } catch (IOException e) {
            return new Result(-1, command.get(0) + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(-1, command.get(0) + ": interrupted");
        }
    }

    /**
     * Runs {@code command} to its end, what it prints going to {@code said} (a build's, an installer's output, which the
     * user reads); its exit status.
     */
    static int said(List<String> command, Map<String, String> env, PrintStream said) throws IOException {
        return said(command, env, null, said);
    }

    /** As {@link #said(List, Map, PrintStream)}, in the folder {@code dir}. */
    static int said(List<String> command, Map<String, String> env, Path dir, PrintStream said) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        if (dir != null) {
            builder.directory(dir.toFile());
        }
        builder.environment().putAll(env);
        Process process = builder.start();
        try (var lines = process.inputReader(StandardCharsets.UTF_8)) {
            lines.lines().forEach(said::println);
        }
        try {
            return process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroy();
            throw new IOException("interrupted while " + command.get(0) + " ran");
        }
    }

    /** Whether this process runs as root. */
    static boolean root() {
        try {
            return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid") == 0;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** The name of the user this process runs as. */
    static String me() {
        return System.getProperty("user.name");
    }

    /** Whether Debian's package {@code name} is installed. */
    static boolean packageInstalled(String name) {
        return output(List.of("dpkg-query", "-W", "-f=${Status}", name)).output().contains("install ok installed");
    }

    /**
     * Installs Debian's {@code packages} with apt-get (root only; the caller says why it needs root otherwise), apt's
     * output going to {@code said}.
     */
    static void aptInstall(List<String> packages, PrintStream said) throws IOException {
        Map<String, String> env = Map.of("DEBIAN_FRONTEND", "noninteractive");
        List<String> install = new ArrayList<>(List.of("apt-get", "install", "-y", "-qq"));
        install.addAll(packages);
        if (said(List.of("apt-get", "update", "-qq"), env, said) != 0 || said(install, env, said) != 0) {
            throw new IOException("apt-get install " + String.join(" ", packages) + " failed (see apt's output above)");
        }
    }

    /** Waits for a process started to its end, at most {@code seconds}; its status, -1 where it did not end. */
    static int waitFor(Process process, long seconds) throws IOException {
        try {
            return process.waitFor(seconds, TimeUnit.SECONDS) ? process.exitValue() : -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        }
    }
}
