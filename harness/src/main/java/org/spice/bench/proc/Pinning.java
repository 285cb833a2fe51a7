package org.spice.bench.proc;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code --pin}: on Linux with a local server, the client and the server get a CPU each, so they do not
 * steal each other's cycles in the middle of a measurement: the client on CPU 1, the server (all its
 * threads) on CPU 0.
 *
 * <p>The client pins itself with {@code taskset -a -p} on its own PID rather than re-executing under
 * taskset: every existing thread of the JVM is moved, and the client threads, created later, inherit the
 * affinity of the thread that creates them. The server's threads and the CGI processes it forks inherit
 * CPU 0 the same way.
 */
public final class Pinning {

    private Pinning() {
    }

    /** Pins as far as possible and says what was done, in one line for the settings and the terminal. */
    public static String apply(boolean serverLocal, List<Long> serverPids) {
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) {
            return "--pin: not on Linux, running unpinned";
        }
        if (!serverLocal) {
            return "--pin: the server is not on this machine, running unpinned";
        }
        if (Runtime.getRuntime().availableProcessors() < 2) {
            return "--pin: fewer than 2 CPUs available, running unpinned";
        }
        long self = ProcessHandle.current().pid();
        String failure = taskset("1", self);
        if (failure != null) {
            return "--pin: " + failure + ", running unpinned";
        }
        if (serverPids.isEmpty()) {
            return "client pinned to CPU 1; the server is not pinned (give --server-pid to pin it to CPU 0)";
        }
        // Every process of the server (httpd's workers, a CGI daemon), not only the one named: taskset -a
        // covers the threads of one process, and processes forked later inherit the affinity.
        List<Long> processes = new ArrayList<>();
        for (long pid : serverPids) {
            processes.add(pid);
            ProcessHandle.of(pid).ifPresent(p -> p.descendants().forEach(d -> processes.add(d.pid())));
        }
        for (long pid : processes) {
            failure = taskset("0", pid);
            if (failure != null && ProcessHandle.of(pid).isPresent()) {
                return "client pinned to CPU 1; the server could not be pinned: " + failure;
            }
        }
        return "client pinned to CPU 1, server PID " + serverPids + " (all threads) to CPU 0";
    }

    /** Runs {@code taskset -a -p -c CPU PID}; null on success, else why not. */
    private static String taskset(String cpu, long pid) {
        try {
            Process process = new ProcessBuilder(List.of("taskset", "-a", "-p", "-c", cpu, Long.toString(pid)))
                    .redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            int status = process.waitFor();
            return status == 0 ? null : "taskset failed for PID " + pid + ": " + output;
        } catch (IOException e) {
            return "taskset is not installed (it is in util-linux)";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }
}
