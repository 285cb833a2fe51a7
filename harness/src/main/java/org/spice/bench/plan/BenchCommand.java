package org.spice.bench.plan;

import org.spice.bench.engine.ClientLimits;
import org.spice.bench.model.BenchSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import org.spice.bench.mix.Mix;
import org.spice.bench.mix.MixFile;
import org.spice.bench.net.Endpoint;
import org.spice.cli.Cli;
import org.spice.page.CanonicalPage;
import org.spice.page.Probe;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code spice bench}: the options of a run, checked here before anything touches the network, then
 * handed to {@link Ladder} as {@link BenchSettings}. The options scripts/spice acts on itself (--server,
 * --workload, --cgi-floor, --no-verify) are declared here too, so that they are checked and documented
 * in one place.
 */
@Command(name = "bench", sortOptions = false, mixinStandardHelpOptions = true,
        description = {"The main job: run the closed-loop ladder (every workload at every client count) against a "
                + "server, print the SPICE table and write results/<time>/ (results.json, runs.csv, report.html).",
            "Without --target, scripts/spice starts the server first (the embedded Tomcat by default) and verifies "
                + "its probes; a probe that answers the wrong bytes is not measured."})
public final class BenchCommand extends Cli.Printing implements Callable<Integer> {

    /** Longest a phase may last: a day. Longer is a typo, not a benchmark. */
    static final double MAX_SECONDS = 86_400;

    @Spec
    CommandSpec spec;

    @Option(names = "--target", paramLabel = "BASE_URL",
            description = "Measure a server that is already running, anywhere: http[s]://HOST[:PORT][/PREFIX].")
    String target;

    @Option(names = "--server", paramLabel = "NAME", description = "Start and measure embedded (default), apache, "
            + "tomcat, jetty, nginx or all (one comparison); repeatable; with --target, the name to record.")
    List<String> servers = new ArrayList<>();

    /** What scripts/spice can start. */
    static final List<String> STARTABLE = List.of("embedded", "apache", "tomcat", "jetty", "nginx", "all");

    @Option(names = "--probes", paramLabel = "LIST", split = ",",
            description = "Probes to measure (default: the server's): ${COMPLETION-CANDIDATES}.")
    List<String> probes;

    @Option(names = "--clients", paramLabel = "LIST", split = ",", description = "Client counts of the ladder (default: 1,2,4,8,16,32,64).")
    List<String> clients;

    @Option(names = "--profile", paramLabel = "NAME", description = "Timing: quick (1 s ramp-up, 3 s window, 0.5 s ramp-down and pause; default) or webbench (30/240/30/30 s, the white paper's).")
    String profile = "quick";

    @Option(names = "--duration", paramLabel = "S", description = "The measured window of each mix, seconds.")
    String duration;

    @Option(names = "--ramp-up", paramLabel = "S", description = "Unmeasured load before each window, seconds.")
    String rampUp;

    @Option(names = "--ramp-down", paramLabel = "S", description = "Load kept on after each window, seconds.")
    String rampDown;

    @Option(names = "--pause", paramLabel = "S", description = "Rest between mixes, seconds.")
    String pause;

    @Option(names = "--warm-up", paramLabel = "S", description = "Unmeasured load before the ladder, seconds (default 2).")
    String warmUp = "2";

    @Option(names = "--keepalive", description = "HTTP/1.1 keep-alive instead of HTTP/1.0 with a connection per request.")
    boolean keepAlive;

    @Option(names = "--repeat", paramLabel = "N", description = "Run the whole ladder N times; the spread is reported.")
    String repeat = "1";

    @Option(names = "--pin", description = "Server on CPU 0, client on CPU 1 (cuts run-to-run spread on a small machine).")
    boolean pin;

    @Option(names = "--mix", paramLabel = "FILE", description = "A weighted workload (harness/mixes/ecommerce.mix documents the format); repeatable.")
    List<Path> mixFiles = new ArrayList<>();

    @Option(names = "--workload", paramLabel = "NAME", description = "static-fileset[:webbench|webstone|specweb99] or ecommerce[:servlet|cgi] (run by scripts/spice).")
    String workload;

    @Option(names = "--baseline", paramLabel = "NAME", description = "What the efficiencies divide by: fileset or file (default: the fileset if it runs).")
    String baseline;

    @Option(names = "--cgi-floor", description = "Also measure what starting the CGI program costs (run by scripts/spice).")
    boolean cgiFloor;

    @Option(names = "--no-verify", description = "Do not verify the probes first (run by scripts/spice).")
    boolean noVerify;

    @Option(names = "--tls-target", paramLabel = "BASE_URL", description = "The HTTPS listener for the tls entries of a mix.")
    String tlsTarget;

