package org.spice.servers;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.spice.page.Probe;
import org.spice.bench.model.Server;

/**
 * The life cycle of every server SPICE runs here, the same for all: ports and run directories, a cgroup of its own,
 * the start and the wait for its answer, stopping by PID file (and whatever of SPICE's still listens on its ports),
 * its PIDs, its cgroup, its status. What is each server's own (what it needs installed, how it is laid out and
 * started) is its launcher's ({@link ServerLaunch}, run by {@link Launcher}). Said lines go to {@code err}; a start's summary and a stop's word to
 * {@code out}.
 */
public final class Servers {

    private final Path root;
    private final Launcher launcher;
    private final PrintStream out;
    private final PrintStream err;

    /** The servers of the checkout at {@code root}. */
    public Servers(Path root, PrintStream out, PrintStream err) {
        this.root = real(root);
        this.launcher = new Launcher(this.root, err);
        this.out = out;
        this.err = err;
    }

    /** The checkout's own path, links resolved: what its processes' command lines name (ours()). */
    private static Path real(Path root) {
        try {
            return root.toRealPath();
        } catch (IOException e) {
            return root.toAbsolutePath().normalize();
        }
    }

    /** run/, where every instance has its run directory ({@link Checkout#run}: found once, it may move run/). */
    public Path runRoot() throws IOException {
        return launcher.runDir();
    }

    public Instance instance(Server server, int port) throws IOException {
        return Instance.of(runRoot(), server, port);
    }

    /** What a start of {@code server} lacks, as the commands that install it; empty where nothing. */
    public List<String> missing(Server server) throws IOException {
        return missing(server, Options.fromEnvironment().forServer(server));
    }

    /** What a start of {@code server} with {@code options} lacks (a JDK 21 for virtual threads too). */
    public List<String> missing(Server server, Options options) throws IOException {
        return launcher.missing(server.base(), options);
    }

    /** Installs what {@code server} needs, saying what it did; the installer's exit status. */
    public int install(Server server) throws IOException {
        return launcher.install(server.base(), out);
    }

    /** Starts {@code server} on {@code port} with the environment's options (a variant with its own). */
    public Instance start(Server server, int port) throws IOException {
        return start(server, port, Options.fromEnvironment().forServer(server));
    }

    /**
     * Starts {@code server} on {@code port} with {@code options} and waits until it answers the static file with 200;
     * an IOException that says why where it does not, with nothing of it left running.
     */
    public Instance start(Server server, int port, Options options) throws IOException {
        Instance instance = instance(server, port);
        String name = instance.name();
        String problem = options.problem(server);
        if (problem != null) {
            throw new IOException(name + ": " + problem);
        }
        List<String> missing = launcher.missing(instance.server(), options);
        if (!missing.isEmpty()) {
            throw new IOException(name + " cannot start: what it needs is not installed: " + String.join("; ", missing));
        }
        OptionalLong running = instance.runningPid();
        if (running.isPresent()) {
            throw new IOException(name + " is already running on port " + port + " (pid " + running.getAsLong()
                    + "): scripts/spice server stop " + name + " --port " + port);
        }
        Server row = options.row(instance.server());
        portsFree(options.localAddress(), row.ports(port));
        stopPids(instance);
        Trees.freshLogs(instance.run());
        Files.createDirectories(runRoot().resolve("fileset"));
        Files.writeString(instance.run().resolve("listen"), options.listen() + "\n");
        Path cgroup = Cgroups.make(instance.run(), err);
        List<String> logs = new ArrayList<>();
        int status = Launcher.FAILED;
        try {
            status = launcher.launch(instance, options, cgroup, logs);
        } finally {
            if (status != 0) {   // what it started stops, its cgroup goes, whether it failed or could not run at all
                stopPids(instance);
                Cgroups.remove(instance.run(), err);
            }
        }
        if (status != 0) {
            throw new IOException(status == Launcher.NOT_INSTALLED ? name + " is not installed: run scripts/spice server"
                    + " install " + name : name + " did not start on port " + port + " (see above)");
        }
        summary(instance, options, row, cgroup, logs);
        return instance;
    }

