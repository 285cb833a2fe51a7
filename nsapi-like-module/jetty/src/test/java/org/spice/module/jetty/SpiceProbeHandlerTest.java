package org.spice.module.jetty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.HttpURLConnection;
import java.net.URI;
import java.time.LocalDate;

import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ContextHandler;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.spice.bench.net.Endpoint;
import org.spice.page.CanonicalPage;
import org.spice.page.Probe;
import org.spice.verify.Verifier;

/** The Handler in a real embedded Jetty Server, mounted as in conf/jetty, checked by verify over HTTP. */
@Tag("page")
class SpiceProbeHandlerTest {

    private static Server server;
    private static String url;

    @BeforeAll
    static void start() throws Exception {
        server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        ContextHandler context = new ContextHandler(new SpiceProbeHandler(), "/spice/module");
        context.setAllowNullPathInContext(true);
        server.setHandler(context);
        server.start();
        url = "http://127.0.0.1:" + connector.getLocalPort();
    }

    @AfterAll
    static void stop() throws Exception {
        server.stop();
    }

    @Test
    void answersTheCanonicalPage() {
        Verifier.ProbeReport report = new Verifier(Endpoint.parse(url), CanonicalPage.built(), LocalDate.now(), 10_000)
                .verify(Probe.MODULE);
        assertTrue(report.passed(), report.failures().toString());
    }

    @Test
    void refusesPost() throws Exception {
        HttpURLConnection connection = (HttpURLConnection) URI.create(url + "/spice/module").toURL().openConnection();
        connection.setRequestMethod("POST");
        try {
            assertEquals(405, connection.getResponseCode());
        } finally {
            connection.disconnect();
        }
    }
}
