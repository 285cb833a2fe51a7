package org.spice.bench.model;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.spice.bench.mix.Mix;
import org.spice.bench.net.Endpoint;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Where the load goes and how it speaks: the base URL (--target, or the server started here), the HTTPS listener of
 * the tls entries (--tls-target) and the certificate trusted there (--trust-cert), whether TLS sessions resume
 * (--tls-resume), keep-alive or a connection per request (--keepalive), a request's timeout (--timeout), and for
 * the HTTP/2 arms where h2c is taken and how many connections and streams carry them.
 *
 * @param http      the base URL of the plain entries (an https:// URL where the target is one)
 * @param https     the base URL of the tls entries, or null
 * @param h2c       where HTTP/2 in clear is taken, where not at {@code http} (nginx 1.22: a port of its own), or null
 * @param multiplex the HTTP/2 arms' connections and streams; null where the run has none
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Target(@JsonIgnore Endpoint http, @JsonIgnore Endpoint https, @JsonIgnore Path trustCert,
        @JsonProperty("tls_session_resumption") boolean tlsResume, @JsonIgnore boolean keepAlive,
        @JsonProperty("timeout_ms") int timeoutMillis, @JsonIgnore Endpoint h2c,
        @JsonProperty("http2") Multiplex multiplex) {

    /** {@code http} alone: a connection per request, a full handshake each, a 10 s timeout. */
    public static Target of(Endpoint http) {
        return new Target(http, null, null, false, false, 10_000, null, null);
    }

    /** Where h2c (HTTP/2 in clear, prior knowledge) goes: the server's port of its own for it, else the plain base. */
    public Endpoint h2cEndpoint() {
        return h2c != null ? h2c : http;
    }

    /** The same target, its HTTP/2 arms carried as {@code value} says. */
    public Target with(Multiplex value) {
        return new Target(http, https, trustCert, tlsResume, keepAlive, timeoutMillis, h2c, value);
    }

    /** The HTTP/2 arms' connections and streams: as given, else {@link Multiplex#DEFAULT}. */
    public Multiplex multiplexOrDefault() {
        return multiplex != null ? multiplex : Multiplex.DEFAULT;
    }

    /** The endpoints {@code used} send requests to: the plain one for plain entries, the TLS one for tls ones. */
    public List<Endpoint> endpoints(List<Mix> used) {
        List<Endpoint> endpoints = new ArrayList<>();
        if (used.stream().anyMatch(Mix::hasPlain)) {
            endpoints.add(http);
        }
        if (https != null && https != http && used.stream().anyMatch(Mix::hasTls)) {
            endpoints.add(https);
        }
        return endpoints;
    }

    @JsonProperty
    String protocol() {
        return keepAlive ? "HTTP/1.1 keep-alive" : "HTTP/1.0, one connection per request";
    }

    @JsonProperty
    String latencyEnd() {
        return keepAlive ? "last body byte" : "the server's close of the connection (HTTP/1.0)";
    }

    @JsonProperty("tls_target")
    String recordedTlsTarget() {
        return https == null ? null : https.toString();
    }

    @JsonProperty("h2c_target")
    String recordedH2cTarget() {
        return h2c == null ? null : h2c.toString();
    }
}
