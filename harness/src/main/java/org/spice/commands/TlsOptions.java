package org.spice.commands;

import java.nio.file.Files;
import java.nio.file.Path;

import org.spice.bench.mix.Mix;
import org.spice.bench.model.BenchSettings;
import org.spice.bench.model.Multiplex;
import org.spice.bench.model.Target;
import org.spice.bench.net.Endpoint;
import org.spice.cli.Cli;

import picocli.CommandLine.Option;

/** Where the tls entries of a workload go and how: the HTTPS listener, the certificate trusted there, resumption. */
final class TlsOptions {

    @Option(names = "--tls-target", paramLabel = "BASE_URL", converter = Converters.Url.class, description = "The HTTPS"
            + " listener for the tls entries of a mix (default for a started server: its port + 360).")
    Endpoint tlsTarget;

    @Option(names = "--trust-cert", paramLabel = "PEM", description = "Trust exactly this certificate for TLS (default:"
            + " the JDK's CAs; for a started server: run/tls/server.pem).")
    Path trustCert;

    @Option(names = "--tls-resume", description = "Let TLS sessions resume (default: a full handshake per connection,"
            + " as WebBench).")
    boolean tlsResume;

    /**
     * Where the load goes: {@code base} for plain entries; for tls ones --tls-target, else a started server's HTTPS
     * listener ({@code startedHttps}), else the base where it is an https:// URL; h2c at {@code h2c} where not at the
     * base, the HTTP/2 arms carried as {@code multiplex} says (null: the run has none).
     */
    Target target(Endpoint base, Endpoint startedHttps, Path startedCert, boolean keepAlive, int timeoutMillis,
            Endpoint h2c, Multiplex multiplex) {
        Endpoint tls = tlsTarget != null ? tlsTarget : startedHttps != null ? startedHttps : base.tls() ? base : null;
        return new Target(base, tls, trustCert != null ? trustCert : startedCert, tlsResume, keepAlive, timeoutMillis,
                h2c, multiplex);
    }

    /** The rules: an https:// URL, a readable certificate, and an HTTPS listener wherever a workload has tls entries. */
    void check(Cli.Checks check, BenchSettings settings, boolean ecommerce) {
        if (tlsTarget != null && !tlsTarget.tls()) {
            throw check.fail("--tls-target: must be an https:// URL, not " + tlsTarget);
        }
        if (trustCert != null && !Files.isReadable(trustCert)) {
            throw check.fail("--trust-cert: cannot read " + trustCert);
        }
        if (ecommerce && settings.target().https() == null) {
            throw check.fail("--tls-target: the e-commerce workload on --target needs its HTTPS listener,"
                    + " e.g. --tls-target https://127.0.0.1:18440");
        }
        for (Mix mix : settings.load().mixes()) {
            if (mix.hasTls() && settings.target().https() == null) {
                throw check.fail("--tls-target: mix \"" + mix.name() + "\" has tls entries; give the TLS base URL,"
                        + " e.g. --tls-target https://127.0.0.1:18443");
            }
        }
    }
}
