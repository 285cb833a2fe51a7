package org.spice.verify;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

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
        out.printf("verify %s: %d-byte canonical page, GET and HEAD over HTTP/1.0 and HTTP/1.1, GET with a query%s%n",
                base, bytes, trustCert != null ? ", TLS trusting " + trustCert : "");
        out.printf("%-9s %5s %9s  %s%n", "probe", "urls", "requests", "result");
        boolean allPassed = true;
        for (Probe probe : probes) {
            Verifier.ProbeReport report = verifier.verify(probe);
            allPassed &= report.passed();
            out.printf("%-9s %5d %9d  %s%n", probe.id(), report.urls(), report.requests(),
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
