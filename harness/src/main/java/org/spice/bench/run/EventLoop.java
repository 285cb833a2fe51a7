package org.spice.bench.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import org.spice.bench.net.Exchange;
import org.spice.bench.stats.LoopStats;

/**
 * One selector thread serving many closed-loop clients, as wrk does: one epoll_wait returns the ready
 * connections of several clients, where a thread per client would pay a wake-up and a context switch per
 * response. The loop owns what its clients share: the read buffer and the latency histogram.
 *
 * <p>Timeouts and back-offs are checked on a tick of a few milliseconds, so the selector never waits
 * longer than one tick.
 */
final class EventLoop implements Runnable {

    private static final long TICK_MILLIS = 5;
    private static final long TICK_NANOS = TICK_MILLIS * 1_000_000L;

    private final Selector selector;
    private final List<LoopClient> clients = new ArrayList<>();
    private final MixRunner.Control control;
    private final CountDownLatch ready;
    /** Shared by the loop's clients: each consumes what it reads before the next one reads. */
    private final ByteBuffer buffer = ByteBuffer.allocate(Exchange.BUFFER_BYTES);
    private final LoopStats stats;
    /** Time spent waiting in select(2) and the time the loop ran: together, how busy the engine was. */
    private volatile long idleNanos;
    private volatile long runNanos;

    EventLoop(MixRunner.Control control, CountDownLatch ready, int timeoutMillis) {
        this.control = control;
        this.ready = ready;
        this.stats = new LoopStats(timeoutMillis);
        try {
            selector = Selector.open();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a selector", e);
        }
    }

    Selector selector() {
        return selector;
    }

    ByteBuffer buffer() {
        return buffer;
    }

    LoopStats stats() {
        return stats;
    }

    /** The share of its running time the loop spent on its clients rather than waiting for them: 1 is saturated. */
    double busy() {
        long run = runNanos;
        return run > 0 ? 1 - idleNanos / (double) run : Double.NaN;
    }

    void add(LoopClient client) {
        clients.add(client);
    }

    @Override
    public void run() {
        ready.countDown();
        MixRunner.Schedule schedule = control.awaitStart();
        try {
            if (schedule == null) {
                return;
            }
            for (LoopClient client : clients) {
                client.begin(schedule);
            }
            long began = System.nanoTime();
            long nextTick = began + TICK_NANOS;
            long idle = 0;
            while (true) {
                long before = System.nanoTime();
                int ready = selector.select(TICK_MILLIS);
                long now = System.nanoTime();
                idle += now - before;
                idleNanos = idle;
                runNanos = now - began;
                if (ready > 0) {
                    for (var it = selector.selectedKeys().iterator(); it.hasNext(); ) {
                        var key = it.next();
                        it.remove();
                        ((LoopClient) key.attachment()).onReady(key);
                    }
                }
                if (now - nextTick >= 0) {
                    nextTick = now + TICK_NANOS;
                    if (tick(now)) {
                        return;
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("the selector failed", e);
        } finally {
            for (LoopClient client : clients) {
                client.close();
            }
            try {
                selector.close();
            } catch (IOException e) {
                // the loop is over either way
            }
        }
    }

    /** Runs every client's periodic check; true when all of them have finished. */
    private boolean tick(long now) {
        boolean all = true;
        for (LoopClient client : clients) {
            client.tick(now);
            all &= client.finished();
        }
        return all;
    }
}
