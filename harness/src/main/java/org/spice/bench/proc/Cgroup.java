package org.spice.bench.proc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A server's cgroup, where the kernel counts the CPU of every process in it, each once, short-lived children reaped
 * by anyone included: cgroup v2's {@code cpu.stat} ({@code usage_usec}) or cgroup v1's {@code cpuacct.usage} (ns).
 * This is how systemd, cAdvisor and Kubernetes account a service; scripts/spice starts each server in one.
 */
public final class Cgroup {

    private final Path dir;
    private final boolean v2;

    private Cgroup(Path dir, boolean v2) {
        this.dir = dir;
        this.v2 = v2;
    }

    /** The cgroup at {@code dir}; an IOException that says why when it is none this can read. */
    public static Cgroup at(Path dir) throws IOException {
        if (Files.isReadable(dir.resolve("cpu.stat")) && Files.readString(dir.resolve("cpu.stat")).contains("usage_usec")) {
            return new Cgroup(dir, true);
        }
        if (Files.isReadable(dir.resolve("cpuacct.usage"))) {
            return new Cgroup(dir, false);
        }
        throw new IOException(dir + " is not a cgroup whose CPU can be read (no cpu.stat with usage_usec, no cpuacct.usage)");
    }

    public Path dir() {
        return dir;
    }

    /** The CPU seconds of everything that has run in the cgroup so far; NaN if it cannot be read (removed). */
    public double cpuSeconds() {
        try {
            if (!v2) {
                return Long.parseLong(Files.readString(dir.resolve("cpuacct.usage")).trim()) / 1e9;
            }
            for (String line : Files.readAllLines(dir.resolve("cpu.stat"))) {
                if (line.startsWith("usage_usec ")) {
                    return Long.parseLong(line.substring("usage_usec ".length()).trim()) / 1e6;
                }
            }
            return Double.NaN;
        } catch (IOException | NumberFormatException e) {
            return Double.NaN;
        }
    }

    @Override
    public String toString() {
        return dir + (v2 ? " (cgroup v2)" : " (cgroup v1 cpuacct)");
    }
}
