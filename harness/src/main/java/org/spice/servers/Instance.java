package org.spice.servers;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.spice.bench.model.Server;

/**
 * One instance of a server: the base server (a variant runs from its base's run directory) on a port, and its run
 * directory, run/BASE-PORT, which holds its PID files (the server's in server.pid, what runs beside it in NAME.pid or a
 * folder's, such as tomcat-backend/server.pid), its logs, the cgroup it runs in (cgroup) and the address it listens
 * on (listen).
 *
 * @param server the base server
 * @param port   its HTTP port
 * @param run    its run directory
 */
public record Instance(Server server, int port, Path run) {

    /** {@code server} (or its base) on {@code port}, under run/ {@code runRoot}. */
    public static Instance of(Path runRoot, Server server, int port) {
        Server base = server.base();
        return new Instance(base, port, runRoot.resolve(base.id() + "-" + port));
    }

    public String name() {
        return server.id();
    }

    Path serverPidFile() {
        return run.resolve("server.pid");
    }

    /** The server's own PID, where its PID file names a process that runs. */
    java.util.OptionalLong runningPid() {
        java.util.OptionalLong pid = Processes.pidIn(serverPidFile());
        return pid.isPresent() && Processes.running(pid.getAsLong()) ? pid : java.util.OptionalLong.empty();
    }

    /**
     * Every PID file of the instance: the server's first, then the others beside it in name order, then those one
     * folder down (a front server's Tomcat backend): a server stops taking requests before what serves it goes.
     */
    List<Path> pidFiles() {
        List<Path> files = new ArrayList<>();
        if (Files.isRegularFile(serverPidFile())) {
            files.add(serverPidFile());
        }
        List<Path> beside = new ArrayList<>();
        List<Path> below = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(run)) {
            for (Path entry : entries) {
                if (Files.isDirectory(entry)) {
                    try (DirectoryStream<Path> inner = Files.newDirectoryStream(entry, "*.pid")) {
                        inner.forEach(p -> {
                            if (Files.isRegularFile(p)) {
                                below.add(p);
                            }
                        });
                    }
                } else if (entry.getFileName().toString().endsWith(".pid") && !entry.equals(serverPidFile())) {
                    beside.add(entry);
                }
            }
        } catch (IOException e) {
            return files;
        }
        beside.sort(null);
        below.sort(null);
        files.addAll(beside);
        files.addAll(below);
        return files;
    }

    /**
     * Every port the instance listens on: its own, its HTTPS port, its Tomcat backend's (HTTP and HTTPS), its FastCGI
     * probe's, its HTTP/2-in-clear port where that is not its own.
     */
    List<Integer> ports() {
        Server.Ports ports = server.ports(port);
        List<Integer> all = new ArrayList<>(List.of(ports.http(), ports.https()));
        if (ports.backend() > 0) {
            all.add(ports.backend());
            all.add(Server.TOMCAT.ports(ports.backend()).https());
        }
        if (ports.fastcgi() > 0) {
            all.add(ports.fastcgi());
        }
        if (ports.h2c() > 0 && ports.h2c() != port) {
            all.add(ports.h2c());
        }
        return all;
    }

    /** The address the instance listens on, as its start recorded it; 127.0.0.1 where it recorded none. */
    String address() {
        try {
            String recorded = Files.readString(run.resolve("listen")).strip();
            return recorded.isEmpty() ? "127.0.0.1" : recorded;
        } catch (IOException e) {
            return "127.0.0.1";
        }
    }
}
