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
 * (--tls-resume), keep-alive or a connection per request (--keepalive), and a request's timeout (--timeout).
 *
 * @param http  the base URL of the plain entries (an https:// URL where the target is one)
 * @param https the base URL of the tls entries, or null
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Target(@JsonIgnore Endpoint http, @JsonIgnore Endpoint https, @JsonIgnore Path trustCert,
        @JsonProperty("tls_session_resumption") boolean tlsResume, @JsonIgnore boolean keepAlive,
        @JsonProperty("timeout_ms") int timeoutMillis) {

    /** {@code http} alone: a connection per request, a full handshake each, a 10 s timeout. */
    public static Target of(Endpoint http) {
        return new Target(http, null, null, false, false, 10_000);
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
}
