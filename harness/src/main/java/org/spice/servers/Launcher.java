package org.spice.servers;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.spice.bench.model.Server;

/**
 * Each server's own part of its life cycle, by its {@link ServerLaunch}: what it lacks, its install, its start and the
 * wait for its answer. What it says goes to {@code err}.
 */
final class Launcher {

    /** A start's status where the server is not installed. */
    static final int NOT_INSTALLED = 3;
    /** A start that did not run to its status (it was interrupted). */
    static final int FAILED = -1;

    private final Path root;
    private final PrintStream err;
    private Path runDir;
    private Site site;

    Launcher(Path root, PrintStream err) {
        this.root = root;
        this.err = err;
    }

    /** run/ ({@link Checkout#run}): found once, so that it stays where this harness found it while it runs. */
    synchronized Path runDir() throws IOException {
        if (runDir == null) {
            runDir = Checkout.run(root);
        }
        return runDir;
    }

    private synchronized Site site() throws IOException {
        if (site == null) {
            site = new Site(root, runDir(), ServiceUser.here(), err);
        }
        return site;
    }

    /** What a start of {@code server} with {@code options} lacks, as the commands that install it; empty where nothing. */
    List<String> missing(Server server, Options options) throws IOException {
        List<String> missing = new ArrayList<>();
        if (!ServerLaunch.of(server).installed(site())) {
            missing.add("scripts/spice server install " + server.base().id() + (Programs.root() ? "" : " (as root:"
                    + " it installs with apt)"));
        }
        if (options.threads().equals("virtual") && !Jdks.virtualThreads()) {
            missing.add("apt-get install openjdk-21-jdk-headless (or any JDK 21 or later under /usr/lib/jvm, or"
                    + " SPICE_JAVA_HOME naming one)");
        }
        return missing;
    }

    /** Installs what {@code server} needs, saying what to {@code out}; 0, or 1 where it could not (said on err). */
    int install(Server server, PrintStream out) throws IOException {
        try {
            ServerLaunch.of(server).install(site(), out);
            return 0;
        } catch (IOException e) {
            err.println("spice server: " + e.getMessage());
            return 1;
        }
    }

    /**
     * Lays out {@code instance}'s run directory, starts it there (in {@code cgroup}, if any) and waits for its answer;
     * its status (0, {@link #NOT_INSTALLED}, 1 for a start that failed, its cause and its logs' last lines said, or
     * {@link #FAILED} where the wait was interrupted), its log files into {@code logs}.
     */
    int launch(Instance instance, Options options, Path cgroup, List<String> logs) throws IOException {
        ServerLaunch launch = ServerLaunch.of(instance.server());
        Site here = site();
        if (!launch.installed(here)) {
            return NOT_INSTALLED;
        }
        Start start = new Start(here, instance, options, cgroup);
        Path run = instance.run();
        try {
            here.user.warnIfRoot(err);
            start.tls.ensure(here);
            launch.launch(start);
        } catch (IOException | java.io.UncheckedIOException e) {
            if (Thread.currentThread().isInterrupted()) {
                return FAILED;
            }
            err.println("spice: " + instance.name() + ": " + e.getMessage());
            tails(launch, run);
            return 1;
        }
        String address = options.localAddress();
        if (!Readiness.answers(address, instance.port(), "/spice/static/spice.html", run.resolve("server.pid"),
                launch::startFailed)) {
            tails(launch, run);
            err.println("spice: " + instance.name() + " did not answer 200 on http://" + address + ":" + instance.port()
                    + "/spice/static/spice.html within " + Site.waitLimitS() + " s (or exited): see the log above");
            return Thread.currentThread().isInterrupted() ? FAILED : 1;
        }
        launch.logs(run).forEach(log -> logs.add(log.toString()));
        return 0;
    }

    /** The embedded server's command line in the foreground (see {@link Servers#foreground}). */
    List<String> foreground(Instance instance, String host, boolean verbose) throws IOException {
        Site here = site();
        Tls tls = new Tls(here.run);
        tls.ensure(here);
        List<String> command = new ArrayList<>(here.user.prefix());
        command.addAll(EmbeddedLaunch.command(here, tls, host, instance.port(), instance.run()));
        command.addAll(List.of("--pid-file", instance.run().resolve("server.pid").toString()));
        if (verbose) {
            command.add("--verbose");
        }
        here.user.warnIfRoot(err);
        here.user.give(instance.run());
        return command;
    }

    private void tails(ServerLaunch launch, Path run) {
        for (Path log : launch.logs(run)) {
            Readiness.tail(log, 25, err);
        }
    }
}
