package org.spice.commands;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.spice.bench.jmeter.TestPlan;
import org.spice.bench.mix.Mix;
import org.spice.bench.model.BenchSettings;
import org.spice.bench.model.Runner;
import org.spice.cli.Cli;

import picocli.CommandLine.Option;

/**
 * The options that go with {@code --engine jmeter}, as one picocli argument group: where JMeter is, the engines
 * on other machines, and how RMI reaches them. The group is null unless one of them is given.
 */
final class JMeterOptions {

    @Option(names = "--jmeter-remote", paramLabel = "HOST:PORT", split = ",", description = "JMeter server engines"
            + " (scripts/spice jmeter-server on each client machine); the clients of a mix are split across them.")
    List<String> remotes = new ArrayList<>();

    @Option(names = "--jmeter-home", paramLabel = "DIR", description = "JMeter's home (default: jmeter/target/jmeter, built by Maven).")
    Path home;

    @Option(names = "--jmeter-rmi-keystore", paramLabel = "FILE", description = "The PKCS#12 keystore of JMeter's RMI over TLS,"
            + " shared with the engines (default: run/jmeter/rmi.p12, made by scripts/spice jmeter-server); its password is in"
            + " the file of the same name with \".password\" added.")
    Path keystore;

    @Option(names = "--jmeter-rmi-no-tls", description = "RMI to the JMeter engines without TLS: only for engines on this"
            + " machine (loopback tests).")
    boolean noTls;

    /** Where JMeter is and how it reaches its engines ({@code given} may be null: none of the options), checked. */
    static Runner.JMeter settings(Cli.Checks check, JMeterOptions given, Path root) {
        JMeterOptions o = given != null ? given : new JMeterOptions();
        Path home = o.home != null ? o.home : root.resolve("jmeter/target/jmeter");
        if (!Files.isRegularFile(home.resolve("bin/ApacheJMeter.jar"))) {
            throw check.fail("--engine jmeter: no JMeter in " + home + " (build it: mvn -B package -pl jmeter, or"
                    + " scripts/spice build)");
        }
        for (String remote : o.remotes) {
            if (!remote.matches("[A-Za-z0-9.\\-]+:\\d{1,5}") || Integer.parseInt(remote.substring(remote.lastIndexOf(':') + 1)) > 65535) {
                throw check.fail("--jmeter-remote: HOST:PORT, not \"" + remote + "\"");
            }
        }
        if (o.remotes.isEmpty() || o.noTls) {
            if (o.keystore != null) {
                throw check.fail("--jmeter-rmi-keystore goes with --jmeter-remote and without --jmeter-rmi-no-tls");
            }
            return new Runner.JMeter(home, o.remotes, null, null);
        }
        Path keystore = o.keystore != null ? o.keystore : root.resolve("run/jmeter/rmi.p12");
        Path password = Path.of(keystore + ".password");
        if (!Files.isReadable(keystore) || !Files.isReadable(password)) {
            throw check.fail("--jmeter-rmi-keystore: " + keystore + " or its password " + password + " is missing:"
                    + " scripts/spice jmeter-server makes them; copy both to every client machine"
                    + " (or, for engines on this machine only, --jmeter-rmi-no-tls)");
        }
        try {
            return new Runner.JMeter(home, o.remotes, keystore, Files.readString(password).trim());
        } catch (IOException e) {
            throw check.fail("--jmeter-rmi-keystore: cannot read " + password + ": " + e.getMessage());
        }
    }

    /** What the chosen engine cannot do, as usage errors; {@code given} the group (null if none of its options). */
    static void check(Cli.Checks check, BenchSettings settings, JMeterOptions given, boolean workloadTls) {
        if (settings.runner().engine() != Runner.Engine.JMETER) {
            if (given != null) {
                throw check.fail("the --jmeter-... options go with --engine jmeter");
            }
            return;
        }
        if (settings.target().keepAlive()) {
            throw check.fail("--keepalive: the jmeter engine sends a connection per request, as SPICE's method");
        }
        for (Mix mix : settings.load().mixes()) {
            String why = TestPlan.unsupported(mix);
            if (why != null) {
                throw check.fail("--engine jmeter: " + why);
            }
        }
        if (settings.target().http().tls() || workloadTls) {
            throw check.fail("--engine jmeter: the jmeter engine runs plain HTTP probes, not TLS");
        }
        if (settings.flood() != null && !settings.runner().engine().windowed()) {
            throw check.fail("--profile overload: the flood's steps need windows of their own, which the "
                    + settings.runner().engine() + " engine does not run; use the event-loop engine");
        }
    }
}
