package org.spice.commands;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.LocalDate;
import java.util.List;
import java.util.concurrent.Callable;

import org.spice.bench.net.Endpoint;
import org.spice.bench.net.TlsConfig;
import org.spice.cli.Cli;
import org.spice.cli.Options;
import org.spice.page.CanonicalPage;
import org.spice.page.Probe;
import org.spice.verify.Conformance;
import org.spice.verify.Hardening;
import org.spice.verify.Http2Hardening;
import org.spice.verify.Http2Verifier;
import org.spice.verify.Verifier;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code spice verify BASE_URL}: one row per probe, the exact differences on failure; exit 0 only if
 * every probe conforms.
 */
@Command(name = "verify", sortOptions = false, mixinStandardHelpOptions = true,
        description = "Check that every probe of a deployment answers the canonical page, byte for byte: GET and HEAD"
                + " over HTTP/1.0 and HTTP/1.1, every JSP page, the date slot of the dated probes.")
public final class VerifyCommand extends Cli.Printing implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "BASE_URL", description = "The server: http[s]://HOST[:PORT][/PREFIX].")
    String base;

    @Option(names = "--probes", paramLabel = "LIST", split = ",", description = "Probes to check (default: static, servlet, jsp, cgi, shtml, module).")
    List<String> probes;

    @Mixin
    Options.PageBytes pageBytes;

    @Mixin
    Options.Timeout timeout;

    @Option(names = "--trust-cert", paramLabel = "PEM", description = "For an https:// BASE_URL: the certificate to trust.")
    Path trustCert;

    @Option(names = "--http2", description = "Check over HTTP/2 instead: h2 (TLS, by ALPN) for an https:// BASE_URL,"
            + " h2c with prior knowledge for an http:// one; GET, HEAD and a GET with a query as streams of one"
            + " connection, each answer over HTTP/2 and without HTTP/1's connection headers.")
    boolean http2;

    @Option(names = "--bad-input", description = "Then send what a server must refuse (malformed requests, oversized"
            + " heads, path traversal, every method but GET and HEAD, an unsent body, 200 idle connections) and check"
            + " that each gets a 4xx or a closed connection and that the static probe is still exact afterwards. With"
            + " --http2: a stream reset mid-request, an oversized header block, HEADERS on a closed stream, a flood of"
            + " SETTINGS and PINGs, too many concurrent streams.")
    boolean badInput;

    @Override
    public Integer call() {
        Cli.Checks check = new Cli.Checks(spec);
        List<Probe> list = probes == null ? Probe.standard() : check.probes(probes);
        int size = pageBytes.value();
        int timeoutMillis = timeout.value();
        Verifier verifier;
        Endpoint endpoint;
        TlsConfig tls = tls(check);
        try {
            endpoint = Endpoint.parse(base);
            verifier = new Verifier(endpoint, CanonicalPage.of(size), LocalDate.now(), timeoutMillis, tls);
        } catch (IllegalArgumentException e) {
            throw check.fail(e.getMessage());
        }
        String unreachable = Endpoint.unreachable(new InetSocketAddress(verifier.host(), verifier.port()), timeoutMillis);
        if (unreachable != null) {
            err.println("spice verify: cannot reach " + base + ": " + unreachable + " (start a server first, e.g. scripts/spice serve)");
            return 1;
        }
        if (http2) {
            return http2(endpoint, verifier, tls, size, list) ? 0 : 1;
        }
        boolean allPassed = Conformance.check(verifier, base, size, trustCert, list, out);
        if (badInput && !base.startsWith("https")) {
            allPassed &= badInput(verifier, list);
        }
        return allPassed ? 0 : 1;
    }

    private boolean http2(Endpoint endpoint, Verifier verifier, TlsConfig tls, int size, List<Probe> list) {
        try (Http2Verifier over2 = new Http2Verifier(endpoint, verifier, tls, timeout.value())) {
            boolean allPassed = Conformance.check(over2, base, size, trustCert, list, out);
            if (badInput) {
                List<Http2Hardening.Outcome> outcomes =
                        new Http2Hardening(endpoint, tls, timeout.value()).run();
                outcomes.forEach(o -> out.println("    " + o));
                long failed = outcomes.stream().filter(o -> !o.passed()).count();
                Verifier.ProbeReport after = over2.verify(Probe.STATIC);
                out.printf("bad input over HTTP/2: %d checks, %d not refused; static probe afterwards: %s%n",
                        outcomes.size(), failed, after.passed() ? "PASS" : "FAIL " + after.failures());
                allPassed &= failed == 0 && after.passed();
            }
            return allPassed;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("spice verify: interrupted");
            return false;
        } catch (Exception e) {
            err.println("spice verify: HTTP/2 client: " + e);
            return false;
        }
    }

    private boolean badInput(Verifier verifier, List<Probe> list) {
        List<Hardening.Outcome> outcomes;
        try {
            outcomes = new Hardening(verifier.host(), verifier.port(), verifier.prefix(), timeout.value()).run(list);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("spice verify: bad input: interrupted");
            return false;
        }
        long failed = outcomes.stream().filter(o -> !o.passed()).count();
        outcomes.stream().filter(o -> !o.passed() || o.slow()).forEach(o -> out.println("    " + o));
        Verifier.ProbeReport after = verifier.verify(Probe.STATIC);
        out.printf("bad input: %d requests, %d not refused; static probe afterwards: %s%n", outcomes.size(), failed,
                after.passed() ? "PASS" : "FAIL " + after.failures());
        return failed == 0 && after.passed();
    }

    /** TLS trusting exactly the given certificate, or null when none is given. */
    private TlsConfig tls(Cli.Checks check) {
        if (trustCert == null) {
            return null;
        }
        try {
            return TlsConfig.create(trustCert, true);
        } catch (IOException | GeneralSecurityException e) {
            throw check.fail("--trust-cert: cannot read a certificate from " + trustCert + ": " + e.getMessage());
        }
    }
}
