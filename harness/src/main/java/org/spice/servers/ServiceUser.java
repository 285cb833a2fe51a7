package org.spice.servers;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Whom the servers run as. Started by root, SPICE's servers and what runs beside them run as an unprivileged user, as
 * httpd's workers do: www-data, or SPICE_SERVICE_USER; they own their run directories. Started by anyone else, they run
 * as the caller. Where that user does not exist, they run as root, and a start says so.
 */
final class ServiceUser {

    private final String name;
    private final boolean root;
    private final boolean exists;

    ServiceUser(String name, boolean root, boolean exists) {
        this.name = name;
        this.root = root;
        this.exists = exists;
    }

    /** This machine's, for this process: SPICE_SERVICE_USER (www-data where unset). */
    static ServiceUser here() {
        String name = Options.env("SPICE_SERVICE_USER", "www-data");
        boolean root = Programs.root();
        return new ServiceUser(name, root, root && Programs.output(List.of("id", "-u", name)).ok());
    }

    String name() {
        return name;
    }

    /** Whether a start drops from root to this user (root, and the user exists). */
    boolean drops() {
        return root && exists;
    }

    boolean root() {
        return root;
    }

    /** The words that run a program as this user, before it (empty where nothing drops): its PID is the program's. */
    List<String> prefix() {
        return drops() ? List.of("setpriv", "--reuid=" + name, "--regid=" + name, "--clear-groups", "--") : List.of();
    }

    /** {@code command} as this user. */
    List<String> run(List<String> command) {
        List<String> all = new ArrayList<>(prefix());
        all.addAll(command);
        return all;
    }

    /** Said once per start where root cannot drop to the user. */
    void warnIfRoot(PrintStream err) {
        if (root && !exists) {
            err.println("spice: warning: there is no user " + name + " here: the servers run as root (useradd --system"
                    + " --no-create-home " + name + ", or SPICE_SERVICE_USER=USER)");
        }
    }

    /** As root: {@code paths} (a run directory) become this user's, every file in them. */
    void give(Path... paths) throws IOException {
        if (!drops()) {
            return;
        }
        List<String> chown = new ArrayList<>(List.of("chown", "-R", name + ":"));
        for (Path path : paths) {
            chown.add(path.toString());
        }
        Programs.Result done = Programs.output(chown);
        if (!done.ok()) {
            throw new IOException("could not give " + chown.subList(3, chown.size()) + " to " + name + ": "
                    + done.output().strip());
        }
    }

    /** Whether this user can read {@code path}, every folder above it included (always so where nothing drops). */
    boolean reads(Path path) {
        return !drops() || Programs.output(run(List.of("test", "-r", path.toString()))).ok();
    }

    /** The group of {@code user}, as id -gn says. */
    static String groupOf(String user) throws IOException {
        Programs.Result group = Programs.output(List.of("id", "-gn", user));
        if (!group.ok()) {
            throw new IOException("no group for " + user + ": " + group.output().strip());
        }
        return group.output().strip();
    }
}
