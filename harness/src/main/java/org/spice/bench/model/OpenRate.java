package org.spice.bench.model;

/**
 * The open loop in the ladder's place (--rate): each probe at {@code rps} requests per second for the duration,
 * at most {@code maxInFlight} under way (results.json keeps each run with its rate, {@code open_loop}).
 */
public record OpenRate(double rps, int maxInFlight) {
}

