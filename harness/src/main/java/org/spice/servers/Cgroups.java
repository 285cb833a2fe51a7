package org.spice.servers;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The cgroup a server SPICE starts runs in: every process the server starts joins it, CGI programs reaped by a daemon
 * or by the kernel included, and the kernel counts their CPU there once, to the microsecond (cgroup v2's cpu.stat
 * usage_usec; cgroup v1's cpuacct.usage, in ns: {@link org.spice.bench.proc.Cgroup} reads them). Made when the server
 * starts, under SPICE's own group, and removed when it stops (like its PID files): RUN/cgroup holds its path. Where none
 * can be made (no root, no writable hierarchy), the server runs without one, and bench reads its processes' trees and
 * the machine instead. (The metrics agent of a deploy bundle makes its own with scripts/lib/cgroup.sh.)
 */
final class Cgroups {

    private static final String FILE = "cgroup";

    private Cgroups() {
    }

    /** SPICE's group: under cgroup v2 where the machine has it writable, else under v1's cpuacct; null for neither. */
    static Path root() {
        List<String[]> mounts;
        try {
            mounts = Files.readAllLines(Path.of("/proc/mounts")).stream().map(l -> l.split(" ")).filter(f -> f.length > 3)
                    .toList();
        } catch (IOException e) {
            return null;
        }
        for (String[] mount : mounts) {
            if (mount[2].equals("cgroup2")) {
                return Files.isWritable(Path.of(mount[1])) ? Path.of(mount[1], "spice") : v1(mounts);
            }
        }
        return v1(mounts);
    }

    private static Path v1(List<String[]> mounts) {
        for (String[] mount : mounts) {
            if (mount[2].equals("cgroup") && List.of(mount[3].split(",")).contains("cpuacct")) {
                return Files.isWritable(Path.of(mount[1])) ? Path.of(mount[1], "spice") : null;
            }
        }
        return null;
    }

    /** Makes the cgroup of the instance whose run directory is RUN and records it there; null where none can be made. */
    static Path make(Path run, PrintStream err) {
        Path root = root();
        if (root == null) {
            return null;
        }
        Path group = root.resolve(run.getFileName().toString());
        remove(run, err);
        try {
            Files.createDirectories(group);
            if (Files.isRegularFile(group.resolve("cpu.stat")) || Files.isRegularFile(group.resolve("cpuacct.usage"))) {
                Files.writeString(run.resolve(FILE), group + "\n");
                return group;
            }
            Files.deleteIfExists(group);
        } catch (IOException e) {
            return null;
        }
        return null;
    }

    /** The recorded cgroup of RUN, if it still exists; null otherwise. */
    static Path of(Path run) {
        try {
            String recorded = Files.readString(run.resolve(FILE)).strip();
            return !recorded.isEmpty() && Files.isDirectory(Path.of(recorded)) ? Path.of(recorded) : null;
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * Ends what is left in RUN's cgroup (the server was stopped first, by its PID files), for up to 5 s, and removes it;
     * SPICE's own group too, once no other server is in it.
     */
    static void remove(Path run, PrintStream err) {
        Path group = of(run);
        if (group != null) {
            Processes.await(5, () -> {
                List<String> left = procs(group);
                left.forEach(pid -> Processes.signal(Long.parseLong(pid), true));
                return left.isEmpty();
            });
            try {
                Files.delete(group);
                Files.delete(group.getParent());
            } catch (java.nio.file.DirectoryNotEmptyException e) {
                // SPICE's group still holds another server's
            } catch (IOException e) {
                if (Files.isDirectory(group)) {
                    err.println("spice: could not remove the cgroup " + group + " (processes left in it)");
                }
            }
        }
        try {
            Files.deleteIfExists(run.resolve(FILE));
        } catch (IOException e) {
            err.println("spice: could not remove " + run.resolve(FILE) + ": " + e.getMessage());
        }
    }

    private static List<String> procs(Path group) {
        try {
            return Files.readAllLines(group.resolve("cgroup.procs")).stream().map(String::strip).filter(s -> !s.isEmpty())
                    .toList();
        } catch (IOException e) {
            return List.of();
        }
    }
}
