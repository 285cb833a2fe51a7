package org.spice.bench.samples;

/**
 * One request as a load tool logged it.
 *
 * @param startMs   when it started, milliseconds since the epoch (fractions where the tool has them)
 * @param latencyMs how long it took, as the tool measures it
 * @param status    the HTTP status, or 0 when the request failed without one
 * @param bytes     bytes the tool reports for the response (body, or head and body: see {@link Tool}), -1 if none
 * @param client    the client (thread, connection) that sent it, or "" when the tool does not say
 * @param error     why the tool counts it failed, or null
 */
public record Sample(double startMs, double latencyMs, int status, long bytes, String client, String error) {

    public double endMs() {
        return startMs + latencyMs;
    }
}
