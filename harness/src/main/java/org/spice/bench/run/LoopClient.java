package org.spice.bench.run;

import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.SplittableRandom;

import org.spice.bench.mix.Mix;
import org.spice.bench.net.ErrorClass;
import org.spice.bench.net.NioExchange;
import org.spice.bench.net.Request;
import org.spice.bench.stats.ClientStats;

/**
 * One closed-loop client on an {@link EventLoop}: the same loop as {@link ClientLoop} (draw, send, read
 * to the end, record by the same window rule, next request at once), cut into callbacks because it
 * shares its thread with other clients. Only its loop's thread touches it.
 */
final class LoopClient {

    /** Pause after a refused connection or an exhausted port, as ClientLoop does. */
    private static final long BACKOFF_NANOS = 10_000_000L;

    private final Mix mix;
    private final Request[] requests;
    private final ClientStats stats;
    private final SplittableRandom random;
    private final MixRunner.Control control;
    private final NioExchange exchange;

    private MixRunner.Schedule schedule;
    private long start;
    /** When a client backing off may start again; 0 when it is not backing off. */
    private long resumeAt;
    private boolean finished;

    LoopClient(Mix mix, Request[] requests, ClientStats stats, long seed, MixRunner.Control control,
            BenchOptions options, Selector selector) {
        this.mix = mix;
        this.requests = requests;
        this.stats = stats;
        this.random = new SplittableRandom(seed);
        this.control = control;
        this.exchange = new NioExchange(options.target, options.timeoutMillis, options.keepAlive, selector, this);
    }

    /** The mix has started: the first request goes out now. */
    void begin(MixRunner.Schedule s) {
        schedule = s;
        next();
    }

    void onReady(SelectionKey key, ByteBuffer buffer) {
        if (exchange.onReady(key, buffer)) {
            completed();
        }
    }

    /** The loop's periodic check: the per-request timeout, and the end of a back-off. */
    void tick(long now) {
        if (finished) {
            return;
        }
        if (resumeAt != 0) {
            if (now - resumeAt >= 0) {
                resumeAt = 0;
                next();
            }
        } else if (exchange.expire(now)) {
            completed();
        }
    }

    boolean finished() {
        return finished;
    }

    /** Called once by the loop when it ends. */
    void close() {
        exchange.close();
        stats.addConnectionCounts(exchange.serverKeptOpen(), exchange.reconnects());
        finished = true;
    }

    /** Starts requests until one is under way, the client backs off, or the run is over. */
    private void next() {
        while (true) {
            long now = System.nanoTime();
            if (control.stopped() || now - schedule.stopAt() >= 0) {
                exchange.close();
                finished = true;
                return;
            }
            Request request = requests[mix.draw(random)];
            start = now;
            if (!exchange.start(request, now) || !record(System.nanoTime())) {
                return;
            }
        }
    }

    private void completed() {
        if (record(System.nanoTime())) {
            next();
        }
    }

    /** Records the finished exchange; false if the client must back off before its next request. */
    private boolean record(long end) {
        ErrorClass outcome = exchange.outcome();
        if (start - schedule.windowStart() >= 0 && start - schedule.windowEnd() < 0) {
            if (outcome == null) {
                stats.recordSuccess(end - start, exchange.headerBytes(), exchange.bodyBytes(),
                        end - schedule.windowEnd() >= 0);
            } else {
                stats.recordError(outcome, exchange.status());
            }
        }
        stats.recordLive(outcome == null, outcome);
        if (outcome == ErrorClass.CONNECT_REFUSED || outcome == ErrorClass.ADDRESS_EXHAUSTED) {
            resumeAt = end + BACKOFF_NANOS;
            if (resumeAt == 0) {
                resumeAt = 1;   // 0 means "not backing off"
            }
            return false;
        }
        return true;
    }
}
