package org.spice.bench.proc;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * strace (Debian's) attached to running processes and every thread and child of theirs ({@code -f}), counting
 * system calls ({@code -c}) until it is stopped, then detached: the processes go on as before. Tracing slows them
 * down many times, so the counts are the result, never the times.
 */
public final class Strace implements AutoCloseable {

    private final Process process;
    private final Path output;

    private Strace(Process process, Path output) {
        this.process = process;
        this.output = output;
    }

    /** True when strace is on the PATH. */
    public static boolean installed() {
        return Programs.onPath("strace");
    }

    /**
     * Attaches to {@code pids} and every process below them now (httpd's and nginx's workers are children of the
     * PID given), each with its threads and the children it starts later, the counts going to {@code output}.
     */
    public static Strace attach(List<Long> pids, Path output) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("strace", "-f", "-c", "-o", output.toString()));
        for (long pid : CpuMeter.tree(pids)) {
            command.add("-p");
            command.add(Long.toString(pid));
        }
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(
                output.resolveSibling(output.getFileName() + ".log").toFile()).start();
        // strace says "Process N attached" for every thread; a second is enough to attach to a JVM's threads here.
        if (process.waitFor(1, TimeUnit.SECONDS)) {
            throw new IOException("strace ended at once: " + Files.readString(output.resolveSibling(output.getFileName()
                    + ".log"), StandardCharsets.UTF_8).strip() + " (tracing needs root or the processes' own user)");
        }
        return new Strace(process, output);
    }

    /** Detaches (strace ends on SIGTERM, writing its counts) and returns the calls by name. */
    public Map<String, Long> stop() throws IOException, InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IOException("strace did not detach within 30 s");
        }
        return parse(Files.readString(output, StandardCharsets.UTF_8));
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }

    /**
     * The calls by name from strace -c's table ("% time seconds usecs/call calls [errors] syscall"), in its order
     * (most time first); the total line is left out.
     */
    public static Map<String, Long> parse(String table) throws IOException {
        Map<String, Long> calls = new LinkedHashMap<>();
        boolean body = false;
        for (String line : table.split("\n")) {
            String trimmed = line.strip();
            if (trimmed.startsWith("------")) {
                if (body) {
                    break;    // the line above the total
                }
                body = true;
                continue;
            }
            if (!body || trimmed.isEmpty()) {
                continue;
            }
            String[] f = trimmed.split("\\s+");
            if (f.length < 5) {
                throw new IOException("strace -c: a row with " + f.length + " fields: \"" + trimmed + "\"");
            }
            try {
                calls.merge(f[f.length - 1], Long.parseLong(f[3]), Long::sum);
            } catch (NumberFormatException e) {
                throw new IOException("strace -c: no call count in \"" + trimmed + "\"");
            }
        }
        if (!body) {
            throw new IOException("strace -c wrote no table (was anything traced?)");
        }
        return calls;
    }
}
