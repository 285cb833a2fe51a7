package org.spice.bench.plan;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;

import org.spice.bench.mix.Mix;
import org.spice.bench.model.BenchSettings;
import org.spice.bench.model.Server;
import org.spice.bench.net.TlsConfig;
import org.spice.page.CanonicalPage;
import org.spice.page.Probe;
import org.spice.verify.Conformance;
import org.spice.verify.ServedProbes;
import org.spice.verify.Verifier;

/**
 * What bench checks on a server before it measures it: which of SPICE's probes a --target serves byte for byte, and
 * that the probes to be measured conform (verify), each said on stderr. A probe that answers the wrong bytes is not
 * timed.
 */
final class TargetChecks {

    /**
     * The probes asked for on a --target when none are named: all of SPICE's but cgi-stock, as a started server's
     * ({@link Server#benchProbes}): Tomcat's stock CGIServlet sleeps 500 ms a request, measured only when named.
     */
    private static final List<Probe> CANDIDATES = Arrays.stream(Probe.values()).filter(p -> p != Probe.CGI_STOCK)
            .toList();

    private final boolean verify;
    private final PrintStream err;

    /** @param verify whether the probes are verified before they are measured (not with --no-verify) */
    TargetChecks(boolean verify, PrintStream err) {
        this.verify = verify;
        this.err = err;
    }

    /**
     * Which of SPICE's probes the target serves byte for byte, said on stderr; null (and why) where it cannot be reached
     * or does not serve the static file exactly, the reference every probe is compared with.
     */
    ServedProbes served(BenchSettings settings) {
        String base = settings.target().http().toString();
        String down = settings.target().http().unreachable(settings.target().timeoutMillis());
        if (down != null) {
            err.println("spice bench: cannot reach " + base + ": " + down + " (start a server first, e.g. scripts/spice"
                    + " serve)");
            return null;
        }
        TlsConfig tls;
        try {
            tls = settings.target().http().tls() ? TlsConfig.create(settings.target().trustCert(), true) : null;
        } catch (IOException | GeneralSecurityException e) {
            err.println("spice bench: --trust-cert: " + e.getMessage());
            return null;
        }
        err.println("spice bench: which probes " + base + " serves byte for byte (verify; --probes names them"
                + " instead)");
        ServedProbes found = ServedProbes.find(verifier(settings, tls), CANDIDATES);
        found.inexact().forEach((probe, why) -> err.println("    " + probe.id() + " answers, not the canonical page: "
                + why));
        if (!found.served().contains(Probe.STATIC)) {
            err.println("spice bench: " + base + " does not serve the static file byte for byte ("
                    + found.why(Probe.STATIC) + "), the"
                    + " reference every probe is measured against; a base URL is the server's root, without /spice");
            return null;
        }
        err.println("spice bench: measuring " + String.join(", ", found.served().stream().map(Probe::id).toList())
                + (found.notMeasured().isEmpty() ? "" : "; not " + found.notMeasured()));
        return found;
    }

    /** Verifies the probes to be measured; false (with verify's report on stderr) if one does not conform. */
    boolean verified(BenchSettings settings) {
        List<String> probes = settings.load().mixes().stream().filter(Mix::isProbe)
                .map(Mix::name).toList();
        if (!verify || probes.isEmpty()) {
            return true;
        }
        String base = settings.target().http().toString();
        err.println("spice bench: verify " + base + " first (--no-verify skips it)");
        ByteArrayOutputStream said = new ByteArrayOutputStream();
        PrintStream to = new PrintStream(said, true, StandardCharsets.UTF_8);
        Path trust = settings.target().http().tls() ? settings.target().trustCert() : null;
        String unreachable = settings.target().http().unreachable(settings.target().timeoutMillis());
        boolean passed = false;
        if (unreachable != null) {
            to.println("spice verify: cannot reach " + base + ": " + unreachable);
        } else {
            try {
                Verifier verifier = verifier(settings, trust == null ? null : TlsConfig.create(trust, true));
                passed = Conformance.check(verifier, base, (int) settings.load().bytes(), trust,
                        probes.stream().map(Probe::byId).toList(), to);
            } catch (IOException | GeneralSecurityException e) {
                to.println("spice verify: cannot trust " + trust + ": " + e.getMessage());
            }
        }
        if (passed) {
            return true;
        }
        err.print(said.toString(StandardCharsets.UTF_8));
        err.println("spice bench: " + base + " does not pass verify, so its figures would not be SPICE figures");
        return false;
    }

    /** What checks the canonical page, at this run's size, on its target. */
    private static Verifier verifier(BenchSettings settings, TlsConfig tls) {
        return new Verifier(settings.target().http(), CanonicalPage.of((int) settings.load().bytes()), LocalDate.now(),
                settings.target().timeoutMillis(), tls);
    }
}
