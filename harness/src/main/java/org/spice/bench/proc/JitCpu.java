package org.spice.bench.proc;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the server's JVMs spend compiling: the CPU of HotSpot's JIT compiler threads ("C1 CompilerThread",
 * "C2 CompilerThread"), read per thread from /proc. A slice taken while they work is not the interface's steady
 * cost: it carries a one-off compilation and code not yet in its final tier. Measured on the embedded server, the
 * 100 JSP classes reach C2 after several hundred thousand JSP requests, and for the 45 s or so that follow the
 * compiler threads take 5-19 % of the server's CPU, which raised JSP's paired ratio from 1.0 to 1.5 meanwhile.
 */
public final class JitCpu {

    private static final Path PROC = Path.of("/proc");

    private JitCpu() {
    }

    /**
     * The compiler threads' clock ticks so far, by thread: a thread is followed by its id, because HotSpot starts and
     * retires compiler threads as its queue grows and shrinks (a thread's time is lost from /proc when it ends).
     */
    public record Reading(Map<Long, Long> ticksByThread) {
        public static final Reading NONE = new Reading(Map.of());

        public Reading {
            ticksByThread = Map.copyOf(ticksByThread);
        }

        /**
         * CPU seconds the compiler threads spent since {@code before}: a thread started since counts whole; one
         * that ended in between is missed, which only a thread retired after a burst of compiling can be.
         */
        public double secondsSince(Reading before) {
            long ticks = 0;
            for (Map.Entry<Long, Long> thread : ticksByThread.entrySet()) {
                ticks += Math.max(0, thread.getValue() - before.ticksByThread.getOrDefault(thread.getKey(), 0L));
            }
            return (double) ticks / CpuMeter.clockTicks();
        }
    }

    /** The compiler threads of the JVMs among {@code pids} now; a process that is gone adds nothing. */
    public static Reading read(Collection<Long> pids) {
        Map<Long, Long> ticks = new HashMap<>();
        for (long pid : pids) {
            if (!CpuMeter.anyJava(List.of(pid))) {
                continue;   // httpd's or nginx's many threads have no JIT to look for
            }
            try (DirectoryStream<Path> threads = Files.newDirectoryStream(PROC.resolve(pid + "/task"))) {
                for (Path thread : threads) {
                    if (isCompiler(thread)) {
                        long t = CpuMeter.ticksOf(thread.resolve("stat"), false);
                        if (t >= 0) {
                            ticks.put(Long.parseLong(thread.getFileName().toString()), t);
                        }
                    }
                }
            } catch (IOException | NumberFormatException e) {
                // gone between the listing and the read: its compilers are not counted in this reading
            }
        }
        return new Reading(ticks);
    }

    /** The processes of a cgroup now ({@code cgroup.procs}), with {@code pids}; {@code pids} alone if it cannot be read. */
    public static Set<Long> withCgroup(Collection<Long> pids, Cgroup cgroup) {
        Set<Long> all = new LinkedHashSet<>(pids);
        if (cgroup != null) {
            try {
                for (String line : Files.readAllLines(cgroup.dir().resolve("cgroup.procs"))) {
                    if (!line.isBlank()) {
                        all.add(Long.parseLong(line.trim()));
                    }
                }
            } catch (IOException | NumberFormatException e) {
                // the cgroup is gone: its processes with it
            }
        }
        return all;
    }

    /** HotSpot names its compiler threads "C1 CompilerThread0", "C2 CompilerThread1", ...; comm keeps 15 characters. */
    static boolean isCompiler(Path thread) {
        try {
            String comm = Files.readString(thread.resolve("comm")).strip();
            return comm.startsWith("C1 CompilerThre") || comm.startsWith("C2 CompilerThre");
        } catch (IOException e) {
            return false;
        }
    }
}
