package org.spice.commands;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;

import org.spice.bench.analysis.CrossFigures;
import org.spice.bench.engine.ClientLimits;
import org.spice.bench.mix.Mix;
import org.spice.bench.model.Arm;
import org.spice.bench.model.BenchSettings;
import org.spice.bench.model.Load;
import org.spice.bench.model.Protocol;
import org.spice.bench.model.Runner;
import org.spice.bench.model.Server;
import org.spice.bench.model.ServerSide;
import org.spice.bench.model.Target;
import org.spice.bench.model.Timing;
import org.spice.bench.net.Endpoint;
import org.spice.bench.plan.BenchPlan;
import org.spice.bench.plan.PlanCommands;
import org.spice.bench.plan.Workloads;
import org.spice.cli.Cli;
import org.spice.cli.Options;
import org.spice.page.Probe;

import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code spice bench}: the typed options of a run (picocli converts and checks each value), the rules between them
 * ({@link #check}), and the one place the settings of a run are made ({@link #settings(BenchPlan.Started, List, List)}); then
 * {@link BenchPlan} starts the servers, verifies and measures. Nothing touches the network or starts a server before
 * every option has been checked.
 */
@Command(name = "bench", sortOptions = false, mixinStandardHelpOptions = true,
        description = {"The main job: start a server (the embedded Tomcat by default), verify its probes, run the "
                + "closed-loop ladder (every workload at every client count), print the SPICE table and write "
                + "results/<time>/ (results.json, runs.csv, report.html).",
            "With --target, measure a server that is already running instead. Results go to stdout; progress, "
                + "warnings and errors to stderr."})
public final class BenchCommand extends Cli.Printing implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    TargetOptions target;

    @Option(names = "--server", paramLabel = "NAME", split = ",", description = "Start and measure embedded (default), "
            + "apache, tomcat, jetty, nginx, a variant (apache-prefork, tomcat-vt, jetty-vt) or all (the four); "
            + "comma-separated or repeated. Several run side by side, measured in the same rounds (a name twice: two "
            + "instances, an A/A); with --target, the name to record.")
    List<String> servers = new ArrayList<>();

    @Option(names = "--one-at-a-time", description = "With several servers: start, measure and stop one after the other"
            + " (for a machine short of memory), instead of all at once, measured side by side in the same rounds.")
    boolean oneAtATime;

    @Option(names = "--restarts", paramLabel = "N", description = "Servers side by side: start them N times, each start"
            + " measured in its own rounds, and take the cross ratios over the starts, so that what differs from one"
            + " start of a server to the next is in their intervals (default 1; the ladder runs in the last start).")
    int restarts = 1;

    @Option(names = "--probes", paramLabel = "LIST", split = ",", converter = Converters.ProbeId.class,
            description = "Probes to measure (default: the server's; with --target: those it serves byte for byte, as"
            + " verify finds them, cgi-stock only when named; with --target and --no-verify: static, servlet, jsp, cgi,"
            + " shtml, module).")
    List<Probe> probes;

    @Option(names = "--clients", paramLabel = "LIST", split = ",", converter = Converters.ClientCount.class,
            description = "Client counts of the ladder (default: 1,2,4,8,16,32,64).")
    List<Integer> clients;

    @Mixin
    TimingOptions timing;

    @Mixin
    FloodOptions flood;

    @Option(names = "--keepalive", description = "HTTP/1.1 keep-alive instead of HTTP/1.0 with a connection per request.")
    boolean keepAlive;

    @Option(names = "--protocols", paramLabel = "LIST", split = ",", converter = Converters.ProtocolName.class,
            description = "Measure each server under each of these side by side, in the same rounds: http1.0 (a"
                    + " connection per request), keepalive, tls (HTTPS, a connection per request), h2 (HTTP/2 over TLS)"
                    + " and h2c (HTTP/2 in clear), each HTTP/2 arm over --connections × --streams; the ladder runs the"
                    + " first, http1.0 or keepalive (default: http1.0, or keepalive with --keepalive).")
    List<Protocol> protocols;

    @Mixin
    Http2Options http2;

    @Option(names = "--pairs", paramLabel = "A/B", split = ",", description = "Side by side: the comparisons to make"
            + " and wait for, each A/B (arm A against arm B on every probe both run) or probe@A/probe@B (one probe"
            + " against another: php-fpm@apache/mod-php@apache-prefork); an arm is a server's name (tomcat-2 for the"
            + " second tomcat), with several --protocols name:protocol (default: every pair of arms). One server:"
            + " probes to compare at one load, each PROBE/PROBE (cgi/fastcgi): the faster one's slices also run at the"
            + " slower one's rate.")
    List<String> pairs = new ArrayList<>();

    @Mixin
    OpenLoopOptions openLoop;

    @Option(names = "--repeat", paramLabel = "N", description = "Run the whole ladder N times; the spread is reported.")
    int repeat = 1;

    @Option(names = "--mix", paramLabel = "FILE", converter = Converters.MixFileReader.class,
            description = "A weighted workload (harness/mixes/ecommerce.mix documents the format); repeatable.")
    List<Mix> mixFiles = new ArrayList<>();

    @Option(names = "--workload", paramLabel = "NAME", converter = Converters.WorkloadName.class, description = "The white"
            + " paper's: static-fileset[:webbench|webstone|specweb99] (the probes and a static fileset) or"
            + " ecommerce[:servlet|cgi] (the e-commerce mix over TLS).")
    String workload;

    @Option(names = "--baseline", paramLabel = "NAME", converter = Converters.BaselineName.class,
            description = "What the efficiencies divide by: fileset or file (default: the fileset if it runs).")
    Load.Baseline baseline = Load.Baseline.AUTO;

    @Option(names = "--cgi-floor", description = "Then measure what starting the CGI program costs, against the CGI figures.")
    boolean cgiFloor;

    @Option(names = "--no-verify", description = "Do not verify the probes before measuring them.")
    boolean noVerify;

    @Mixin
    TlsOptions tls;

    @Mixin
    Options.Timeout timeout;

    @Option(names = "--latency-bound", paramLabel = "MS", converter = Converters.Positive.class,
            description = "Mean latency bound of the useful peak (default 100).")
    double latencyBound = 100;

    @Mixin
    ServerCpuOptions serverCpu;

    @Mixin
    CpuOptions cpu;

    @Option(names = "--engine", paramLabel = "NAME", converter = Converters.EngineName.class, description = "The load"
            + " engine: event-loop (SPICE's own, plain HTTP and TLS) or jmeter (Apache JMeter, here or on --jmeter-remote"
            + " engines; probe ladders over plain HTTP).")
    Runner.Engine engine = Runner.Engine.EVENT_LOOP;

    @ArgGroup(exclusive = false, heading = "With --engine jmeter:%n")
    JMeterOptions jmeter;

    @Option(names = "--seed", paramLabel = "N", description = "Seed of the clients' draws from a mix and of random"
            + " arrivals (default 1).")
    long seed = 1;

    @Mixin
    Options.PageBytes pageBytes;

    @Option(names = "--out", paramLabel = "DIR", description = "Where results/<time>/ goes (default: results).")
    Path outDir = Path.of("results");

    /**
     * A mixin of options that results.json records and the run does not read: its record's components are kept by
     * name under {@code settings}, beside those of the groups the run reads. A mixin added to the command (a
     * {@code @Mixin} field, or picocli's {@code addMixin}) that implements this needs nothing else.
     */
    public interface Recorded {
        /** What the options say, as results.json keeps it (Jackson, names in snake case). */
        Record settings();
    }

    @Override
    public Integer call() {
        settings();
        BenchPlan.Choices choices = new BenchPlan.Choices(workload, outDir, sideBySide(), findsProbes(), targets(),
                protocols(), pairs, restarts, this::settings);
        return new BenchPlan(choices, startedServers(), !noVerify, cgiFloor, PlanCommands.projectRoot(),
                out, err).run();
    }

    /** The settings {@code args} give, or the ParameterException that names the bad option (for tests). */
    public static BenchSettings settings(String... args) {
        BenchCommand command = new BenchCommand();
        new CommandLine(command).parseArgs(args);
        return command.settings();
    }

    /** Every option checked, as the settings of the first run (the first server started, on its default port). */
    BenchSettings settings() {
        List<Server> started = startedServers();
        return settings(started.isEmpty() ? targets().get(0) : new BenchPlan.Started(started.get(0), started.get(0).id(),
                started.get(0).defaultPort(), List.of(), null, outDir), List.of(), null);
    }

    /**
     * The settings of one run, the one place they are made: on a server started here or at a --target; {@code named}
     * are the named workload's mixes, measured after the probes; {@code served} the probes a target was found to serve
     * byte for byte ({@link BenchPlan}), measured when none are named, or null.
     */
    public BenchSettings settings(BenchPlan.Where where, List<Mix> named, List<Probe> served) {
        Cli.Checks check = new Cli.Checks(spec);
        BenchPlan.Started started = where instanceof BenchPlan.Started s ? s : null;
        BenchPlan.Deployed deployed = where instanceof BenchPlan.Deployed d ? d : null;
        Server.Ports ports = started == null ? null : started.server().ports(started.port());
        Endpoint base = started == null ? deployed.base() : endpoint("http://127.0.0.1:" + ports.http());
        List<Mix> mixes = mixes(started == null ? null : started.server(), named, served);
        Target to = tls.target(base, started == null ? null : endpoint("https://127.0.0.1:" + ports.https()),
                started == null ? null : PlanCommands.projectRoot().resolve(BenchPlan.TLS_CERT),
                protocols().get(0) == Protocol.KEEPALIVE, timeout.value(), ports == null || ports.h2c() == ports.http()
                || ports.h2c() < 0 ? null : endpoint("http://127.0.0.1:" + ports.h2c()), http2.multiplex(check,
                protocols()));
        Load load = new Load(mixes, pageBytes.value(), baseline, ladder(), repeat, latencyBound);
        ServerSide server = serverCpu.side(where, servers.isEmpty() ? null : String.join(", ", servers));
        Runner runner = new Runner(engine, engine == Runner.Engine.JMETER ? JMeterOptions.settings(check, jmeter,
                PlanCommands.projectRoot()) : null, seed, openLoop.arrivals, started != null ? started.outDir()
                : deployed.outDir() != null ? deployed.outDir() : outDir);
        BenchSettings settings = new BenchSettings(to, load, timing.timing(), server, runner, cpu.rounds(mixes.size(),
                sideBySide(), engine == Runner.Engine.EVENT_LOOP && timing.profile != Timing.Profile.LATENCY)
                .withPairs(sideBySide() ? List.of() : pairs),
                openLoop.open(), openLoop.latency(check, timing.profile, cpu), openLoop.cost(check, timing.profile),
                flood.flood(check, timing.profile), spec.mixins().values().stream().map(CommandSpec::userObject)
                .filter(Recorded.class::isInstance).map(o -> ((Recorded) o).settings()).toList());
        check(check, settings);
        return settings;
    }

    /** The servers to start: none with --target; else those named (all: every real one), the embedded by default. */
    List<Server> startedServers() {
        if (target.any()) {
            return List.of();
        }
        List<Server> started = new ArrayList<>();
        for (String name : servers.isEmpty() ? List.of(Server.EMBEDDED.id()) : servers) {
            List<Server> named = name.equals("all") ? Server.real() : List.of(Server.find(name).orElseThrow(() ->
                    new Cli.Checks(spec).fail("--server takes " + Server.ids() + " or all, not \"" + name + "\"")));
            named.stream().filter(s -> !oneAtATime || !started.contains(s)).forEach(started::add);
        }
        return started;
    }

    /**
     * The workloads of a run, decided here only: the probes named, else a named workload's, else the server's (the
     * standard ones on --target); then the mix files and the named workload's mixes.
     */
    List<Mix> mixes(Server server, List<Mix> named, List<Probe> served) {
        List<Probe> chosen = probes != null ? probes : served;
        if (chosen == null) {
            chosen = Workloads.probes(workload);
        }
        if (chosen == null) {
            boolean mixFilesAlone = server == null && !mixFiles.isEmpty() && workload == null;
            chosen = server != null ? server.benchProbes() : mixFilesAlone ? List.of() : Probe.standard();
        }
        if (server != null && probes != null && startedServers().size() > 1 && !oneAtATime) {
            // side by side, each server measures the probes named that it serves (mod-php on prefork alone)
            chosen = chosen.stream().filter(server.probes()::contains).toList();
        }
        List<Mix> mixes = new ArrayList<>();
        chosen.forEach(p -> mixes.add(Mix.of(p)));
        mixes.addAll(mixFiles);
        mixes.addAll(named);
        return mixes;
    }

    /**
     * Whether bench measures what --target serves: no probes, workload or mix file named, and verify not skipped (the
     * probes verify finds are then the run's).
     */
    boolean findsProbes() {
        return target.any() && !noVerify && probes == null && workload == null && mixFiles.isEmpty();
    }

    /** The protocols of the run, in order: --protocols, else the one --keepalive names. */
    List<Protocol> protocols() {
        return protocols != null ? protocols : List.of(keepAlive ? Protocol.KEEPALIVE : Protocol.HTTP10);
    }

    /**
     * Whether the run measures arms side by side: several servers or targets (unless one at a time), or one under
     * several protocols.
     */
    boolean sideBySide() {
        return !oneAtATime && (target.several() || startedServers().size() > 1 || protocols().size() > 1);
    }

    /** The --target servers, each with its name: the one given, else (one target) --server's; none without --target. */
    List<BenchPlan.Deployed> targets() {
        return target.named(servers);
    }

    private List<Integer> ladder() {
        return clients != null ? clients : flood.ladder() != null ? flood.ladder() : List.of(1, 2, 4, 8, 16, 32, 64);
    }

    /** The rules between options, and what their types cannot say; each a usage error that names the option. */
    private void check(Cli.Checks check, BenchSettings settings) {
        if (settings.timing().durationS() <= 0) {
            throw check.fail("--duration takes a number above 0, not " + settings.timing().durationS());
        }
        if (repeat < 1 || repeat > 1000) {
            throw check.fail("--repeat takes a whole number from 1 to 1000, not " + repeat);
        }
        if (settings.load().mixes().stream().map(Mix::name).distinct().count() < settings.load().mixes().size()) {
            throw check.fail("--mix: two workloads are named the same; rename a mix file");
        }
        target.check(check, servers, oneAtATime, restarts);
        serverCpu.check(check, settings, targets());
        tls.check(check, settings, Workloads.tls(workload));
        JMeterOptions.check(check, settings, jmeter, Workloads.tls(workload));
        checkSideBySide(check, settings);
        String limit = ClientLimits.refusal(settings.load().maxClients(), settings.target().keepAlive());
        if (limit != null) {
            throw check.fail("--clients: " + limit);
        }
    }

    /** The rules of arms side by side: servers, protocols, restarts, and what such a run cannot do. */
    private void checkSideBySide(Cli.Checks check, BenchSettings settings) {
        if (protocols != null && (keepAlive || protocols.stream().distinct().count() < protocols.size()
                || protocols.get(0) == Protocol.TLS || protocols.get(0).http2())) {
            throw check.fail("--protocols: each once, the first http1.0 or keepalive (the ladder's), and without"
                    + " --keepalive (name keepalive first instead), not " + protocols);
        }
        if (protocols().stream().anyMatch(Protocol::http2)) {
            startedServers().stream().filter(s -> s.ports(s.defaultPort()).h2c() < 0).findFirst().ifPresent(s -> {
                throw check.fail("--protocols h2, h2c: " + s.id() + " serves no HTTP/2 (mod_http2 needs a threaded"
                        + " MPM)");
            });
        }
        if (protocols != null && protocols.size() > 1 && (target.any() || oneAtATime)) {
            throw check.fail("--protocols: several are measured side by side, on servers bench starts (not with --target"
                    + " or --one-at-a-time)");
        }
        checkPairs(check, settings);
        openLoop.check(check, settings, sideBySide());
        cpu.check(check, settings);
        if (restarts < 1 || restarts > 20) {
            throw check.fail("--restarts takes a whole number from 1 to 20, not " + restarts);
        }
        if (restarts > 1 && !sideBySide()) {
            throw check.fail("--restarts: starts are compared side by side: name several servers (a server twice for an"
                    + " A/A) or several --protocols");
        }
        if (sideBySide()) {
            for (Probe probe : probes == null || target.any() ? List.<Probe>of() : probes) {
                if (startedServers().stream().noneMatch(s -> s.probes().contains(probe))) {
                    throw check.fail("--probes: none of the servers serves " + probe.id());
                }
            }
            if (engine != Runner.Engine.EVENT_LOOP) {
                throw check.fail("--engine " + engine + ": servers side by side run on SPICE's own engine; "
                        + target.oneAfterAnother());
            }
            if (settings.load().mixes().stream().anyMatch(Mix::hasTls)) {
                throw check.fail("servers side by side run plain HTTP, and a workload here has TLS entries; "
                        + target.oneAfterAnother());
            }
        }
    }

    /** Each --pairs entry names two arms of the run and probes each measures (one server: two of its probes). */
    private void checkPairs(Cli.Checks check, BenchSettings settings) {
        if (pairs.isEmpty()) {
            return;
        }
        if (!sideBySide()) {
            ProbePairs.check(check, pairs, settings.load().mixes().stream().map(Mix::name).toList(),
                    settings.cpuRoundsRun() && settings.cpu().openLoop());
            return;
        }
        List<Server> started = startedServers();
        List<String> names = BenchPlan.instanceNames(started);
        Map<String, Server> arms = new LinkedHashMap<>();
        for (int i = 0; i < started.size(); i++) {
            for (Protocol protocol : protocols()) {
                arms.put(Arm.of(names.get(i), protocol, protocols().size() > 1).name(), started.get(i));
            }
        }
        targets().forEach(t -> arms.put(t.name(), null));   // a target's probes are known once it is asked
        for (String spec : pairs) {
            CrossFigures.Pair pair;
            try {
                pair = CrossFigures.Pair.parse(spec);
            } catch (IllegalArgumentException e) {
                throw check.fail("--pairs: " + e.getMessage());
            }
            for (String[] side : new String[][] {{pair.a(), pair.probeA()}, {pair.b(), pair.probeB()}}) {
                Server server = arms.get(side[0]);
                if (!arms.containsKey(side[0])) {
                    throw check.fail("--pairs " + spec + ": no arm " + side[0] + " in this run; its arms are "
                            + String.join(", ", arms.keySet()));
                }
                if (side[1] != null && server != null && mixes(server, List.of(), null).stream().noneMatch(m -> m.name().equals(side[1]))) {
                    throw check.fail("--pairs " + spec + ": " + side[0] + " does not measure " + side[1]
                            + " here (--probes)");
                }
            }
            if (pair.a().equals(pair.b()) && Objects.equals(pair.probeA(), pair.probeB())) {
                throw check.fail("--pairs " + spec + ": an arm against itself");
            }
        }
    }

    private static Endpoint endpoint(String url) {
        return Endpoint.parse(url);
    }
}
