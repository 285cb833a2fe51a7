package org.spice.shtml;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.LocalDate;

import jakarta.servlet.http.HttpServlet;

import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.ssi.SSIServlet;
import org.apache.catalina.startup.Tomcat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.net.Endpoint;
import org.spice.page.CanonicalPage;
import org.spice.page.Probe;
import org.spice.tomcat.fixture.LoopbackTomcat;
import org.spice.verify.Verifier;

/**
 * The generated spice.shtml served by a real embedded Tomcat twice: through Tomcat's own SSIServlet,
 * whose DATE_LOCAL prints "(none)" since 11.0.23, and through SpiceSSIServlet, which must conform.
 */
@Tag("page")
class SpiceSSIServletTest {

    private static final Path WEBAPP = Path.of(System.getProperty("spice.generated.webapp", "target/generated-webapp"));

    @TempDir
    static Path base;

    private static LoopbackTomcat tomcat;
    private static String url;

    @BeforeAll
    static void start() throws LifecycleException {
        tomcat = new LoopbackTomcat(base);
        addSsiContext("/tomcat/spice", new SSIServlet());
        addSsiContext("/fixed/spice", new SpiceSSIServlet());
        url = tomcat.start().url();
    }

    private static void addSsiContext(String path, HttpServlet ssiServlet) {
        Context context = tomcat.tomcat().addContext(path, WEBAPP.toAbsolutePath().toString());
        Tomcat.addServlet(context, "ssi", ssiServlet);
        context.addServletMappingDecoded("*.shtml", "ssi");
    }

    @AfterAll
    static void stop() throws LifecycleException {
        tomcat.close();
    }

    @Test
    void tomcatsOwnSsiServletLosesTheDate() {
        // If this starts to pass, Tomcat fixed the resolver upstream and SpiceSSIServlet can go.
        Verifier.ProbeReport report = verify("/tomcat");
        assertFalse(report.passed(), "Tomcat's SSIServlet unexpectedly printed DATE_LOCAL");
        assertTrue(report.failures().toString().contains("(none)"), report.failures().toString());
    }

    @Test
    void spiceSsiServletInsertsTodaysDate() {
        Verifier.ProbeReport report = verify("/fixed");
        assertTrue(report.passed(), report.failures().toString());
    }

    private static Verifier.ProbeReport verify(String prefix) {
        return new Verifier(Endpoint.parse(url + prefix), CanonicalPage.built(), LocalDate.now(), 10_000).verify(Probe.SHTML);
    }
}
