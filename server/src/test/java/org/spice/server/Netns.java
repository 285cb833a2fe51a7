package org.spice.server;

import java.util.List;
import java.util.Map;

import org.spice.servers.Processes;

/**
 * Another host on this machine: a network namespace linked to this one by a veth pair, this end's address
 * {@code here}, the namespace's {@code there} (a /30 of the test's own). {@link #close} removes both, first ending
 * whatever still runs there (and says so: a test that left a process there fails on {@link #pids}).
 */
record Netns(String name, String link, String here, String there) implements AutoCloseable {

    /** Whether namespaces can be made here: root, and ip netns. */
    static boolean possible() {
        return "root".equals(System.getProperty("user.name")) && Exec.run("ip", "netns", "list").status() == 0;
    }

    static Netns make(String name, String link, String here, String there) {
        Netns made = new Netns(name, link, here, there);
        Exec.run("ip", "netns", "add", name).ok("ip netns add " + name);
        for (List<String> step : List.of(
                List.of("ip", "link", "add", link, "type", "veth", "peer", "name", link + "c"),
                List.of("ip", "link", "set", link + "c", "netns", name),
                List.of("ip", "addr", "add", here + "/30", "dev", link),
                List.of("ip", "link", "set", link, "up"),
                List.of("ip", "netns", "exec", name, "ip", "addr", "add", there + "/30", "dev", link + "c"),
                List.of("ip", "netns", "exec", name, "ip", "link", "set", link + "c", "up"),
                List.of("ip", "netns", "exec", name, "ip", "link", "set", "lo", "up"))) {
            Exec ran = Exec.run(null, Map.of(), 60, step);
            if (ran.status() != 0) {
                made.close();
                ran.ok(String.join(" ", step));
            }
        }
        return made;
    }

    /** The live processes in the namespace (zombies awaiting their reaping left out), one PID a line. */
    String pids() {
        return String.join("\n", Exec.run("ip", "netns", "pids", name).out().lines()
                .filter(p -> p.matches("[0-9]+") && Processes.running(Long.parseLong(p))).toList());
    }

    /** {@code command} run in the namespace. */
    Exec exec(long limitS, List<String> command) {
        List<String> all = new java.util.ArrayList<>(List.of("ip", "netns", "exec", name));
        all.addAll(command);
        return Exec.run(null, Map.of(), limitS, all);
    }

    @Override
    public void close() {
        String left = pids();
        if (!left.isEmpty()) {
            System.err.println("namespace " + name + ": processes left, killed: " + left.replace('\n', ' '));
            left.lines().forEach(p -> ProcessHandle.of(Long.parseLong(p)).ifPresent(ProcessHandle::destroyForcibly));
        }
        Exec.run("ip", "link", "del", link);
        Exec.run("ip", "netns", "del", name);
    }
}
