package org.spice.bench.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * How many clients this machine can run: each needs a file descriptor for its socket, and without
 * keep-alive each connection takes a local port until its TIME_WAIT ends. Asked before the ladder, so
 * a run that cannot work is refused with the reason instead of failing in its biggest mix.
 */
public final class ClientLimits {

    /** Descriptors on top of those already open: the event loops' selectors, /proc reads, the results files. */
    static final int SPARE_DESCRIPTORS = 64;

    private ClientLimits() {
    }

    /**
     * What this process may open, read once: its open-files limit (-1 if unknown) and the descriptors it needs besides
     * its clients', and the ephemeral ports (-1 if unknown).
     */
    private record Room(long files, long overhead, long ports) {
        static Room now() {
            return new Room(openFilesLimit(Path.of("/proc/self/limits")), openDescriptors() + SPARE_DESCRIPTORS,
                    localPorts(Path.of("/proc/sys/net/ipv4/ip_local_port_range")));
        }

        /** The clients the open-files limit leaves room for; Long.MAX_VALUE if it is unknown. */
        long clientsByFiles() {
            return files > 0 ? Math.max(0, files - overhead) : Long.MAX_VALUE;
        }
    }

    /** Null if {@code clients} fit, else why not and what to change. */
    public static String refusal(int clients, boolean keepAlive) {
        Room room = Room.now();
        if (clients > room.clientsByFiles()) {
            long needed = clients + room.overhead();
            return String.format(Locale.ROOT, "%d clients need %d open files (one each, and what the JVM has open),"
                    + " and this process may have %d, enough for %d clients: raise the limit (ulimit -n %d; above the"
                    + " hard limit as root, or in /etc/security/limits.conf)", clients, needed, room.files(),
                    room.clientsByFiles(), needed);
        }
        if (room.ports() > 0 && clients > room.ports()) {
            return String.format(Locale.ROOT, "%d clients need as many local ports at once, and the ephemeral range"
                    + " has %d (net.ipv4.ip_local_port_range)%s", clients, room.ports(),
                    keepAlive ? "" : "; without keep-alive each request takes one more until its TIME_WAIT ends");
        }
        return null;
    }

    /** The most clients this machine allows, and which limit says so (null: no known limit). */
    public record Most(int clients, String because) {
    }

    /** The most clients that fit in this process's open-files limit and the ephemeral port range. */
    public static Most most(boolean keepAlive) {
        Room room = Room.now();
        long byFiles = room.clientsByFiles();
        long byPorts = room.ports() > 0 ? room.ports() : Long.MAX_VALUE;
        if (byFiles == Long.MAX_VALUE && byPorts == Long.MAX_VALUE) {
            return new Most(Integer.MAX_VALUE, null);
        }
        if (byFiles <= byPorts) {
            return new Most((int) Math.min(Integer.MAX_VALUE, byFiles), String.format(Locale.ROOT, "the open-files limit"
                    + " (%d; ulimit -n) leaves room for %d clients", room.files(), byFiles));
        }
        return new Most((int) Math.min(Integer.MAX_VALUE, byPorts), String.format(Locale.ROOT, "the ephemeral port range"
                + " (net.ipv4.ip_local_port_range) has %d ports%s", room.ports(), keepAlive ? "" : ", one per client at once"));
    }

    /** The ephemeral ports (net.ipv4.ip_local_port_range), -1 if unknown. */
    public static long localPortRange() {
        return localPorts(Path.of("/proc/sys/net/ipv4/ip_local_port_range"));
    }

    /** The descriptors this process has open now (jars, standard streams, ...); 0 if unknown. */
    static long openDescriptors() {
        try (var fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** The soft limit on open files from a /proc/PID/limits text; -1 if unknown or unlimited. */
    static long openFilesLimit(Path limits) {
        try {
            for (String line : Files.readAllLines(limits)) {
                if (line.startsWith("Max open files")) {
                    String soft = line.substring("Max open files".length()).trim().split("\\s+")[0];
                    return soft.equals("unlimited") ? -1 : Long.parseLong(soft);
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or unreadable: nothing to check against
        }
        return -1;
    }

    /** The number of ports in an ip_local_port_range text ("32768\t60999"); -1 if unknown. */
    static long localPorts(Path range) {
        try {
            List<String> lines = Files.readAllLines(range);
            String[] bounds = lines.get(0).trim().split("\\s+");
            return Long.parseLong(bounds[1]) - Long.parseLong(bounds[0]) + 1;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
