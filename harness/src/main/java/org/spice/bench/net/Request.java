package org.spice.bench.net;

import java.nio.charset.StandardCharsets;

/**
 * One request of a mix, encoded once before the run so the client loop only copies bytes to a socket.
 *
 * @param endpoint     where it goes (plain or TLS)
 * @param path         the path as sent (with the base URL's prefix)
 * @param wire         the complete request text
 * @param expectedBody the body size of a correct response
 * @param keepAlive    whether it asks to keep its connection (HTTP/1.1), or has one of its own (HTTP/1.0)
 */
public record Request(Endpoint endpoint, String path, byte[] wire, long expectedBody, boolean keepAlive) {

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

    public boolean tls() {
        return endpoint.tls();
    }
}
