package org.spice.bench.net;

import java.nio.charset.StandardCharsets;

/**
 * One request of a mix, encoded once before the run so the client loop only copies bytes to a socket.
 *
 * @param endpoint     where it goes (plain or TLS)
 * @param path         the path as sent (with the base URL's prefix)
 * @param wire         the complete request text (HTTP/1); empty for HTTP/2, whose HEADERS frame the library encodes
 * @param expectedBody the body size of a correct response
 * @param keepAlive    whether it asks to keep its connection (HTTP/1.1), or has one of its own (HTTP/1.0)
 * @param h2           whether it goes as a stream of an HTTP/2 connection: h2 by ALPN to a TLS endpoint, h2c with prior
 *                     knowledge to a plain one
 */
public record Request(Endpoint endpoint, String path, byte[] wire, long expectedBody, boolean keepAlive, boolean h2) {

    /** An HTTP/1 request. */
    public Request(Endpoint endpoint, String path, byte[] wire, long expectedBody, boolean keepAlive) {
        this(endpoint, path, wire, expectedBody, keepAlive, false);
    }

    /**
     * The literal request. HTTP/1.0 without keep-alive is what WebBench sent: one connection per request.
     * With keep-alive it is HTTP/1.1, whose connections persist by default.
     */
    public static Request get(Endpoint endpoint, String path, boolean keepAlive, long expectedBody) {
        String fullPath = endpoint.prefix() + path;
        String text = "GET " + fullPath + (keepAlive ? " HTTP/1.1" : " HTTP/1.0") + "\r\n"
                + "Host: " + endpoint.hostHeader() + "\r\n\r\n";
        return new Request(endpoint, fullPath, text.getBytes(StandardCharsets.US_ASCII), expectedBody, keepAlive);
    }

    /** A GET as a stream of one of the HTTP/2 connections to {@code endpoint}. */
    public static Request h2(Endpoint endpoint, String path, long expectedBody) {
        return new Request(endpoint, endpoint.prefix() + path, new byte[0], expectedBody, true, true);
    }

    public boolean tls() {
        return endpoint.tls();
    }
}
