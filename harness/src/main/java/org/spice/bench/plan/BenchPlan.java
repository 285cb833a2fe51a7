package org.spice.bench.plan;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.spice.bench.analysis.ResultsFiles;
import org.spice.bench.mix.Mix;
import org.spice.bench.model.BenchSettings;
import org.spice.bench.model.CpuRounds;
import org.spice.bench.model.Protocol;
import org.spice.bench.model.Results;
import org.spice.bench.model.ResultsJson;
import org.spice.bench.model.Server;
import org.spice.bench.net.Endpoint;
import org.spice.bench.report.CompareReport;
import org.spice.bench.report.Comparison;
import org.spice.bench.run.BenchRun;
import org.spice.bench.run.Recorder;
import org.spice.bench.run.SideBySide;
import org.spice.bench.run.Signals;
import org.spice.cgifloor.FloorRun;
import org.spice.page.Probe;
import org.spice.servers.Servers;
import org.spice.verify.ServedProbes;

/**
 * What one {@code spice bench} does, in order: several servers side by side ({@link SideBySide}) unless asked one at a
 * time; else for each server to measure, start it (through scripts/spice), verify the probes it will measure (a probe that answers the wrong bytes is not timed, and verifying warms
 * the server: Jasper compiles the 100 JSP pages), run the ladder, stop it; then the comparison when several
 * servers ran, and the CGI floor when asked. With --target, the server is already running: verify and measure (several
 * targets: side by side, {@link #deployments}). Servers started here are stopped whatever happens, a signal included.
 */
public final class BenchPlan {

    /** The self-signed certificate scripts/spice makes for the servers it starts (run/tls). */
    public static final String TLS_CERT = "run/tls/server.pem";
    private static final String FILESET = "run/fileset";
    /** A second instance of a server (or a variant beside its base) listens this far above the first. */
    public static final int SECOND_PORT_STEP = 10;

    /**
     * A server started here: which, the name its results carry (its id; a second instance's is told apart), on which
     * port, its processes and cgroup (null: none), where its results go.
     */
    public record Started(Server server, String name, int port, List<Long> pids, Path cgroup, Path outDir)
            implements Where {
    }

    /**
     * A server already running, at a --target: the name its results and arms carry (null: --server's, or none) and
     * its base URL; {@code outDir}, where its results go (null: --out).
     */
    public record Deployed(String name, Endpoint base, Path outDir) implements Where {

        /** This target, its results to go into {@code dir}. */
        public Deployed into(Path dir) {
            return new Deployed(name, base, dir);
        }
    }

    /** Where a run's server is: started here, or already running at a --target. */
    public sealed interface Where permits Started, Deployed {
    }

    /**
     * The names of the servers started, in order, as their results and arms carry them: a server's id, the second and
     * later instance of one its id and its count ({@code tomcat-2}).
     */
    public static List<String> instanceNames(List<Server> servers) {
        Map<String, Integer> seen = new HashMap<>();
        return servers.stream().map(s -> {
            int n = seen.merge(s.id(), 1, Integer::sum);
            return n == 1 ? s.id() : s.id() + "-" + n;
        }).toList();
    }

    /**
     * What the plan takes from the command line: the choices that shape it, and how each run's settings are made.
     *
     * @param findsProbes whether a --target's probes are those verify finds it serves
     * @param settings    the settings of each run ({@code BenchCommand.settings})
     */
    public record Choices(String workload, Path outDir, boolean sideBySide, boolean findsProbes,
            List<Deployed> targets, List<Protocol> protocols, List<String> pairs, int restarts, RunSettings settings) {
    }

    /** The settings of one run, every option checked. */
    public interface RunSettings {
        /**
         * On a server started here or at a --target; {@code named}: the named workload's mixes; {@code served}: the
         * probes a target was found to serve, or null.
         */
        BenchSettings of(Where where, List<Mix> named, List<Probe> served);
    }

    private final Choices command;
    private final List<Server> servers;
    private final TargetChecks checks;
    private final boolean cgiFloor;
    private final Path root;
    private final PrintStream out;
    private final PrintStream err;
    private final Servers life;
    /** A server started here, on its port: what must be stopped whatever happens. */
    private record Running(Server server, int port) {
    }

    private final Set<Running> running = new LinkedHashSet<>();

    public BenchPlan(Choices command, List<Server> servers, boolean verify, boolean cgiFloor, Path root, PrintStream out,
            PrintStream err) {
        this.command = command;
        this.servers = servers;
        this.checks = new TargetChecks(verify, err);
        this.cgiFloor = cgiFloor;
        this.root = root;
        this.out = out;
        this.err = err;
        // a start's summary to stderr: stdout carries results only
        this.life = new Servers(root, err, err);
    }

