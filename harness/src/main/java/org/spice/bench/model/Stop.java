package org.spice.bench.model;

import java.util.concurrent.atomic.AtomicReference;

/**
 * A request to end the run early (SIGINT, SIGTERM): set once, with why; every phase and engine looks at it, the mix
 * under way ends at once and is kept, marked failed, and the run writes what it measured.
 */
public final class Stop {

    private final AtomicReference<String> why = new AtomicReference<>();

    /** Asks the run to stop; false if it had been asked already (the first reason is kept). */
    public boolean request(String reason) {
        return why.compareAndSet(null, reason);
    }

    public boolean requested() {
        return why.get() != null;
    }

    /** Why the run was asked to stop, or null. */
    public String why() {
        return why.get();
    }

    /** The failure of a mix that the stop ended. */
    public Failure failure() {
        return new Failure(Failure.Kind.INTERRUPTED, why());
    }

    /** Sleeps {@code seconds}, or less if the run is asked to stop meanwhile (looked at every 0.1 s). */
    public void rest(double seconds) throws InterruptedException {
        long end = System.nanoTime() + (long) (seconds * 1e9);
        while (!requested() && System.nanoTime() < end) {
            Thread.sleep(Math.max(1, Math.min(100, (end - System.nanoTime()) / 1_000_000)));
        }
    }
}
