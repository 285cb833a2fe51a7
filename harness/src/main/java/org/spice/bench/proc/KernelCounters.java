package org.spice.bench.proc;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * What the kernel counts for the server's processes (the same set as its CPU figure, each process once) and
 * for the machine, read at a window's edges; their differences per request say why an interface costs.
 *
 * @param voluntarySwitches   context switches the threads asked for (a blocking read, accept, poll), summed over
 *                            every live thread of every process; a thread or child that ended is not in it
 * @param involuntarySwitches switches the scheduler imposed (a time slice used up), likewise
 * @param minorFaults         page faults served without I/O, the processes' own and their reaped children's
 * @param majorFaults         page faults that read from disk, likewise
 * @param readBytes           bytes the processes passed to read-like system calls ({@code rchar}), reaped children too
 * @param writtenBytes        bytes passed to write-like system calls ({@code wchar}), likewise
 * @param forks               processes (and threads) the whole machine started ({@code processes} in /proc/stat)
 *
 * Each is -1 where it could not be read.
 */
public record KernelCounters(long voluntarySwitches, long involuntarySwitches, long minorFaults, long majorFaults,
        long readBytes, long writtenBytes, long forks) {

    private static final Path PROC = Path.of("/proc");
    public static final KernelCounters NONE = new KernelCounters(-1, -1, -1, -1, -1, -1, -1);

    /** The counters now, for {@code pids} and their descendants (none but the machine's forks if empty). */
    public static KernelCounters read(List<Long> pids) {
        long forks = machineForks();
        Set<Long> processes = pids.isEmpty() ? null : CpuMeter.processes(pids, CpuMeter.childrenByParent());
        if (processes == null) {
            return new KernelCounters(-1, -1, -1, -1, -1, -1, forks);
        }
        long voluntary = 0;
        long involuntary = 0;
        long minor = 0;
        long major = 0;
        long read = 0;
        long written = 0;
        for (long pid : processes) {
            Path dir = PROC.resolve(Long.toString(pid));
            long[] switches = switches(dir);
            String[] stat = CpuMeter.split(dir.resolve("stat"));
            long[] io = io(dir);
            if (!Files.isDirectory(dir)) {
                continue;   // ended since the scan (a CGI program): its parent counts its faults and I/O once it reaps it
            }
            voluntary = add(voluntary, switches[0]);
            involuntary = add(involuntary, switches[1]);
            // proc(5): minflt is field 10, cminflt 11, majflt 12, cmajflt 13; split() starts at field 3.
            minor = add(minor, stat == null || stat.length < 11 ? -1 : sum(stat[7], stat[8]));
            major = add(major, stat == null || stat.length < 11 ? -1 : sum(stat[9], stat[10]));
            read = add(read, io[0]);
            written = add(written, io[1]);
        }
        return new KernelCounters(voluntary, involuntary, minor, major, read, written, forks);
    }

    /** What happened between {@code earlier} and these counters; -1 where either is unknown. */
    public KernelCounters since(KernelCounters earlier) {
        return new KernelCounters(minus(voluntarySwitches, earlier.voluntarySwitches),
                minus(involuntarySwitches, earlier.involuntarySwitches), minus(minorFaults, earlier.minorFaults),
                minus(majorFaults, earlier.majorFaults), minus(readBytes, earlier.readBytes),
                minus(writtenBytes, earlier.writtenBytes), minus(forks, earlier.forks));
    }

    /**
     * Voluntary and involuntary switches of every thread of a process, from /proc/PID/task/TID/status; a thread
     * that ends while they are read is left out (Tomcat's CGI starts and ends threads all the time).
     */
    private static long[] switches(Path process) {
        long voluntary = 0;
        long involuntary = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(process.resolve("task"))) {
            for (Path task : tasks) {
                List<String> lines;
                try {
                    lines = Files.readAllLines(task.resolve("status"), StandardCharsets.US_ASCII);
                } catch (java.nio.file.NoSuchFileException ended) {
                    continue;
                }
                for (String line : lines) {
                    if (line.startsWith("voluntary_ctxt_switches:")) {
                        voluntary += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                    } else if (line.startsWith("nonvoluntary_ctxt_switches:")) {
                        involuntary += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                    }
                }
            }
        } catch (IOException | NumberFormatException e) {
            return new long[] {-1, -1};   // the process ended, or is not ours to read
        }
        return new long[] {voluntary, involuntary};
    }

    /** rchar and wchar of /proc/PID/io (readable by the process's user and root), or -1. */
    private static long[] io(Path process) {
        long read = -1;
        long written = -1;
        try {
            for (String line : Files.readAllLines(process.resolve("io"), StandardCharsets.US_ASCII)) {
                if (line.startsWith("rchar:")) {
                    read = Long.parseLong(line.substring(6).trim());
                } else if (line.startsWith("wchar:")) {
                    written = Long.parseLong(line.substring(6).trim());
                }
            }
        } catch (IOException | NumberFormatException e) {
            return new long[] {-1, -1};
        }
        return new long[] {read, written};
    }

    /** Processes the machine has started since boot: the {@code processes} line of /proc/stat, or -1. */
    static long machineForks() {
        try {
            for (String line : Files.readAllLines(PROC.resolve("stat"), StandardCharsets.US_ASCII)) {
                if (line.startsWith("processes ")) {
                    return Long.parseLong(line.substring(10).trim());
                }
            }
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }

    private static long sum(String a, String b) {
        try {
            return Long.parseLong(a) + Long.parseLong(b);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static long add(long total, long value) {
        return total < 0 || value < 0 ? -1 : total + value;
    }

    private static long minus(long later, long earlier) {
        return later < 0 || earlier < 0 ? -1 : later - earlier;
    }
}
