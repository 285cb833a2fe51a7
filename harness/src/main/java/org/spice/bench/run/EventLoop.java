package org.spice.bench.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import org.spice.bench.net.ResponseReader;

/**
 * One selector thread serving many closed-loop clients, as wrk does. Why: with a blocking thread per
 * client, every response costs a thread wake-up and a context switch; here one epoll_wait returns the
 * ready connections of several clients, which on loopback is the bulk of the client's CPU per request.
 *
 * <p>Timeouts and back-offs are checked on a tick of a few milliseconds (the blocking engine's Watchdog
 * has the same resolution), so the selector never waits longer than one tick.
 */
final class EventLoop implements Runnable {

    private static final long TICK_MILLIS = 5;
    private static final long TICK_NANOS = TICK_MILLIS * 1_000_000L;

    private final Selector selector;
    private final List<LoopClient> clients = new ArrayList<>();
    private final MixRunner.Control control;
    private final CountDownLatch ready;
    /** Shared by the loop's clients: each consumes what it reads before the next one reads. */
    private final ByteBuffer buffer = ByteBuffer.allocate(ResponseReader.BUFFER_BYTES);

    EventLoop(MixRunner.Control control, CountDownLatch ready) {
        this.control = control;
        this.ready = ready;
        try {
            selector = Selector.open();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a selector", e);
        }
    }

    Selector selector() {
        return selector;
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
            long nextTick = System.nanoTime() + TICK_NANOS;
            while (true) {
                selector.select(key -> ((LoopClient) key.attachment()).onReady(key, buffer), TICK_MILLIS);
                long now = System.nanoTime();
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
