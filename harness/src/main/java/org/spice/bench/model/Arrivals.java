package org.spice.bench.model;

import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * How an open loop's requests fall in time at its offered rate (--arrivals). What a server pays for a request depends
 * on it: a request that finds the server asleep costs it a wake-up, and requests that arrive together share one
 * (nginx's static file over h2c cost some 15 % less at random arrivals than at even ones, 2026-12-04,
 * docs/measurements.md "SPICE against h2load").
 */
public enum Arrivals {
    /** One request every 1 / rate seconds, as wrk2 and vegeta send them: the server wakes for each. */
    EVEN,
    /**
     * At random, as many independent clients send them (a Poisson process): the due times of each run of requests are
     * drawn uniformly over that run's span, from the run's seed, so some arrive together and some far apart.
     */
    POISSON;

    @JsonValue
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