    /** An IOException naming the first of the instance's own ports that something listens on already. */
    private static void portsFree(String address, Server.Ports ports) throws IOException {
        int port = ports.http();
        if (listens(address, port)) {
            throw new IOException("port " + port + " on " + address + " is in use: stop what listens there or choose"
                    + " another with --port N");
        }
        if (listens(address, ports.https())) {
            throw new IOException("port " + ports.https() + " (its HTTPS port) on " + address + " is in use: choose"
                    + " another --port");
        }
        if (ports.h2c() > 0 && ports.h2c() != port && listens(address, ports.h2c())) {
            throw new IOException("port " + ports.h2c() + " (its HTTP/2 port) on " + address + " is in use: choose"
                    + " another --port");
        }
    }

    /** What a start prints: where the server answers, how to check and stop it. */
    private void summary(Instance instance, Options options, Server row, Path cgroup, List<String> logs)
            throws IOException {
        String name = instance.name();
        int port = instance.port();
        String address = options.localAddress();
        Server.Ports ports = row.ports(port);
        OptionalLong pid = instance.runningPid();
        out.println(name + " on http://" + address + ":" + port + " (pid " + (pid.isPresent() ? pid.getAsLong()
                : "not readable") + ", run directory " + instance.run() + ")");
        if (!options.listen().equals("127.0.0.1")) {
            out.println("  listening on " + options.listen() + ":" + port + " and :" + ports.https() + ", not 127.0.0.1,"
                    + " as --listen asked: whatever reaches that address can load this server (its Tomcat backend and"
                    + " FastCGI program stay on 127.0.0.1)");
        }
        out.println(cgroup != null ? "  cgroup: " + cgroup + " (its CPU is the server's: every process it starts, each"
                + " once)" : "  cgroup: none could be made here (root and a writable cgroup hierarchy are needed): bench"
                + " reads its processes instead");
        if (row != instance.server()) {
            out.println("  as " + row.id() + " (" + row.startOption().orElseThrow() + ")");
        }
        String base = "http://" + address + ":" + port;
        for (Probe probe : row.probes()) {
            out.printf("  %-8s %s%s%n", probe.id(), base, probe.describeUrl(""));
        }
        String certificate = "certificate " + runRoot().resolve("tls/server.pem")
                + (address.equals("127.0.0.1") ? "" : ", which names localhost and 127.0.0.1, not " + address);
        out.println("  https: https://" + address + ":" + ports.https() + "/spice/ (" + certificate + ")");
        String probes = row.probes().stream().map(Probe::id).collect(Collectors.joining(","));
        if (ports.h2c() > 0) {
            out.println("  http/2: h2 by ALPN on the https port, h2c with prior knowledge on http://" + address + ":"
                    + ports.h2c());
            out.println("  check over HTTP/2: scripts/spice verify http://" + address + ":" + ports.h2c()
                    + " --http2 --probes " + probes);
        } else {
            out.println("  http/2: none (" + row.id() + ": mod_http2 needs a threaded MPM)");
        }
        out.println("  logs: " + String.join(" ", logs));
        out.println("  check: scripts/spice verify " + base + " --probes " + probes);
        out.println("  stop:  scripts/spice server stop " + name + " --port " + port);
    }

    /**
     * The command line of the embedded server in the foreground on {@code host}:{@code port} ({@code scripts/spice
     * serve}), its run directory, TLS files and served copies made ready: the same run directory and PID file as a start,
     * so that {@code server stop|status embedded --port N} find it too.
     */
    public List<String> foreground(String host, int port, boolean verbose) throws IOException {
        Instance instance = instance(Server.EMBEDDED, port);
        OptionalLong running = instance.runningPid();
        if (running.isPresent()) {
            throw new IOException("the embedded server already runs on port " + port + " (pid " + running.getAsLong()
                    + "): scripts/spice server stop embedded --port " + port);
        }
        return launcher.foreground(instance, host, verbose);
    }