    /** @return the exit status: 0 only if every step succeeded */
    public int run() {
        Thread stopAll = new Thread(this::stopRunning, "spice-stop-servers");
        Runtime.getRuntime().addShutdownHook(stopAll);
        try {
            List<Mix> named = command.workload() == null ? List.of() : Workloads.load(command.workload(), root.resolve(FILESET));
            return servers.isEmpty() && command.targets().size() > 1 ? deployments(named)
                    : servers.isEmpty() ? target(named, command.targets().get(0))
                    : command.sideBySide() ? sideBySide(named) : servers(named);
        } catch (IOException e) {
            err.println("spice bench: " + e.getMessage());
            return 1;
        } finally {
            stopRunning();
            try {
                Runtime.getRuntime().removeShutdownHook(stopAll);
            } catch (IllegalStateException e) {
                // the JVM is already shutting down: the hook runs
            }
        }
    }

    /**
     * A server that is already running, at --target: with no probes named, those it serves byte for byte
     * ({@link #served}), said with those it lacks; else the probes named, verified.
     */
    private int target(List<Mix> named, Deployed target) throws IOException {
        Measured measured = measured(named, target);
        if (measured == null) {
            return 1;
        }
        BenchRun run = BenchRun.alone(measured.settings(), measured.notes(), out, err);
        int status = run.run();
        return floor(status, run.dir() == null ? List.of() : List.of(run.dir()));
    }

    /** A target's settings, and the notes its results carry (the probes it does not serve). */
    private record Measured(BenchSettings settings, List<String> notes) {
    }

    /**
     * What a target will be measured on: the probes it serves byte for byte when none are named (said, with those it
     * lacks), else the probes named, verified; null (and why, on stderr) where it cannot be measured.
     */
    private Measured measured(List<Mix> named, Deployed target) {
        List<String> notes = List.of();
        List<Probe> served = null;
        if (command.findsProbes()) {
            ServedProbes found = checks.served(command.settings().of(target, named, null));
            if (found == null) {
                return null;
            }
            served = found.served();
            notes = found.notMeasured().isEmpty() ? List.of() : List.of("Probes " + target.base() + " does not serve"
                    + " byte for byte, not measured: " + found.notMeasured() + ".");
        }
        BenchSettings settings = command.settings().of(target, named, served);
        return command.findsProbes() || checks.verified(settings) ? new Measured(settings, notes) : null;
    }

    /**
     * Servers already running, at several --target NAME=URL, side by side ({@link SideBySide}): each checked as one
     * target is (the probes it serves, or those named, verified), then measured in the same rounds, its CPU read where
     * its options say (its exporters or its cgroup); then the comparison of their ladders. The same URL under two names
     * is the A/A.
     */
    private int deployments(List<Mix> named) throws IOException {
        Path compare = command.outDir().resolve("compare-" + Recorder.stamp());
        List<BenchRun.Instance> instances = new ArrayList<>();
        for (Deployed target : command.targets()) {
            Measured measured = measured(named, target.into(compare.resolve(target.name())));
            if (measured == null) {
                return 1;
            }
            instances.add(new BenchRun.Instance(target.name(), target.name(), measured.settings(), measured.notes()));
        }
        BenchRun run = BenchRun.sideBySide(instances, new SideBySide.Plan(command.protocols(), command.pairs(), List.of(),
                true, compare), out, err);
        int status = run.run();
        if (run.crossRounds() != null && run.dirs().size() > 1 && status != Signals.INTERRUPTED
                && status != Signals.TERMINATED) {
            status = Math.max(status, compare(run.dirs(), compare, false));
        }
        return floor(status, run.dirs());
    }

    /** Each server in turn; with several, their results side by side in results/compare-TIME/. */
    private int servers(List<Mix> named) throws IOException {
        Path out = command.outDir();
        Path compare = null;
        if (servers.size() > 1) {
            compare = out.resolve("compare-" + Recorder.stamp());
        }
        int status = 0;
        List<Path> dirs = new ArrayList<>();
        for (Server server : servers) {
            int port = server.defaultPort();
            life.start(server, port);
            running.add(new Running(server, port));
            BenchSettings settings = command.settings().of(new Started(server, server.id(), port,
                    life.pids(server, port), life.cgroup(server, port), compare == null ? out : compare.resolve(server.id())),
                    named, null);
            int result = 1;
            if (checks.verified(settings)) {
                BenchRun run = BenchRun.alone(settings, List.of(), this.out, err);
                result = run.run();
                if (run.dir() != null) {
                    dirs.add(run.dir());
                }
            }
            running.remove(new Running(server, port));
            life.stop(server, port);
            status = status != 0 ? status : result;
            if (result == Signals.INTERRUPTED || result == Signals.TERMINATED) {
                return result;
            }
        }
        if (compare != null && dirs.size() > 1) {
            status = Math.max(status, compare(dirs, compare, true));
        }
        return floor(status, dirs);
    }