    @Option(names = "--trust-cert", paramLabel = "PEM", description = "Trust exactly this certificate for TLS (default: the JDK's CAs).")
    Path trustCert;

    @Option(names = "--tls-resume", description = "Let TLS sessions resume (default: a full handshake per connection, as WebBench).")
    boolean tlsResume;

    @Option(names = "--timeout", paramLabel = "MS", description = "Per-request timeout, milliseconds (default 10000).")
    String timeout = "10000";

    @Option(names = "--latency-bound", paramLabel = "MS", description = "Mean latency bound of the useful peak (default 100).")
    String latencyBound = "100";

    @Option(names = "--server-pid", paramLabel = "LIST", split = ",", description = "The server's processes, for its CPU per request.")
    List<String> serverPids = new ArrayList<>();

    @Option(names = "--engine", paramLabel = "NAME", description = "The load engine: event-loop (SPICE's own, plain HTTP"
            + " and TLS) or jmeter (Apache JMeter, here or on --jmeter-remote engines; probe ladders over plain HTTP).")
    String engine = "event-loop";

    @Option(names = "--jmeter-remote", paramLabel = "HOST:PORT", split = ",", description = "JMeter server engines"
            + " (scripts/spice jmeter-server on each client machine); the clients of a mix are split across them.")
    List<String> jmeterRemotes = new ArrayList<>();

    @Option(names = "--jmeter-home", paramLabel = "DIR", description = "JMeter's home (default: jmeter/target/jmeter, built by Maven).")
    Path jmeterHome;

    @Option(names = "--jmeter-rmi-keystore", paramLabel = "FILE", description = "The PKCS#12 keystore JMeter's RMI uses over TLS,"
            + " shared with the engines, its password in FILE.password (default: run/jmeter/rmi.p12, made by scripts/spice).")
    Path jmeterKeystore;

    @Option(names = "--jmeter-rmi-no-tls", description = "RMI to the JMeter engines without TLS: only for engines on this"
            + " machine (loopback tests).")
    boolean jmeterNoTls;

    @Option(names = "--seed", paramLabel = "N", description = "Seed of the clients' draws from a mix (default 1).")
    String seed = "1";

    @Option(names = "--bytes", paramLabel = "N", description = "The page size the probes were built with (default: this build's).")
    String bytes;

    @Option(names = "--out", paramLabel = "DIR", description = "Where results/<time>/ goes (default: results).")
    Path outDir = Path.of("results");

    @Option(names = "--check", hidden = true, description = "Check the options and stop (scripts/spice runs this before it starts a server).")
    boolean checkOnly;

    @Override
    public Integer call() {
        BenchSettings settings = settings();
        if (checkOnly) {
            return 0;
        }
        return new Ladder(settings, out, err).run();
    }

    /** The settings {@code args} give, or the ParameterException that names the bad option (for tests and --check). */
    public static BenchSettings settings(String... args) {
        BenchCommand command = new BenchCommand();
        new picocli.CommandLine(command).parseArgs(args);
        return command.settings();
    }

