package org.spice.bench.engine;

import java.nio.channels.SelectionKey;
import java.util.SplittableRandom;

import org.spice.bench.mix.Mix;
import org.spice.bench.model.BenchSettings;
import org.spice.bench.net.ErrorClass;
import org.spice.bench.net.Exchange;
import org.spice.bench.net.Request;

/**
 * One closed-loop client on an {@link EventLoop}: draw a request, send it, read to the end, record it,
 * next request at once, until the end of the ramp-down (which ends as soon as every client has ended the last
 * request it started in the window). Only its loop's thread touches it.
 *
 * <p>Which requests count: those that START in the measured window, whether they end in the window or
 * in the ramp-down (the ramp-down keeps the load on, and a client always finishes its current request
 * before it stops). In a closed loop the number of starts in a window of length W is W / mean latency per
 * client without bias, and no latency is cut off. The stricter "start and end in the window" rule loses
 * about one request per client at each edge and systematically drops the slowest requests at the end;
 * {@code completed_after_window} in results.json says how many requests the two rules differ by.
 */
final class LoopClient {

    /** Pause after a refused connection or an exhausted port, so a dead server does not turn into a busy loop. */
    private static final long BACKOFF_NANOS = 10_000_000L;

    private final Mix mix;
    private final Request[] requests;
    private final ClientCounts counts;
    private final LoopStats stats;
    private final SplittableRandom random;
    private final MixControl control;
    private final Exchange exchange;
    private final EventLoop loop;

    private EventLoopEngine.Schedule schedule;
    private long start;
    /** When a client backing off may start again; 0 when it is not backing off. */
    private long resumeAt;
    private boolean finished;
    /** Whether this client has ended its last request that started in the window, and said so. */
    private boolean pastWindow;
    /** Whether its request is under way as an HTTP/2 stream ({@link H2Client}), whose end the loop is posted. */
    private boolean streaming;

    LoopClient(Mix mix, Request[] requests, ClientCounts counts, long seed, MixControl control,
            EventLoop loop, BenchSettings settings) {
        this.mix = mix;
        this.requests = requests;
        this.counts = counts;
        this.stats = loop.stats();
        this.loop = loop;
        this.random = new SplittableRandom(seed);
        this.control = control;
        this.exchange = new Exchange(control.tls(), settings.target().timeoutMillis(), loop.selector(),
                this, loop.buffer());
    }

    /** The mix has started: the first request goes out now. */
    void begin(EventLoopEngine.Schedule s) {
        schedule = s;
        next();
    }

    void onReady(SelectionKey key) {
        if (exchange.onReady(key)) {
            completed();
        }
    }

    /** The loop's scan for requests that overran the timeout. */
    void expireIfLate(long now) {
        if (!finished && resumeAt == 0 && exchange.expire(now)) {
            completed();
        }
    }

    /** The end of a back-off, if due: the client starts again; false if it must wait longer. */
    boolean resumeIfDue(long now) {
        if (now - resumeAt < 0) {
            return false;
        }
        resumeAt = 0;
        next();
        return true;
    }

    /**
     * Once the run is stopped: a request started past the window, whose outcome nothing records, is abandoned at once
     * (with a reset) rather than waited for: after a flood, thousands of them sit in the server's SYN queue.
     */
    void abandonIfUnrecorded() {
        if (!finished && resumeAt == 0 && schedule != null && start - schedule.windowEnd() >= 0) {
            streaming = false;
            exchange.abandon();
            finish();
        }
    }

    /** Called once by the loop when it ends. */
    void close() {
        streaming = false;
        exchange.abandon();
        stats.addConnectionCounts(exchange.serverKeptOpen(), exchange.reconnects());
        finish();
    }

    private void finish() {
        if (!finished) {
            finished = true;
            loop.clientFinished();
            pastWindow();
        }
    }

    private void pastWindow() {
        if (!pastWindow) {
            pastWindow = true;
            control.pastWindow();
        }
    }

    /** Starts requests until one is under way, the client backs off, or the run is over. */
    private void next() {
        while (true) {
            if (control.stopped() || System.nanoTime() - schedule.stopAt() >= 0) {
                exchange.close();
                finish();
                return;
            }
            Request request = control.sequenced() ? control.draw(random, System.nanoTime()) : requests[mix.draw(random)];
            if (request.h2()) {
                stream(request);
                return;
            }
            ErrorClass unprepared = exchange.prepare(request);   // a TLS engine is made before the clock starts
            start = System.nanoTime();
            if (start - schedule.windowEnd() >= 0) {
                pastWindow();   // what it started in the window is recorded: the ramp-down need not wait for it
            }
            if (unprepared != null) {
                if (!record(unprepared, start)) {
                    return;
                }
                continue;
            }
            if (!exchange.start(request, start) || !record(exchange.outcome(), System.nanoTime())) {
                return;
            }
        }
    }

    /** {@code request} goes as an HTTP/2 stream; its end comes back on the loop's thread, and the next starts then. */
    private void stream(Request request) {
        start = System.nanoTime();
        if (start - schedule.windowEnd() >= 0) {
            pastWindow();
        }
        streaming = true;
        control.h2().send(request, loop.inbox(), (outcome, status, body, end) -> {
            if (streaming) {   // else abandoned, or the loop is over
                streaming = false;
                if (record(outcome, end, 0, body, status)) {
                    next();
                }
            }
        });
    }

    private void completed() {
        if (record(exchange.outcome(), System.nanoTime())) {
            next();
        }
    }

    /** Records the finished exchange; false if the client must back off before its next request. */
    private boolean record(ErrorClass outcome, long end) {
        return record(outcome, end, exchange.headerBytes(), exchange.bodyBytes(), exchange.status());
    }

    /**
     * Records a finished request, its head's and body's bytes as read ({@code head} 0 for an HTTP/2 stream, whose
     * header block HPACK compresses); false if the client must back off before its next request.
     */
    private boolean record(ErrorClass outcome, long end, long head, long body, int status) {
        if (start - schedule.windowStart() >= 0 && start - schedule.windowEnd() < 0) {
            if (outcome == null) {
                stats.recordSuccess(counts, start, end, head, body, end - schedule.windowEnd() >= 0);
            } else {
                stats.recordError(counts, outcome, status, start);
            }
        }
        stats.recordLive(outcome == null, outcome);
        if (outcome == ErrorClass.CONNECT_REFUSED || outcome == ErrorClass.ADDRESS_EXHAUSTED || outcome == ErrorClass.TLS) {
            resumeAt = end + BACKOFF_NANOS;
            if (resumeAt == 0) {
                resumeAt = 1;   // 0 means "not backing off"
            }
            loop.backOff(this);
            return false;
        }
        return true;
    }
}