    /** Stops the instance of {@code server} on {@code port}, saying so; never fails (what it could not do, it says). */
    public void stop(Server server, int port) {
        try {
            Instance instance = instance(server, port);
            if (active(instance)) {
                stopInstance(instance);
            } else {
                Cgroups.remove(instance.run(), err);
                out.println(instance.name() + " on port " + port + " is not running");
            }
        } catch (IOException e) {
            err.println("spice: could not stop " + server.id() + " on port " + port + ": " + e.getMessage());
        }
    }

    /** Stops every instance of {@code server} that has a run directory. */
    public void stopAll(Server server) throws IOException {
        boolean stopped = false;
        for (int port : ports(server)) {
            Instance instance = instance(server, port);
            if (active(instance)) {
                stopInstance(instance);
                stopped = true;
            }
        }
        if (!stopped) {
            out.println(server.base().id() + ": no instance is running");
        }
    }

    private void stopInstance(Instance instance) {
        stopPids(instance);
        stopLeftovers(instance);
        Cgroups.remove(instance.run(), err);
        out.println(instance.name() + " on port " + instance.port() + " stopped");
    }

    /** The PIDs of everything a running instance is made of, each once (bench adds up the CPU of their trees). */
    public List<Long> pids(Server server, int port) throws IOException {
        Instance instance = instance(server, port);
        List<Long> pids = new ArrayList<>();
        for (Path file : instance.pidFiles()) {
            OptionalLong pid = Processes.pidIn(file);
            // nginx writes its master's PID twice: nginx.pid and server.pid
            if (pid.isPresent() && Processes.running(pid.getAsLong()) && !pids.contains(pid.getAsLong())) {
                pids.add(pid.getAsLong());
            }
        }
        if (pids.isEmpty()) {
            throw new IOException(instance.name() + " on port " + port + " is not running");
        }
        return pids;
    }

    /** The cgroup a started instance runs in (its CPU is the server's), or null where none could be made. */
    public Path cgroup(Server server, int port) throws IOException {
        Instance instance = instance(server, port);
        if (!Files.isRegularFile(instance.serverPidFile())) {
            throw new IOException(instance.name() + " on port " + port + " is not running");
        }
        return Cgroups.of(instance.run());
    }

    /** Prints an instance's state; 0 if it runs, 4 if only leftovers listen, 3 if nothing does. */
    public int status(Server server, int port) throws IOException {
        List<String> said = new ArrayList<>();
        int status = status(instance(server, port), said);
        said.forEach(out::println);
        return status;
    }

    /** Prints the state of every instance of {@code server} that runs (or left something listening). */
    public void statusAll(Server server) throws IOException {
        boolean found = false;
        for (int port : ports(server)) {
            List<String> said = new ArrayList<>();
            if (status(instance(server, port), said) != 3) {
                said.forEach(out::println);
                found = true;
            }
        }
        if (!found) {
            out.println(server.base().id() + ": not running");
        }
    }

    private int status(Instance instance, List<String> said) {
        String name = instance.name();
        int port = instance.port();
        List<Integer> listening = listening(instance);
        String ports = listening.isEmpty() ? "none" : listening.stream().map(String::valueOf).collect(Collectors.joining(" "));
        OptionalLong pid = instance.runningPid();
        if (pid.isPresent()) {
            String address = instance.address().equals("0.0.0.0") ? "127.0.0.1" : instance.address();
            said.add(name + " on port " + port + ": running (pid " + pid.getAsLong() + "), http://" + address + ":"
                    + port + "/spice/, listening on " + ports);
            return 0;
        }
        if (!listening.isEmpty()) {
            said.add(name + " on port " + port + ": its server process is gone, but ports " + ports + " still answer"
                    + " (leftover workers): scripts/spice server stop " + name + " --port " + port + " ends them");
            return 4;
        }
        said.add(name + " on port " + port + ": not running");
        return 3;
    }

