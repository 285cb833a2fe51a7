package org.spice.servers;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.spice.bench.model.Server;

/**
 * What is each server's own in its life cycle (one class per server from conf/): what it needs installed and how to
 * install it, how its run directory is laid out and how it is started, where its logs are. The rest is the same for
 * every server: ports, run directories, the cgroup, stopping, status ({@link Servers}); the wait for its answer
 * ({@link Launcher}).
 */
interface ServerLaunch {

    /** Whether everything a start needs is on the machine. */
    boolean installed(Site site);

    /** Installs what is missing (apt for httpd and nginx, Maven for the Tomcat and Jetty distributions), saying what. */
    void install(Site site, PrintStream out) throws IOException;

    /**
     * Lays out the run directory and starts the server (and what runs beside it) in the background, writing the PIDs of
     * what it started to RUN/*.pid; an IOException that says why where it could not.
     */
    void launch(Start start) throws IOException;

    /** The log files worth reading when a start fails, and that a start names; those that exist. */
    List<Path> logs(Path run);

    /** Whether the logs already say that the start failed (a server that lives on without its listener or webapp). */
    default boolean startFailed(Path run) {
        return false;
    }

    /** The launcher of {@code server}'s base. */
    static ServerLaunch of(Server server) {
        return switch (server.base()) {
            case EMBEDDED -> new EmbeddedLaunch();
            case APACHE -> new ApacheLaunch();
            case TOMCAT -> new TomcatLaunch();
            case JETTY -> new JettyLaunch();
            case NGINX -> new NginxLaunch();
            default -> throw new IllegalArgumentException(server.id() + " is a variant: its base launches it");
        };
    }

    /** Of {@code files}, those that exist. */
    static List<Path> existing(Path... files) {
        return java.util.Arrays.stream(files).filter(Files::isRegularFile).toList();
    }
}
