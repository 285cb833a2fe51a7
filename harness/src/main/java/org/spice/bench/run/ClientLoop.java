package org.spice.bench.run;

import java.security.GeneralSecurityException;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;

import org.spice.bench.mix.Mix;
import org.spice.bench.net.ErrorClass;
import org.spice.bench.net.HttpExchange;
import org.spice.bench.net.Request;
import org.spice.bench.stats.ClientStats;

/**
 * One closed-loop client: request, read to the last byte, next request at once, until the end of the
 * ramp-down. It runs on its own platform thread; nothing it touches per request is shared.
 *
 * <p>Which requests count: those that START in the measured window, whether they end in the window or
 * in the ramp-down (the ramp-down keeps the load on, and a client always finishes its current request
 * before it stops). In a closed loop the number of starts in a window of length W is W / mean latency per
 * client without bias, and no latency is cut off. The stricter "start and end in the window" rule loses
 * about one request per client at each edge and systematically drops the slowest requests at the end;
 * {@code completed_after_window} in results.json says how many requests the two rules differ by.
 */
final class ClientLoop implements Runnable {

    /** Pause after a refused connection or an exhausted port, so a dead server does not turn into a busy loop. */
    private static final long BACKOFF_MILLIS = 10;

    private final Mix mix;
    private final Request[] requests;
    private final HttpExchange exchange;
    private final ClientStats stats;
    private final SplittableRandom random;
    private final MixRunner.Control control;
    private final CountDownLatch ready;

    ClientLoop(Mix mix, Request[] requests, HttpExchange exchange, ClientStats stats, long seed,
            MixRunner.Control control, CountDownLatch ready) {
        this.mix = mix;
        this.requests = requests;
        this.exchange = exchange;
        this.stats = stats;
        this.random = new SplittableRandom(seed);
        this.control = control;
        this.ready = ready;
    }

    @Override
    public void run() {
        ready.countDown();
        MixRunner.Schedule schedule = control.awaitStart();
        try {
            while (schedule != null && !control.stopped() && System.nanoTime() < schedule.stopAt()) {
                Request request = requests[mix.draw(random)];
                ErrorClass outcome = null;
                try {
                    exchange.prepare(request);
                } catch (GeneralSecurityException e) {
                    outcome = ErrorClass.TLS;
                }
                long start = System.nanoTime();
                if (outcome == null) {
                    outcome = exchange.perform(request);
                }
                // HTTP/1.0 without keep-alive: the response ends when the server closes the connection, as
                // a WebBench or ab client reads it, so the latency runs to the close. A server that holds
                // the connection after the last byte (Tomcat's CGI servlet polls for the child's exit every
                // 500 ms) is slower for its clients, and the latency says so. With keep-alive, finish()
                // returns at once and the latency ends at the last body byte.
                outcome = exchange.finish(outcome);
                long end = System.nanoTime();
                if (start >= schedule.windowStart() && start < schedule.windowEnd()) {
                    if (outcome == null) {
                        stats.recordSuccess(end - start, exchange.headerBytes(), exchange.bodyBytes(),
                                end >= schedule.windowEnd());
                    } else {
                        stats.recordError(outcome, exchange.status());
                    }
                }
                stats.recordLive(outcome == null, outcome);
                if (outcome == ErrorClass.CONNECT_REFUSED || outcome == ErrorClass.ADDRESS_EXHAUSTED) {
                    Thread.sleep(BACKOFF_MILLIS);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            exchange.close();
            stats.addConnectionCounts(exchange.serverKeptOpen(), exchange.reconnects());
        }
    }
}