    /**
     * Every server at once, side by side ({@link SideBySide}): each started on its own port (a server named again, or
     * a variant of one already named, {@link #SECOND_PORT_STEP} above the last of its kind) and in its own cgroup, and
     * verified; then measured in the same rounds; then the comparison of their ladders, as one after the other. With
     * --restarts N the servers are stopped and started again N - 1 times first, each start measured in rounds alone
     * (its results in DIR/start-K/), and the cross ratios are taken over the N starts.
     */
    private int sideBySide(List<Mix> named) throws IOException {
        Path compare = command.outDir().resolve("compare-" + Recorder.stamp());
        List<CpuRounds> earlier = new ArrayList<>();
        BenchRun run = null;
        int status = 0;
        for (int start = 1; start <= command.restarts(); start++) {
            boolean last = start == command.restarts();
            if (command.restarts() > 1) {
                err.println("spice bench: start " + start + " of " + command.restarts() + " of the servers side by side"
                        + (start % 2 == 0 ? ", in the reverse order, instances on one port range trading ports" : ""));
            }
            List<BenchRun.Instance> instances = startAll(named, last ? compare : compare.resolve("start-" + start),
                    start % 2 == 0);
            if (instances == null) {
                return 1;
            }
            run = BenchRun.sideBySide(instances, new SideBySide.Plan(command.protocols(), command.pairs(), earlier, last,
                    compare), out, err);
            status = run.run();
            stopRunning();
            if (status == Signals.INTERRUPTED || status == Signals.TERMINATED || run.crossRounds() == null) {
                return floor(status, run.dirs());
            }
            earlier.add(run.crossRounds());
        }
        if (run.dirs().size() < 2) {
            return floor(status, run.dirs());
        }
        status = Math.max(status, compare(run.dirs(), compare, false));
        return floor(status, run.dirs());
    }

    /**
     * Starts and verifies every server, each one's results to go under {@code into}; null if one does not verify. With
     * {@code swapped} (every second start of --restarts) the servers start in the reverse order, and instances of
     * servers on the same default port trade ports: what differs with a server's position, rather than the server,
     * then differs between starts and lands in the interval across them.
     */
    private List<BenchRun.Instance> startAll(List<Mix> named, Path into, boolean swapped) throws IOException {
        List<String> names = instanceNames(servers);
        int[] ports = ports(servers, swapped);
        BenchRun.Instance[] instances = new BenchRun.Instance[servers.size()];
        for (int k = 0; k < servers.size(); k++) {
            int i = swapped ? servers.size() - 1 - k : k;
            Server server = servers.get(i);
            life.start(server, ports[i]);
            running.add(new Running(server, ports[i]));
            BenchSettings settings = command.settings().of(new Started(server, names.get(i), ports[i],
                    life.pids(server, ports[i]), life.cgroup(server, ports[i]), into.resolve(names.get(i))), named, null);
            if (!checks.verified(settings)) {
                return null;
            }
            instances[i] = new BenchRun.Instance(names.get(i), server.id(), settings);
        }
        return List.of(instances);
    }

    /**
     * Each server's port: its default, the second on the same default port 10 above, and so on; {@code swapped}, the
     * other way round (the last on the default).
     */
    public static int[] ports(List<Server> servers, boolean swapped) {
        int[] ports = new int[servers.size()];
        for (int i = 0; i < servers.size(); i++) {
            int port = servers.get(i).defaultPort();
            long before = servers.subList(0, i).stream().filter(s -> s.defaultPort() == port).count();
            long all = servers.stream().filter(s -> s.defaultPort() == port).count();
            ports[i] = port + SECOND_PORT_STEP * (int) (swapped ? all - 1 - before : before);
        }
        return ports;
    }

    private int floor(int status, List<Path> dirs) throws IOException {
        if (!cgiFloor || dirs.isEmpty()) {
            return status;
        }
        int floor = FloorRun.ofCheckout().run(root, dirs, out, err);
        return status != 0 ? status : floor;
    }

    private synchronized void stopRunning() {
        for (Running each : List.copyOf(running)) {
            life.stop(each.server(), each.port());
            running.remove(each);
        }
    }

    /**
     * The runs' comparison written into {@code into}, as {@code spice compare} writes it, its text printed where
     * {@code print} (servers one after the other; side by side the one answer was printed already): 0, or 1 if it
     * could not be.
     */
    private int compare(List<Path> dirs, Path into, boolean print) {
        try {
            List<Path> files = dirs.stream().map(d -> d.resolve(ResultsJson.FILE)).toList();
            List<Results> read = new ArrayList<>();
            for (Path file : files) {
                read.add(ResultsFiles.read(file));
            }
            String text = CompareReport.write(Comparison.of(files, read), into);
            if (print) {
                out.print(text);
            }
            out.println("comparison: " + into.toAbsolutePath().resolve("compare.html"));
            return 0;
        } catch (IOException e) {
            err.println("spice compare: " + e.getMessage());
            return 1;
        }
    }
}
