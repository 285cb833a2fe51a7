package org.spice.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;

import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.spice.bench.net.Endpoint;
import org.spice.bench.net.ErrorClass;
import org.spice.bench.net.HttpExchange;
import org.spice.bench.net.Request;

/** Each fault the server can commit lands in its own error class; correct responses in every framing count. */
class HttpExchangeTest {

    private static final int SIZE = 6250;

    private TestServer server;
    private Endpoint endpoint;

    @BeforeEach
    void start() throws IOException {
        server = new TestServer(TestServer.faults(SIZE));
        endpoint = Endpoint.parse(server.url());
    }

    @AfterEach
    void stop() throws IOException {
        server.close();
    }

    @Test
    void correctResponsesCountInEveryFraming() {
        for (String path : new String[] {"/ok", "/chunked", "/close-delimited"}) {
            for (boolean keepAlive : new boolean[] {false, true}) {
                try (HttpExchange exchange = new HttpExchange(endpoint, null, 2000, keepAlive)) {
                    assertNull(once(exchange, path, keepAlive), path + " keepAlive=" + keepAlive);
                    assertEquals(SIZE, exchange.bodyBytes(), path);
                    assertEquals(200, exchange.status());
                }
            }
        }
    }

    @Test
    void faultsAreClassified() {
        for (Map.Entry<String, ErrorClass> fault : TestServer.FAULT_CLASSES.entrySet()) {
            assertClass(fault.getKey(), fault.getValue());
        }
    }

    @Test
    void refusedConnectionIsClassified() throws IOException {
        Endpoint nobody = Endpoint.parse("http://127.0.0.1:" + TestServer.unusedPort());
        try (HttpExchange exchange = new HttpExchange(nobody, null, 1000, false)) {
            Request request = Request.get(nobody, "/ok", false, SIZE);
            assertEquals(ErrorClass.CONNECT_REFUSED, exchange.finish(exchange.perform(request)));
        }
    }

    @Test
    void keepAliveReusesOneConnection() {
        long before = server.connections();
        try (HttpExchange exchange = new HttpExchange(endpoint, null, 2000, true)) {
            for (int i = 0; i < 20; i++) {
                assertNull(once(exchange, i % 2 == 0 ? "/ok" : "/chunked", true));
            }
        }
        assertEquals(1, server.connections() - before);
    }

    @Test
    void keepAliveReconnectsAfterAnErrorResponse() {
        try (HttpExchange exchange = new HttpExchange(endpoint, null, 2000, true)) {
            assertEquals(ErrorClass.SHORT_BODY, once(exchange, "/truncated", true));
            assertNull(once(exchange, "/ok", true));
        }
    }

    private void assertClass(String path, ErrorClass expected) {
        try (HttpExchange exchange = new HttpExchange(endpoint, null, 1000, false)) {
            assertEquals(expected, once(exchange, path, false), path);
        }
    }

    private ErrorClass once(HttpExchange exchange, String path, boolean keepAlive) {
        Request request = Request.get(endpoint, path, keepAlive, SIZE);
        return exchange.finish(exchange.perform(request));
    }
}