    /** Every option checked and turned into settings; a bad one is a ParameterException that names it. */
    BenchSettings settings() {
        Cli.Checks check = new Cli.Checks(spec);
        if (target == null && !checkOnly) {
            throw check.fail("--target: give the server's base URL, e.g. --target http://127.0.0.1:18080");
        }
        Endpoint base = endpoint(check, target != null ? target : "http://127.0.0.1:1", "--target");
        BenchSettings.Builder b = BenchSettings.builder(base);
        if (tlsTarget != null) {
            Endpoint tls = endpoint(check, tlsTarget, "--tls-target");
            if (!tls.tls()) {
                throw check.fail("--tls-target: must be an https:// URL, not " + tlsTarget);
            }
            b.tlsTarget(tls);
        }
        List<Mix> mixes = new ArrayList<>();
        if (probes != null) {
            for (Probe probe : check.probes(probes)) {
                mixes.add(Mix.of(probe));
            }
        }
        for (Path file : mixFiles) {
            mixes.add(mixFile(check, file));
        }
        if (probes == null && mixFiles.isEmpty()) {
            Probe.standard().forEach(p -> mixes.add(Mix.of(p)));
        }
        if (mixes.stream().map(Mix::name).distinct().count() < mixes.size()) {
            throw check.fail("--mix: two workloads are named the same; rename a mix file");
        }
        mixes.forEach(b::mix);
        if (clients != null) {
            b.clients(check.clientCounts(clients));
        }
        BenchSettings.Profile timing = check.choice("--profile", profile, BenchSettings.Profile.class);
        b.profile(timing);
        b.rampUp(duration(check, "--ramp-up", rampUp, timing.rampUpS, true));
        b.duration(duration(check, "--duration", duration, timing.durationS, false));
        b.rampDown(duration(check, "--ramp-down", rampDown, timing.rampDownS, true));
        b.pause(duration(check, "--pause", pause, timing.pauseS, true));
        b.warmUp(duration(check, "--warm-up", warmUp, 2, true));
        if (target == null) {
            for (String server : servers) {
                if (!STARTABLE.contains(server)) {
                    throw check.fail("--server takes embedded, apache, tomcat, jetty, nginx or all, not \"" + server + "\"");
                }
            }
        }
        b.keepAlive(keepAlive).pin(pin).tlsResume(tlsResume).outDir(outDir)
                .serverName(servers.isEmpty() ? null : String.join(", ", servers));
        b.repeat((int) check.whole("--repeat", repeat, 1, 1000));
        b.timeoutMillis((int) check.whole("--timeout", timeout, 1, 3_600_000));
        double bound = check.number("--latency-bound", latencyBound, false);
        b.latencyBoundMs(bound);
        if (baseline != null) {
            b.baseline(check.choice("--baseline", baseline, BenchSettings.Baseline.class));
        }
        List<Long> pids = new ArrayList<>();
        for (String pid : serverPids) {
            pids.add(check.whole("--server-pid", pid, 1, Long.MAX_VALUE));
        }
        b.serverPids(pids);
        BenchSettings.Engine chosen = check.choice("--engine", engine, BenchSettings.Engine.class);
        b.engine(chosen);
        if (chosen == BenchSettings.Engine.JMETER) {
            b.jmeter(jmeter(check));
        } else if (!jmeterRemotes.isEmpty() || jmeterHome != null || jmeterKeystore != null || jmeterNoTls) {
            throw check.fail("the --jmeter-... options go with --engine jmeter");
        }
        b.seed(check.whole("--seed", seed, Long.MIN_VALUE, Long.MAX_VALUE));
        b.bytes(bytes == null ? CanonicalPage.builtBytes() : check.whole("--bytes", bytes, 0, Integer.MAX_VALUE));
        if (trustCert != null) {
            if (!Files.isReadable(trustCert)) {
                throw check.fail("--trust-cert: cannot read " + trustCert);
            }
            b.trustCert(trustCert);
        }
        if (workload != null && !workload.matches("static-fileset(:(webbench|webstone|specweb99))?|ecommerce(:(servlet|cgi))?")) {
            throw check.fail("--workload: static-fileset[:webbench|webstone|specweb99] or ecommerce[:servlet|cgi], not \""
                    + workload + "\"");
        }
        BenchSettings settings = b.build();
        for (Mix mix : settings.mixes()) {
            if (mix.hasTls() && settings.tlsTarget() == null && workload == null) {
                throw check.fail("--tls-target: mix \"" + mix.name() + "\" has tls entries; give the TLS base URL,"
                        + " e.g. --tls-target https://127.0.0.1:18443");
            }
        }
        if (chosen == BenchSettings.Engine.JMETER) {
            if (settings.keepAlive()) {
                throw check.fail("--keepalive: the jmeter engine sends a connection per request, as SPICE's method");
            }
            for (Mix mix : settings.mixes()) {
                String why = org.spice.bench.jmeter.TestPlan.unsupported(mix);
                if (why != null) {
                    throw check.fail("--engine jmeter: " + why);
                }
            }
            if (settings.target().tls()) {
                throw check.fail("--engine jmeter: the target is https; the jmeter engine runs plain HTTP probes");
            }
        }
        String limit = ClientLimits.refusal(settings.maxClients(), settings.keepAlive());
        if (limit != null) {
            throw check.fail("--clients: " + limit);
        }
        return settings;
    }

    /** Where JMeter is and how it reaches its engines, checked before anything runs. */
    private BenchSettings.JMeter jmeter(Cli.Checks check) {
        Path root = projectRoot();
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

    /** The checkout this harness was built in (harness/target/spice-harness.jar or harness/target/classes). */
    static Path projectRoot() {
        try {
            Path code = Path.of(BenchCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return code.getParent().getParent().getParent();
        } catch (java.net.URISyntaxException | RuntimeException e) {
            return Path.of(".");
        }
    }

    private static double duration(Cli.Checks check, String option, String value, double byProfile, boolean zero) {
        if (value == null) {
            return byProfile;
        }
        double seconds = check.number(option, value, zero);
        if (seconds > MAX_SECONDS) {
            throw check.fail(option + " takes at most " + (long) MAX_SECONDS + " seconds (a day), not \"" + value + "\"");
        }
        return seconds;
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
