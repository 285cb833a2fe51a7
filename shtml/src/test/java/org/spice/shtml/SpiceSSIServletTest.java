package org.spice.shtml;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.LocalDate;

import jakarta.servlet.http.HttpServlet;

import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.ssi.SSIServlet;
import org.apache.catalina.startup.Tomcat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.net.Endpoint;
import org.spice.page.CanonicalPage;
import org.spice.page.Probe;
import org.spice.verify.Verifier;

/**
 * The generated spice.shtml served by a real embedded Tomcat twice: through Tomcat's own SSIServlet,
 * whose DATE_LOCAL prints "(none)" since 11.0.23, and through SpiceSSIServlet, which must conform.
 */
class SpiceSSIServletTest {

    private static final Path WEBAPP = Path.of(System.getProperty("spice.generated.webapp", "target/generated-webapp"));

    @TempDir
    static Path base;

    private static Tomcat tomcat;
    private static String url;

    @BeforeAll
    static void start() throws LifecycleException {
        tomcat = new Tomcat();
        tomcat.setBaseDir(base.toString());
        Connector connector = new Connector();
        connector.setPort(0);
        connector.setProperty("address", "127.0.0.1");
        tomcat.setConnector(connector);
        addSsiContext("/tomcat/spice", new SSIServlet());
        addSsiContext("/fixed/spice", new SpiceSSIServlet());
        tomcat.start();
        url = "http://127.0.0.1:" + connector.getLocalPort();
    }

    private static void addSsiContext(String path, HttpServlet ssiServlet) {
        Context context = tomcat.addContext(path, WEBAPP.toAbsolutePath().toString());
        Tomcat.addServlet(context, "ssi", ssiServlet);
        context.addServletMappingDecoded("*.shtml", "ssi");
    }

    @AfterAll
    static void stop() throws LifecycleException {
        tomcat.stop();
        tomcat.destroy();
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
