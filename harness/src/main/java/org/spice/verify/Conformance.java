package org.spice.verify;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

import org.spice.page.Probe;

/**
 * verify's report, for the verify command and for bench before it measures: a row per probe (its URLs, its requests,
 * PASS or FAIL), the first failures of each in full, and whether every probe conforms.
 */
public final class Conformance {

    /** Failure lines printed per probe; the count of the rest is given. */
    static final int MAX_FAILURES_SHOWN = 8;

    private Conformance() {
    }

    /** Checks {@code probes} with {@code verifier}, the report on {@code out}: true if every one conforms. */
    public static boolean check(Verifier verifier, String base, int bytes, Path trustCert, List<Probe> probes,
            PrintStream out) {
        return report(String.format("verify %s: %d-byte canonical page, GET and HEAD over HTTP/1.0 and HTTP/1.1,"
                + " GET with a query%s", base, bytes, trustCert != null ? ", TLS trusting " + trustCert : ""),
                verifier::verify, probes, out);
    }

    /** As {@link #check}, over HTTP/2 (h2 for an https:// base, h2c with prior knowledge for an http:// one). */
    public static boolean check(Http2Verifier verifier, String base, int bytes, Path trustCert, List<Probe> probes,
            PrintStream out) {
        return report(String.format("verify %s over HTTP/2 (%s): %d-byte canonical page, GET and HEAD, GET with a"
                + " query, the streams of one connection", base, trustCert != null ? "h2, TLS trusting " + trustCert
                : "h2c, prior knowledge", bytes), verifier::verify, probes, out);
    }

    private static boolean report(String title, Function<Probe, Verifier.ProbeReport> verify, List<Probe> probes,
            PrintStream out) {
        out.println(title);
        // the probe column as wide as its longest name
        String row = "%-" + probes.stream().mapToInt(p -> p.id().length()).reduce(9, Math::max) + "s %5s %9s  %s%n";
        out.printf(row, "probe", "urls", "requests", "result");
        boolean allPassed = true;
        for (Probe probe : probes) {
            Verifier.ProbeReport report = verify.apply(probe);
            allPassed &= report.passed();
            out.printf(row, probe.id(), report.urls(), report.requests(),
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
        return allPassed;
    }
}
