package org.spice.module.tomcat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.file.Path;
import java.time.LocalDate;

import org.apache.catalina.LifecycleException;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.net.Endpoint;
import org.spice.page.CanonicalPage;
import org.spice.page.Probe;
import org.spice.verify.Verifier;

/** The Valve in a real embedded Tomcat's Host pipeline, checked by verify over HTTP. */
class SpiceProbeValveTest {

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
        tomcat.getHost().getPipeline().addValve(new SpiceProbeValve());
        tomcat.addContext("/spice", base.toString());
        tomcat.start();
        url = "http://127.0.0.1:" + connector.getLocalPort();
    }

    @AfterAll
    static void stop() throws LifecycleException {
        tomcat.stop();
        tomcat.destroy();
    }

    @Test
    void answersTheCanonicalPage() {
        Verifier.ProbeReport report = new Verifier(Endpoint.parse(url), CanonicalPage.built(), LocalDate.now(), 10_000)
                .verify(Probe.MODULE);
        assertTrue(report.passed(), report.failures().toString());
    }

    @Test
    void leavesOtherPathsToThePipelineAndRefusesPost() throws Exception {
        assertEquals(404, status("GET", "/spice/other"));
        assertEquals(405, status("POST", "/spice/module"));
    }

    private static int status(String method, String path) throws Exception {
        HttpURLConnection connection = (HttpURLConnection) URI.create(url + path).toURL().openConnection();
        connection.setRequestMethod(method);
        try {
            return connection.getResponseCode();
        } finally {
            connection.disconnect();
        }
    }
}
