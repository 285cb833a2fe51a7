package org.spice.bench.model;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * How the clients speak to a server, an arm of its own where several are measured side by side: HTTP/1.0 with a
 * connection per request (the white paper's WebBench, the default), HTTP/1.1 keeping its connection, HTTPS with a
 * connection (and a full handshake, unless --tls-resume) per request, or HTTP/2 with many requests as streams of a few
 * kept connections ({@link Multiplex}): h2 over TLS (chosen by ALPN), h2c in clear (prior knowledge).
 */
public enum Protocol {
    HTTP10("http1.0"),
    KEEPALIVE("keepalive"),
    TLS("tls"),
    H2("h2"),
    H2C("h2c");

    private final String id;

    Protocol(String id) {
        this.id = id;
    }

    /** The name on the command line and in results. */
    public String id() {
        return id;
    }

    /** Whether its requests go as HTTP/2 streams. */
    public boolean http2() {
        return this == H2 || this == H2C;
    }

    /** Whether it speaks TLS. */
    public boolean tls() {
        return this == TLS || this == H2;
    }

    public static Optional<Protocol> find(String id) {
        return Arrays.stream(values()).filter(p -> p.id.equals(id.toLowerCase(Locale.ROOT))).findFirst();
    }

    public static String ids() {
        return Arrays.stream(values()).map(Protocol::id).collect(Collectors.joining(", "));
    }

    @Override
    public String toString() {
        return id;
    }
}
