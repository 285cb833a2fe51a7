package org.spice.bench.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Selector;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The event loop's exchange: every framing counts, every fault has its class, keep-alive reuses and retries. */
@Tag("unit")
class ExchangeTest {

    private static final int SIZE = 6250;

    private TestServer server;
    private Endpoint endpoint;
    private Selector selector;

    @BeforeEach
    void start() throws IOException {
        server = new TestServer(TestServer.faults(SIZE));
        endpoint = Endpoint.parse(server.url());
        selector = Selector.open();
    }

    @AfterEach
    void stop() throws IOException {
        server.close();
        selector.close();
    }

    @Test
    void correctResponsesCountInEveryFraming() throws IOException {
        for (String path : new String[] {"/ok", "/chunked", "/close-delimited"}) {
            for (boolean keepAlive : new boolean[] {false, true}) {
                Exchange exchange = exchange(2000);
                assertNull(once(exchange, path, keepAlive), path + " keepAlive=" + keepAlive);
                assertEquals(SIZE, exchange.bodyBytes(), path);
                assertEquals(200, exchange.status());
                exchange.close();
            }
        }
    }

    @Test
    void faultsAreClassified() throws IOException {
        for (Map.Entry<String, ErrorClass> fault : TestServer.FAULT_CLASSES.entrySet()) {
            assertClass(fault.getKey(), fault.getValue());
        }
    }

    @Test
    void aServerThatHoldsTheConnectionIsCountedNotFailed() throws IOException {
        Exchange exchange = exchange(500);
        assertNull(once(exchange, "/open", false));
        assertEquals(1, exchange.serverKeptOpen());
    }

    @Test
    void refusedConnectionIsClassified() throws IOException {
        Endpoint nobody = Endpoint.parse("http://127.0.0.1:" + TestServer.unusedPort());
        Exchange exchange = exchange(1000);
        assertEquals(ErrorClass.CONNECT_REFUSED, run(exchange, Request.get(nobody, "/ok", false, SIZE)));
    }

    @Test
    void keepAliveReusesOneConnection() throws IOException {
        long before = server.connections();
        Exchange exchange = exchange(2000);
        for (int i = 0; i < 20; i++) {
            assertNull(once(exchange, i % 2 == 0 ? "/ok" : "/chunked", true));
        }
        exchange.close();
        assertEquals(1, server.connections() - before);
    }

    @Test
    void keepAliveRetriesOnceWhenTheServerClosedTheIdleConnection() throws IOException {
        Exchange exchange = exchange(2000);
        for (int i = 0; i < 5; i++) {
            assertNull(once(exchange, "/once", true));
        }
        exchange.close();
        assertTrue(exchange.reconnects() >= 3, "reconnects " + exchange.reconnects());
    }

    @Test
    void keepAliveReconnectsAfterAnErrorResponse() throws IOException {
        Exchange exchange = exchange(2000);
        assertEquals(ErrorClass.SHORT_BODY, once(exchange, "/truncated", true));
        assertNull(once(exchange, "/ok", true));
        exchange.close();
    }

    private void assertClass(String path, ErrorClass expected) throws IOException {
        Exchange exchange = exchange(1000);
        assertEquals(expected, once(exchange, path, false), path);
        exchange.close();
    }

    private ErrorClass once(Exchange exchange, String path, boolean keepAlive) throws IOException {
        return run(exchange, Request.get(endpoint, path, keepAlive, SIZE));
    }

    private Exchange exchange(int timeoutMillis) {
        return new Exchange(null, timeoutMillis, selector, null, ByteBuffer.allocate(Exchange.BUFFER_BYTES));
    }

    private ErrorClass run(Exchange exchange, Request request) throws IOException {
        return run(selector, exchange, request);
    }

    /** A minimal event loop for one exchange: prepare, select, hand over ready keys, check the deadline. */
    static ErrorClass run(Selector selector, Exchange exchange, Request request) throws IOException {
        ErrorClass unprepared = exchange.prepare(request);
        if (unprepared != null) {
            return unprepared;
        }
        boolean[] done = {exchange.start(request, System.nanoTime())};
        while (!done[0]) {
            selector.select(key -> done[0] |= exchange.onReady(key), 5);
            done[0] = done[0] || exchange.expire(System.nanoTime());
        }
        return exchange.outcome();
    }
}
