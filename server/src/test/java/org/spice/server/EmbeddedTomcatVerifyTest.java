package org.spice.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.spice.bench.net.Endpoint;
import org.spice.page.CanonicalPage;
import org.spice.page.Probe;
import org.spice.verify.Hardening;
import org.spice.verify.Verifier;

/**
 * The main test: the embedded default server, really started on a free port, passes the conformance
 * check for every probe (all 100 JSP pages), exactly as {@code scripts/spice verify} runs it.
 */
@Tag("page")
class EmbeddedTomcatVerifyTest extends StartedEmbeddedTomcat {

    @Test
    void everyProbeConforms() {
        Verifier verifier = new Verifier(Endpoint.parse(server.baseUrl()), CanonicalPage.built(), LocalDate.now(), 30_000);
        List<Verifier.Failure> failures = new ArrayList<>();
        int urls = 0;
        for (Probe probe : Probe.standard()) {
            Verifier.ProbeReport report = verifier.verify(probe);
            failures.addAll(report.failures());
            urls += report.urls();
        }
        assertEquals(5 + Probe.JSP_PAGES, urls, "every probe URL, all 100 JSP pages, was checked");
        assertTrue(failures.isEmpty(), "failures: " + failures);
    }

    @Test
    void badInputIsRefusedAndBreaksNothing() throws InterruptedException {
        List<Probe> probes = new ArrayList<>(Probe.standard());
        probes.add(Probe.CGI_STOCK);
        List<Hardening.Outcome> outcomes = new Hardening("127.0.0.1", server.port(), "", 10_000).run(probes);
        List<Hardening.Outcome> failed = outcomes.stream().filter(o -> !o.passed()).toList();
        assertTrue(outcomes.size() > 80, "every check ran: " + outcomes.size());
        assertTrue(failed.isEmpty(), "not refused: " + failed);
        Verifier verifier = new Verifier(Endpoint.parse(server.baseUrl()), CanonicalPage.built(), LocalDate.now(), 30_000);
        assertTrue(verifier.verify(Probe.STATIC).passed(), "the static probe is still exact afterwards");
    }

    @Test
    void aSecondServerOnTheSamePortGetsOneClearError() {
        EmbeddedTomcat.PortInUseException e = assertThrows(EmbeddedTomcat.PortInUseException.class,
                () -> EmbeddedTomcat.start("127.0.0.1", server.port(), WAR, base.resolve("second")));
        assertTrue(e.getMessage().contains("is in use"), e.getMessage());
    }
}
