package org.spice.verify;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.spice.page.Probe;

/**
 * Which of SPICE's probes a deployment serves byte for byte: each probe's first URL asked once (a probe the server
 * does not have answers 404 and costs no more), then every check of {@link Verifier#verify} for those that answered
 * the page. What bench measures on a server it did not start when no probes are named: a bundle serves its server's
 * probes (httpd's static, shtml, cgi, module, fastcgi; Tomcat's static, servlet, jsp, cgi, shtml, module), not the
 * standard list.
 *
 * @param served   the probes that passed every check, in SPICE's order
 * @param absent   the probes the server does not have (404), with what it answered
 * @param inexact  the probes it answered, but not with the canonical page, with the first difference
 */
public record ServedProbes(List<Probe> served, Map<Probe, String> absent, Map<Probe, String> inexact) {

    public ServedProbes {
        served = List.copyOf(served);
        absent = Collections.unmodifiableMap(new LinkedHashMap<>(absent));   // in the order asked
        inexact = Collections.unmodifiableMap(new LinkedHashMap<>(inexact));
    }

    /** Asks {@code verifier}'s server for each of {@code candidates}. */
    public static ServedProbes find(Verifier verifier, List<Probe> candidates) {
        List<Probe> served = new ArrayList<>();
        Map<Probe, String> absent = new LinkedHashMap<>();
        Map<Probe, String> inexact = new LinkedHashMap<>();
        for (Probe probe : candidates) {
            String first = verifier.exactGet(probe);
            if (first != null) {
                (first.contains("status 404") ? absent : inexact).put(probe, first);
                continue;
            }
            List<Verifier.Failure> failures = verifier.verify(probe).failures();
            if (failures.isEmpty()) {
                served.add(probe);
            } else {
                inexact.put(probe, failures.get(0) + (failures.size() > 1 ? " (and " + (failures.size() - 1)
                        + " more)" : ""));
            }
        }
        return new ServedProbes(served, absent, inexact);
    }

    /** Why {@code probe} is not served exactly: what it answered; null where it is. */
    public String why(Probe probe) {
        return absent.containsKey(probe) ? absent.get(probe) : inexact.get(probe);
    }

    /** The probes that were not measured, by id in SPICE's order: "servlet, jsp (404); cgi (not exact)". */
    public String notMeasured() {
        List<String> parts = new ArrayList<>();
        if (!absent.isEmpty()) {
            parts.add(ids(absent) + " (not there: 404)");
        }
        if (!inexact.isEmpty()) {
            parts.add(ids(inexact) + " (answered, not the canonical page)");
        }
        return String.join("; ", parts);
    }

    private static String ids(Map<Probe, String> probes) {
        return String.join(", ", probes.keySet().stream().map(Probe::id).toList());
    }
}