    /** The ports of every instance of {@code server} with a run directory (run/BASE-PORT), started or not. */
    private List<Integer> ports(Server server) throws IOException {
        String prefix = server.base().id() + "-";
        List<Integer> ports = new ArrayList<>();
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(runRoot(), prefix + "*")) {
            for (Path dir : dirs) {
                String rest = dir.getFileName().toString().substring(prefix.length());
                if (Files.isDirectory(dir) && rest.matches("[0-9]{1,5}")) {
                    ports.add(Integer.parseInt(rest));
                }
            }
        } catch (java.nio.file.NoSuchFileException e) {
            return ports;
        }
        ports.sort(Comparator.naturalOrder());
        return ports;
    }

    /** Whether an instance has PID files, or anything of SPICE's listening on its ports. */
    private boolean active(Instance instance) {
        return !instance.pidFiles().isEmpty() || !listening(instance).isEmpty();
    }

    /** The ports of an instance that something of SPICE's still listens on. */
    private List<Integer> listening(Instance instance) {
        return instance.ports().stream().filter(p -> !ours(Processes.listeners(p)).isEmpty()).toList();
    }

    /** Of {@code pids}, SPICE's: those whose command line names this checkout or its run/. */
    private List<Long> ours(List<Long> pids) {
        List<String> marks = Stream.of(root.toString(), runRootOrNull()).filter(m -> m != null).toList();
        return pids.stream().filter(pid -> {
            String line = Processes.commandLine(pid);
            return marks.stream().anyMatch(line::contains);
        }).toList();
    }

    private String runRootOrNull() {
        try {
            return runRoot().toString();
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * Stops every process recorded in the instance's PID files: SIGTERM to all of them at once, up to 30 s for all to
     * finish, then SIGKILL to any left; then the rest of each one's process group (a process started with setsid, or a
     * daemon such as httpd, leads its own: the workers it leaves behind go too, by SIGKILL if they outlive 5 s). All at
     * once, not one after another: uWSGI alone takes a second to bury its threaded workers, and nginx's stop waited
     * that out behind each companion's in turn (2.3 s in all).
     */
    void stopPids(Instance instance) {
        Map<Path, Long> recorded = new LinkedHashMap<>();
        for (Path file : instance.pidFiles()) {
            Processes.pidIn(file).ifPresent(pid -> recorded.put(file, pid));
        }
        List<Long> signalled = recorded.values().stream().distinct().filter(Processes::running).toList();
        signalled.forEach(pid -> Processes.signal(pid, false));
        if (!Processes.await(30, () -> signalled.stream().noneMatch(Processes::running))) {
            recorded.forEach((file, pid) -> {
                if (Processes.running(pid)) {
                    err.println("spice: " + file.getFileName().toString().replace(".pid", "") + " (pid " + pid
                            + ") did not stop in 30 s: killing it");
                    Processes.signal(pid, true);
                }
            });
        }
        List<Long> groups = recorded.values().stream().distinct().filter(Processes::groupRunning).toList();
        groups.forEach(pgid -> Processes.signalGroup("TERM", pgid));
        Processes.await(5, () -> groups.stream().noneMatch(Processes::groupRunning));
        groups.stream().filter(Processes::groupRunning).forEach(pgid -> Processes.signalGroup("KILL", pgid));
        for (Path file : instance.pidFiles()) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                err.println("spice: could not remove " + file + ": " + e.getMessage());
            }
        }
    }

    /**
     * Ends whatever of SPICE's still listens on an instance's ports after its PID files are gone (the workers of an
     * httpd whose parent died keep serving).
     */
    private void stopLeftovers(Instance instance) {
        for (int port : instance.ports()) {
            for (long pid : ours(Processes.listeners(port))) {
                err.println("spice: " + instance.name() + ": pid " + pid + " still listened on port " + port + ": ending it");
                Processes.signal(pid, false);
                Processes.await(0.5, () -> !Processes.running(pid));
                Processes.signal(pid, true);
            }
        }
    }

    /** Whether something listens on {@code address}:{@code port} (a connection is accepted within a second). */
    static boolean listens(String address, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(address, port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
