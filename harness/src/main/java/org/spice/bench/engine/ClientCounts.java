package org.spice.bench.engine;

/**
 * What one client measured in the window of one mix: counters only, so that a run of 100,000 clients
 * costs a few dozen bytes per client here. Latency distributions live in the {@link LoopStats} of the
 * client's event loop. Written by that loop's thread only and read after it has ended.
 */
public final class ClientCounts {

    long requests;
    long errors;
    long latencySumNanos;

    public long requests() {
        return requests;
    }

    public long errors() {
        return errors;
    }

    public long latencySumNanos() {
        return latencySumNanos;
    }
}
