package org.spice.bench.model;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * How the clients speak to a server, an arm of its own where several are measured side by side: HTTP/1.0 with a
 * connection per request (the white paper's WebBench, the default), HTTP/1.1 keeping its connection, or HTTPS with a
 * connection (and a full handshake, unless --tls-resume) per request.
 */
public enum Protocol {
    HTTP10("http1.0"),
    KEEPALIVE("keepalive"),
    TLS("tls");

    private final String id;

    Protocol(String id) {
        this.id = id;
    }

    /** The name on the command line and in results. */
    public String id() {
        return id;
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
