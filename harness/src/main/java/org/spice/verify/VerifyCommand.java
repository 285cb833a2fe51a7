package org.spice.verify;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

import javax.net.ssl.SSLSocketFactory;

import org.spice.bench.net.TlsConfig;
import org.spice.harness.UsageException;
import org.spice.page.CanonicalPage;
import org.spice.page.Probe;

/**
 * {@code spice verify BASE_URL [--probes static,servlet,...] [--bytes N] [--timeout MS] [--trust-cert PEM]}
 * (an https:// BASE_URL needs the certificate to trust): one row per
 * probe, the exact differences on failure; exit 0 only if every probe conforms.
 */
public final class VerifyCommand {

    /** Failure lines printed per probe; the count of the rest is given. */
    private static final int MAX_FAILURES_SHOWN = 8;

    private VerifyCommand() {
    }

    public static int run(String[] args, PrintStream out) {
        String base = null;
        List<Probe> probes = Probe.standard();
        int bytes = CanonicalPage.builtBytes();
        int timeoutMillis = 10_000;
        Path trustCert = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--probes" -> probes = parseProbes(value(args, ++i, "--probes"));
                case "--bytes" -> bytes = positive(value(args, ++i, "--bytes"), "--bytes");
                case "--timeout" -> timeoutMillis = positive(value(args, ++i, "--timeout"), "--timeout");
                case "--trust-cert" -> trustCert = Path.of(value(args, ++i, "--trust-cert"));
                default -> {
                    if (args[i].startsWith("--") || base != null) {
                        throw new UsageException("unexpected argument \"" + args[i] + "\"");
                    }
                    base = args[i];
                }
            }
        }
        if (base == null) {
            throw new UsageException("give the server's base URL, e.g. http://127.0.0.1:18080");
        }
        CanonicalPage page;
        Verifier verifier;
        try {
            page = CanonicalPage.of(bytes);
            verifier = new Verifier(new URI(base), page, LocalDate.now(), timeoutMillis, tls(trustCert));
        } catch (URISyntaxException | IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        String unreachable = reachability(verifier.host(), verifier.port(), timeoutMillis);
        if (unreachable != null) {
            out.println("cannot reach " + base + ": " + unreachable
                    + " (start a server first, e.g. scripts/spice serve)");
            return 1;
        }

        out.printf("verify %s: %d-byte canonical page, GET and HEAD over HTTP/1.0 and HTTP/1.1%s%n", base, bytes,
                trustCert != null ? ", TLS trusting " + trustCert : "");
        out.printf("%-8s %5s %9s  %s%n", "probe", "urls", "requests", "result");
        boolean allPassed = true;
        for (Probe probe : probes) {
            Verifier.ProbeReport report = verifier.verify(probe);
            allPassed &= report.passed();
            out.printf("%-8s %5d %9d  %s%n", probe.id(), report.urls(), report.requests(),
                    report.passed() ? "PASS" : "FAIL (" + report.failures().size() + " checks failed)");
            List<Verifier.Failure> failures = report.failures();
            for (Verifier.Failure failure : failures.subList(0, Math.min(MAX_FAILURES_SHOWN, failures.size()))) {
                out.println("    " + failure);
            }
            if (failures.size() > MAX_FAILURES_SHOWN) {
                out.println("    ... and " + (failures.size() - MAX_FAILURES_SHOWN) + " more");
            }
        }
        out.println(allPassed ? "all probes conform" : "some probes do not conform");
        return allPassed ? 0 : 1;
    }

    /** A socket factory that trusts exactly the given certificate, or null when none is given. */
    private static SSLSocketFactory tls(Path trustCert) {
        if (trustCert == null) {
            return null;
        }
        try {
            return TlsConfig.create(trustCert, true).factoryForNextConnection();
        } catch (IOException | GeneralSecurityException e) {
            throw new UsageException("--trust-cert: cannot read a certificate from " + trustCert + ": " + e.getMessage());
        }
    }

    private static List<Probe> parseProbes(String list) {
        try {
            return new ArrayList<>(Probe.parseList(list));
        } catch (IllegalArgumentException e) {
            throw new UsageException("--probes: " + e.getMessage());
        }
    }

    private static String reachability(String host, int port, int timeoutMillis) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), timeoutMillis);
            return null;
        } catch (IOException e) {
            return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        }
    }

    static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new UsageException(option + " needs a value");
        }
        return args[i];
    }

    static int positive(String text, String option) {
        try {
            int value = Integer.parseInt(text);
            if (value <= 0) {
                throw new NumberFormatException();
            }
            return value;
        } catch (NumberFormatException e) {
            throw new UsageException(option + " takes a whole number above 0, not \"" + text + "\"");
        }
    }
}
