package org.spice.bench.proc;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * CPU time of the client (this JVM) and of a local server's process tree, sampled at the start and the
 * end of a window. The server's time comes from /proc: utime + stime + cutime + cstime of the server
 * process and every descendant, so CGI children count whether they are still running (their own
 * utime/stime) or already reaped (in their parent's cutime/cstime); a child is never counted twice
 * because the kernel adds its time to the parent only when it is reaped and it then leaves /proc.
 */
public final class CpuMeter {

    private static final Path PROC = Path.of("/proc");

    private CpuMeter() {
    }

    /** CPU time of this process in nanoseconds (all threads), or -1 if the JVM cannot tell. */
    public static long processCpuNanos() {
        java.lang.management.OperatingSystemMXBean bean = ManagementFactory.getOperatingSystemMXBean();
        if (bean instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        long ticks = ticksOf(PROC.resolve("self/stat"), false);
        return ticks < 0 ? -1 : ticks * 1_000_000_000L / clockTicks();
    }

    /** The kernel's clock ticks per second for /proc times ({@code getconf CLK_TCK}); 100 if it cannot be read. */
    public static long clockTicks() {
        return ClockTicks.VALUE;
    }

    private static final class ClockTicks {
        static final long VALUE = read();

        private static long read() {
            try {
                Process process = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
                String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
                return process.waitFor() == 0 ? Long.parseLong(out) : 100;
            } catch (IOException | NumberFormatException e) {
                return 100;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return 100;
            }
        }
    }

    /**
     * Seconds the machine's CPUs have been busy since boot (all CPUs added up: user, nice, system, irq,
     * softirq, steal from /proc/stat), or NaN without /proc. The difference over a window, less the client's
     * own CPU, is what everything else used: the server, and all its children whatever reaped them.
     */
    public static double machineBusySeconds() {
        try {
            String first = Files.readAllLines(PROC.resolve("stat"), StandardCharsets.US_ASCII).get(0);
            String[] f = first.trim().split("\\s+");
            long busy = 0;
            for (int field : new int[] {1, 2, 3, 6, 7, 8}) {
                busy += Long.parseLong(f[field]);
            }
            return busy / (double) clockTicks();
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    /**
     * The CPU time the hypervisor gave other guests while this machine's vCPUs wanted it (/proc/stat's steal), seconds
     * so far; 0 on bare metal, NaN where unreadable.
     */
    public static double machineStealSeconds() {
        try {
            String[] f = Files.readAllLines(PROC.resolve("stat"), StandardCharsets.US_ASCII).get(0).trim().split("\\s+");
            return f.length > 8 ? Long.parseLong(f[8]) / (double) clockTicks() : 0;
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    /** True when /proc/PID exists: the server is a live local process whose CPU can be read. */
    public static boolean processExists(long pid) {
        return Files.isReadable(PROC.resolve(pid + "/stat"));
    }

    /** True when one of {@code pids} is a Java virtual machine (its command is {@code java}). */
    public static boolean anyJava(List<Long> pids) {
        for (long pid : pids) {
            try {
                if (Files.readString(PROC.resolve(pid + "/comm")).strip().equals("java")) {
                    return true;
                }
            } catch (java.io.IOException e) {
                // gone or not readable: not known to be a JVM
            }
        }
        return false;
    }

    /**
     * CPU seconds of the processes {@code pids} and all their descendants, each process counted once: a PID
     * given twice, or inside another given PID's tree, is one process. Its own time and its reaped children's
     * (cutime, cstime) count; a reaped child has left /proc, so it is never added again. NaN if none is given
     * or one of them is gone.
     */
    public static double treeCpuSeconds(List<Long> pids) {
        if (pids.isEmpty()) {
            return Double.NaN;
        }
        Set<Long> processes = processes(pids, childrenByParent());
        if (processes == null) {
            return Double.NaN;
        }
        long total = 0;
        for (long pid : processes) {
            long ticks = ticksOf(PROC.resolve(pid + "/stat"), true);
            if (ticks > 0) {
                total += ticks;   // a descendant that ended between the scan and now is missed by this sample only
            }
        }
        return total / (double) clockTicks();
    }

    /** CPU seconds of {@code pid} and all its descendants, or NaN if the process is gone. */
    public static double treeCpuSeconds(long pid) {
        return treeCpuSeconds(List.of(pid));
    }

    /** {@code pids} and all their descendants now, each once (empty if one of them is gone). */
    public static List<Long> tree(List<Long> pids) {
        Set<Long> processes = processes(pids, childrenByParent());
        return processes == null ? List.of() : List.copyOf(processes);
    }

    /** The set of {@code pids} and their descendants, each once; null if one of {@code pids} is gone. */
    static Set<Long> processes(List<Long> pids, Map<Long, List<Long>> children) {
        Set<Long> processes = new LinkedHashSet<>();
        Deque<Long> todo = new ArrayDeque<>();
        for (long pid : pids) {
            if (!processExists(pid)) {
                return null;
            }
            todo.add(pid);
        }
        while (!todo.isEmpty()) {
            long pid = todo.pop();
            if (processes.add(pid)) {
                todo.addAll(children.getOrDefault(pid, List.of()));
            }
        }
        return processes;
    }

    static Map<Long, List<Long>> childrenByParent() {
        Map<Long, List<Long>> children = new HashMap<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(PROC, "[0-9]*")) {
            for (Path entry : entries) {
                long[] fields = statFields(entry.resolve("stat"));
                if (fields != null) {
                    children.computeIfAbsent(fields[1], k -> new ArrayList<>()).add(fields[0]);
                }
            }
        } catch (IOException e) {
            // no /proc: no descendants can be found; the process's own time is still counted
        }
        return children;
    }

    /** pid and ppid of a /proc/N/stat, or null if it vanished. */
    private static long[] statFields(Path stat) {
        String[] f = split(stat);
        if (f == null) {
            return null;
        }
        try {
            return new long[] {Long.parseLong(stat.getParent().getFileName().toString()), Long.parseLong(f[1])};
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * utime + stime (+ cutime + cstime if {@code withChildren}) in clock ticks, or -1. The fields after the
     * command name (which may contain spaces and parentheses) start after the last ')': state is field 3
     * of proc(5), utime 14, stime 15, cutime 16, cstime 17.
     */
    static long ticksOf(Path stat, boolean withChildren) {
        String[] f = split(stat);
        if (f == null || f.length < 15) {
            return -1;
        }
        try {
            long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
            if (withChildren) {
                ticks += Long.parseLong(f[13]) + Long.parseLong(f[14]);
            }
            return ticks;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** The fields of a stat file after the command name: [0] = state (field 3), [1] = ppid (field 4), ... */
    static String[] split(Path stat) {
        String text;
        try {
            text = Files.readString(stat, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            return null;
        }
        int close = text.lastIndexOf(')');
        return close < 0 ? null : text.substring(close + 1).trim().split("\\s+");
    }
}
