package org.spice.bench.plan;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import org.spice.bench.engine.ClientLimits;
import org.spice.bench.mix.Mix;
import org.spice.bench.mix.MixFile;
import org.spice.bench.model.BenchSettings;
import org.spice.bench.model.Server;
import org.spice.bench.net.Endpoint;
import org.spice.cli.Cli;
import org.spice.cli.Options;
import org.spice.page.Probe;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code spice bench}: the options of a run, checked here before anything touches the network or starts a
 * server, then handed to {@link BenchPlan}: which servers to start (through scripts/spice), which probes and
 * workloads to measure on each, the verification first, the comparison and the CGI floor after.
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

    @Option(names = "--target", paramLabel = "BASE_URL",
            description = "Measure a server that is already running, anywhere: http[s]://HOST[:PORT][/PREFIX].")
    String target;

    @Option(names = "--server", paramLabel = "NAME", description = "Start and measure embedded (default), apache, "
            + "tomcat, jetty, nginx or all (then one comparison); repeatable; with --target, the name to record.")
    List<String> servers = new ArrayList<>();

    @Option(names = "--probes", paramLabel = "LIST", split = ",",
            description = "Probes to measure (default: the server's; with --target: static, servlet, jsp, cgi, shtml, module).")
    List<String> probes;

    @Option(names = "--clients", paramLabel = "LIST", split = ",", description = "Client counts of the ladder (default: 1,2,4,8,16,32,64).")
    List<String> clients;

    @Option(names = "--profile", paramLabel = "NAME", description = "Timing: quick (1 s ramp-up, 3 s window, 0.5 s"
            + " ramp-down and pause; default), webbench (30/240/30/30 s, the white paper's), or overload (the quick ladder,"
            + " then each workload at 2, 4, 8 and 16 times its peak's clients and its recovery).")
    String profile = "quick";

    @Mixin
    FloodOptions flood;

    @Option(names = "--duration", paramLabel = "S", description = "The measured window of each mix, seconds.")
    Double duration;

    @Option(names = "--ramp-up", paramLabel = "S", description = "Unmeasured load before each window, seconds.")
    Double rampUp;

    @Option(names = "--ramp-down", paramLabel = "S", description = "Load kept on after each window, seconds.")
    Double rampDown;

    @Option(names = "--pause", paramLabel = "S", description = "Rest between mixes, seconds.")
    Double pause;

    @Option(names = "--warm-up", paramLabel = "S", description = "Before the ladder, each workload runs unmeasured until the"
            + " server's CPU per request is steady at the ladder's largest client count (up to 64; 3 one-second slices within 5 %% of their mean), at most S seconds"
            + " each, in rounds over every workload (default 30; 0: no warm-up and no idle measurement).")
    double warmUp = 30;

    @Option(names = "--keepalive", description = "HTTP/1.1 keep-alive instead of HTTP/1.0 with a connection per request.")
    boolean keepAlive;

    @Option(names = "--repeat", paramLabel = "N", description = "Run the whole ladder N times; the spread is reported.")
    int repeat = 1;

    @Option(names = "--pin", description = "Server on CPU 0, client on CPU 1 (cuts run-to-run spread on a small machine).")
    boolean pin;

    @Option(names = "--mix", paramLabel = "FILE", description = "A weighted workload (harness/mixes/ecommerce.mix documents the format); repeatable.")
    List<Path> mixFiles = new ArrayList<>();

    @Option(names = "--workload", paramLabel = "NAME", description = "The white paper's: static-fileset[:webbench|webstone|specweb99] (the probes and a static fileset) or ecommerce[:servlet|cgi] (the e-commerce mix over TLS).")
    String workload;

    @Option(names = "--baseline", paramLabel = "NAME", description = "What the efficiencies divide by: fileset or file (default: the fileset if it runs).")
    String baseline;

    @Option(names = "--cgi-floor", description = "Then measure what starting the CGI program costs, against the CGI figures.")
    boolean cgiFloor;

    @Option(names = "--no-verify", description = "Do not verify the probes before measuring them.")
    boolean noVerify;

    @Option(names = "--tls-target", paramLabel = "BASE_URL", description = "The HTTPS listener for the tls entries of a mix (default for a started server: its port + 360).")
    String tlsTarget;

    @Option(names = "--trust-cert", paramLabel = "PEM", description = "Trust exactly this certificate for TLS (default: the JDK's CAs; for a started server: run/tls/server.pem).")
    Path trustCert;

    @Option(names = "--tls-resume", description = "Let TLS sessions resume (default: a full handshake per connection, as WebBench).")
    boolean tlsResume;

    @Mixin
    Options.Timeout timeout;

    @Option(names = "--latency-bound", paramLabel = "MS", description = "Mean latency bound of the useful peak (default 100).")
    double latencyBound = 100;

    @Option(names = "--server-pid", paramLabel = "LIST", split = ",", description = "With --target: the server's processes on this machine, for its CPU per request.")
    List<Long> serverPids = new ArrayList<>();

    @Option(names = "--server-metrics", paramLabel = "URL[,URL]", split = ",", description = "With --target: the Prometheus"
            + " exporters on the server's machine (scripts/spice metrics-agent start there prints this value): the server's"
            + " CPU is read from them, where it runs.")
    List<String> serverMetrics = new ArrayList<>();

    @Option(names = "--engine", paramLabel = "NAME", description = "The load engine: event-loop (SPICE's own, plain HTTP"
            + " and TLS) or jmeter (Apache JMeter, here or on --jmeter-remote engines; probe ladders over plain HTTP).")
    String engine = "event-loop";

    @Option(names = "--jmeter-remote", paramLabel = "HOST:PORT", split = ",", description = "JMeter server engines"
            + " (scripts/spice jmeter-server on each client machine); the clients of a mix are split across them.")
    List<String> jmeterRemotes = new ArrayList<>();

    @Option(names = "--jmeter-home", paramLabel = "DIR", description = "JMeter's home (default: jmeter/target/jmeter, built by Maven).")
    Path jmeterHome;

    @Option(names = "--jmeter-rmi-keystore", paramLabel = "FILE", description = "The PKCS#12 keystore of JMeter's RMI over TLS,"
            + " shared with the engines (default: run/jmeter/rmi.p12, made by scripts/spice jmeter-server); its password is in"
            + " the file of the same name with \".password\" added.")
    Path jmeterKeystore;

    @Option(names = "--jmeter-rmi-no-tls", description = "RMI to the JMeter engines without TLS: only for engines on this"
            + " machine (loopback tests).")
    boolean jmeterNoTls;

    @Option(names = "--seed", paramLabel = "N", description = "Seed of the clients' draws from a mix (default 1).")
    long seed = 1;

    @Mixin
    Options.PageBytes pageBytes;

    @Option(names = "--out", paramLabel = "DIR", description = "Where results/<time>/ goes (default: results).")
    Path outDir = Path.of("results");

    @Override
    public Integer call() {
        BenchSettings settings = settings();
        return new BenchPlan(settings, startedServers(), probes != null, workload, !noVerify, cgiFloor, PlanCommands.projectRoot(),
                out, err).run();
    }

    /** The settings {@code args} give, or the ParameterException that names the bad option (for tests). */
    public static BenchSettings settings(String... args) {
        BenchCommand command = new BenchCommand();
        new picocli.CommandLine(command).parseArgs(args);
        return command.settings();
    }

    /**
     * Every option checked and turned into the settings of the first run (of the first server started, on its
     * default port, when there is no --target); a bad option is a ParameterException that names it.
     */
    BenchSettings settings() {
        Cli.Checks check = new Cli.Checks(spec);
        List<Server> started = startedServers();
        String base = target != null ? target : "http://127.0.0.1:" + started.get(0).defaultPort();
        BenchSettings.Builder b = BenchSettings.builder(endpoint(check, base, "--target"));
        tls(check, b, started);
        mixes(check, b, started);
        timing(check, b);
        b.keepAlive(keepAlive).pin(pin).tlsResume(tlsResume).outDir(outDir).seed(seed)
                .serverName(target != null ? (servers.isEmpty() ? null : String.join(", ", servers)) : started.get(0).id());
        if (repeat < 1 || repeat > 1000) {
            throw check.fail("--repeat takes a whole number from 1 to 1000, not " + repeat);
        }
        b.repeat(repeat).timeoutMillis(timeout.value()).bytes(pageBytes.value());
        b.latencyBoundMs(check.number("--latency-bound", Double.toString(latencyBound), false));
        if (baseline != null) {
            b.baseline(check.choice("--baseline", baseline, BenchSettings.Baseline.class));
        }
        for (long pid : serverPids) {
            if (pid < 1) {
                throw check.fail("--server-pid takes process ids (whole numbers above 0), not " + pid);
            }
        }
        if (!serverPids.isEmpty() && target == null) {
            throw check.fail("--server-pid goes with --target: a server bench starts is measured by its own processes");
        }
        b.serverPids(serverPids);
        b.serverMetrics(serverMetrics(check));
        BenchSettings.Engine chosen = check.choice("--engine", engine, BenchSettings.Engine.class);
        b.engine(chosen);
        if (chosen == BenchSettings.Engine.JMETER) {
            b.jmeter(jmeter(check));
        } else if (!jmeterRemotes.isEmpty() || jmeterHome != null || jmeterKeystore != null || jmeterNoTls) {
            throw check.fail("the --jmeter-... options go with --engine jmeter");
        }
        BenchSettings settings = b.build();
        checkCombinations(check, settings);
        return settings;
    }

    /** The servers to start: none with --target; else those named (all: every real one), the embedded by default. */
    List<Server> startedServers() {
        if (target != null) {
            return List.of();
        }
        Cli.Checks check = new Cli.Checks(spec);
        List<Server> started = new ArrayList<>();
        for (String name : servers.isEmpty() ? List.of(Server.EMBEDDED.id()) : servers) {
            if (name.equals("all")) {
                Server.real().stream().filter(s -> !started.contains(s)).forEach(started::add);
                continue;
            }
            Server server = Server.find(name).orElseThrow(() -> check.fail("--server takes " + Server.ids()
                    + " or all, not \"" + name + "\""));
            if (!started.contains(server)) {
                started.add(server);
            }
        }
        return started;
    }

    /** The workloads: the probes asked for (or the first server's), the mix files, a named workload's mixes. */
    private void mixes(Cli.Checks check, BenchSettings.Builder b, List<Server> started) {
        try {
            Workloads.parse(workload);
        } catch (IllegalArgumentException e) {
            throw check.fail("--workload: " + e.getMessage());
        }
        List<Mix> mixes = new ArrayList<>();
        if (probes != null) {
            check.probes(probes).forEach(p -> mixes.add(Mix.of(p)));
        } else if (!started.isEmpty() || mixFiles.isEmpty() || workload != null) {
            defaultProbes(started.isEmpty() ? null : started.get(0)).forEach(p -> mixes.add(Mix.of(p)));
        }
        for (Path file : mixFiles) {
            mixes.add(mixFile(check, file));
        }
        if (mixes.stream().map(Mix::name).distinct().count() < mixes.size()) {
            throw check.fail("--mix: two workloads are named the same; rename a mix file");
        }
        mixes.forEach(b::mix);
        if (clients != null) {
            b.clients(check.clientCounts(clients));
        } else if (flood.ladder() != null) {
            b.clients(flood.ladder());
        }
    }

    /** The probes measured when none are named: a named workload's, else the server's, else the standard ones. */
    List<Probe> defaultProbes(Server server) {
        List<Probe> named = Workloads.probes(workload);
        if (named != null) {
            return named;
        }
        return server != null ? server.benchProbes() : Probe.standard();
    }

    private void timing(Cli.Checks check, BenchSettings.Builder b) {
        BenchSettings.Profile timing = check.choice("--profile", profile, BenchSettings.Profile.class);
        b.profile(timing).flood(flood.flood(check, timing));
        b.rampUp(PlanCommands.seconds(check, "--ramp-up", rampUp, timing.rampUpS, true));
        b.duration(PlanCommands.seconds(check, "--duration", duration, timing.durationS, false));
        b.rampDown(PlanCommands.seconds(check, "--ramp-down", rampDown, timing.rampDownS, true));
        b.pause(PlanCommands.seconds(check, "--pause", pause, timing.pauseS, true));
        b.warmUp(PlanCommands.seconds(check, "--warm-up", warmUp, 30, true));
    }

    /** The TLS listener (given, or a started server's) and the certificate to trust. */
    private void tls(Cli.Checks check, BenchSettings.Builder b, List<Server> started) {
        if (tlsTarget != null) {
            Endpoint tls = endpoint(check, tlsTarget, "--tls-target");
            if (!tls.tls()) {
                throw check.fail("--tls-target: must be an https:// URL, not " + tlsTarget);
            }
            b.tlsTarget(tls);
        } else if (!started.isEmpty()) {
            b.tlsTarget(endpoint(check, "https://127.0.0.1:" + started.get(0).ports(started.get(0).defaultPort()).https(),
                    "--tls-target"));
        }
        Path trusted = trustCert != null ? trustCert : !started.isEmpty() ? PlanCommands.projectRoot().resolve(BenchPlan.TLS_CERT) : null;
        if (trustCert != null && !Files.isReadable(trustCert)) {
            throw check.fail("--trust-cert: cannot read " + trustCert);
        }
        b.trustCert(trusted);
    }

    /** What the options allow only together, or not at all together. */
    private void checkCombinations(Cli.Checks check, BenchSettings settings) {
        boolean workloadTls = Workloads.tls(workload);
        if (workloadTls && settings.tlsTarget() == null) {
            throw check.fail("--tls-target: the e-commerce workload on --target needs its HTTPS listener,"
                    + " e.g. --tls-target https://127.0.0.1:18440");
        }
        for (Mix mix : settings.mixes()) {
            if (mix.hasTls() && settings.tlsTarget() == null) {
                throw check.fail("--tls-target: mix \"" + mix.name() + "\" has tls entries; give the TLS base URL,"
                        + " e.g. --tls-target https://127.0.0.1:18443");
            }
        }
        if (settings.engine() == BenchSettings.Engine.JMETER) {
            if (settings.keepAlive()) {
                throw check.fail("--keepalive: the jmeter engine sends a connection per request, as SPICE's method");
            }
            for (Mix mix : settings.mixes()) {
                String why = org.spice.bench.jmeter.TestPlan.unsupported(mix);
                if (why != null) {
                    throw check.fail("--engine jmeter: " + why);
                }
            }
            if (settings.target().tls() || workloadTls) {
                throw check.fail("--engine jmeter: the jmeter engine runs plain HTTP probes, not TLS");
            }
            if (settings.flood() != null) {
                throw check.fail("--profile overload: the flood's steps need windows of their own, which the jmeter"
                        + " engine does not run; use the event-loop engine");
            }
        }
        String limit = ClientLimits.refusal(settings.maxClients(), settings.keepAlive());
        if (limit != null) {
            throw check.fail("--clients: " + limit);
        }
    }

    /** Where JMeter is and how it reaches its engines, checked before anything runs. */
    private BenchSettings.JMeter jmeter(Cli.Checks check) {
        Path root = PlanCommands.projectRoot();
        Path home = jmeterHome != null ? jmeterHome : root.resolve("jmeter/target/jmeter");
        if (!Files.isRegularFile(home.resolve("bin/ApacheJMeter.jar"))) {
            throw check.fail("--engine jmeter: no JMeter in " + home + " (build it: mvn -B package -pl jmeter, or"
                    + " scripts/spice build)");
        }
        for (String remote : jmeterRemotes) {
            if (!remote.matches("[A-Za-z0-9.\\-]+:\\d{1,5}") || Integer.parseInt(remote.substring(remote.lastIndexOf(':') + 1)) > 65535) {
                throw check.fail("--jmeter-remote: HOST:PORT, not \"" + remote + "\"");
            }
        }
        if (jmeterRemotes.isEmpty() || jmeterNoTls) {
            if (jmeterKeystore != null) {
                throw check.fail("--jmeter-rmi-keystore goes with --jmeter-remote and without --jmeter-rmi-no-tls");
            }
            return new BenchSettings.JMeter(home, jmeterRemotes, null, null);
        }
        Path keystore = jmeterKeystore != null ? jmeterKeystore : root.resolve("run/jmeter/rmi.p12");
        Path password = Path.of(keystore + ".password");
        if (!Files.isReadable(keystore) || !Files.isReadable(password)) {
            throw check.fail("--jmeter-rmi-keystore: " + keystore + " or its password " + password + " is missing:"
                    + " scripts/spice jmeter-server makes them; copy both to every client machine"
                    + " (or, for engines on this machine only, --jmeter-rmi-no-tls)");
        }
        try {
            return new BenchSettings.JMeter(home, jmeterRemotes, keystore, Files.readString(password).trim());
        } catch (IOException e) {
            throw check.fail("--jmeter-rmi-keystore: cannot read " + password + ": " + e.getMessage());
        }
    }

    /** The exporters' URLs, checked: absolute http(s) URLs, with --target, not beside --server-pid. */
    private List<java.net.URI> serverMetrics(Cli.Checks check) {
        if (serverMetrics.isEmpty()) {
            return List.of();
        }
        if (target == null) {
            throw check.fail("--server-metrics goes with --target: a server bench starts is measured by its own processes");
        }
        if (!serverPids.isEmpty()) {
            throw check.fail("--server-metrics or --server-pid: the server's CPU is read in one place");
        }
        List<java.net.URI> urls = new ArrayList<>();
        for (String url : serverMetrics) {
            try {
                java.net.URI uri = new java.net.URI(url.trim());
                if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
                    throw new java.net.URISyntaxException(url, "not an http(s) URL with a host");
                }
                urls.add(uri);
            } catch (java.net.URISyntaxException e) {
                throw check.fail("--server-metrics takes exporter URLs such as http://10.0.0.5:9100/metrics, not \"" + url + "\"");
            }
        }
        return urls;
    }

    private static Endpoint endpoint(Cli.Checks check, String url, String option) {
        try {
            return Endpoint.parse(url);
        } catch (IllegalArgumentException e) {
            throw check.fail(option + ": " + e.getMessage());
        }
    }

    private static Mix mixFile(Cli.Checks check, Path file) {
        if (!Files.isReadable(file)) {
            throw check.fail("--mix: cannot read " + file);
        }
        try {
            return MixFile.read(file);
        } catch (IOException e) {
            throw check.fail("--mix: cannot read " + file + ": " + e.getMessage());
        } catch (IllegalArgumentException e) {
            throw check.fail("--mix: " + e.getMessage());
        }
    }
}
