package org.spice.bench.model;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * How the HTTP/2 arms (h2, h2c) carry their requests: {@code connections} connections to each server's endpoint, each
 * carrying at most {@code streams} requests at once (--connections, --streams). A closed loop's clients and an open
 * loop's requests under way share them; what finds every stream busy waits for one, its latency counting on.
 */
public record Multiplex(@JsonProperty("connections") int connections, @JsonProperty("streams") int streams) {

    /** 4 × 8, as h2load was run beside keep-alive here (docs/measurements.md). */
    public static final int DEFAULT_CONNECTIONS = 4;
    public static final int DEFAULT_STREAMS = 8;
    public static final Multiplex DEFAULT = new Multiplex(DEFAULT_CONNECTIONS, DEFAULT_STREAMS);
    /** The servers here allow 100 concurrent streams (Tomcat, httpd) or 128 (nginx, Jetty) by default. */
    public static final int MAX_STREAMS = 100;
    public static final int MAX_CONNECTIONS = 1000;

    public Multiplex {
        if (connections < 1 || connections > MAX_CONNECTIONS || streams < 1 || streams > MAX_STREAMS) {
            throw new IllegalArgumentException("connections 1 to " + MAX_CONNECTIONS + " and streams 1 to "
                    + MAX_STREAMS + ", not " + connections + " and " + streams);
        }
    }
}
