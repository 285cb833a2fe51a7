package org.spice.bench.net;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Enforces the per-request timeout from one thread, by closing the socket of an exchange that overran it.
 *
 * <p>Why not SO_TIMEOUT: with a read timeout set, the JDK turns every blocking read (and a connect with a
 * timeout) into a non-blocking call plus poll(2), twice the system calls per read. On loopback that made
 * the engine's own CPU per request the bottleneck. Without it, reads and connects block in one call each,
 * and this thread, waking every few milliseconds, ends the rare exchange that takes too long.
 */
final class Watchdog {

    private static final long PERIOD_MILLIS = 5;

    private static final Set<HttpExchange> WATCHED = ConcurrentHashMap.newKeySet();

    static {
        Thread thread = new Thread(Watchdog::run, "spice-request-timeouts");
        thread.setDaemon(true);
        thread.start();
    }

    private Watchdog() {
    }

    static void watch(HttpExchange exchange) {
        WATCHED.add(exchange);
    }

    static void unwatch(HttpExchange exchange) {
        WATCHED.remove(exchange);
    }

    private static void run() {
        while (true) {
            long now = System.nanoTime();
            for (HttpExchange exchange : WATCHED) {
                exchange.expireIfLate(now);
            }
            try {
                Thread.sleep(PERIOD_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }
}
