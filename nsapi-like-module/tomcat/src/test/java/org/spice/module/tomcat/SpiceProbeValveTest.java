package org.spice.module.tomcat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.file.Path;
import java.time.LocalDate;

import org.apache.catalina.LifecycleException;
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

/** The Valve in a real embedded Tomcat's Host pipeline, checked by verify over HTTP. */
@Tag("page")
class SpiceProbeValveTest {

    @TempDir
    static Path base;

    private static LoopbackTomcat tomcat;
    private static String url;

    @BeforeAll
    static void start() throws LifecycleException {
        tomcat = new LoopbackTomcat(base);
        tomcat.tomcat().getHost().getPipeline().addValve(new SpiceProbeValve());
        tomcat.tomcat().addContext("/spice", base.toString());
        url = tomcat.start().url();
    }

    @AfterAll
    static void stop() throws LifecycleException {
        tomcat.close();
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
