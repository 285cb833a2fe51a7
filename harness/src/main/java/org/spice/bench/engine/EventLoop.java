package org.spice.bench.engine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.channels.Selector;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import org.spice.bench.net.Exchange;

/**
 * One selector thread serving many closed-loop clients, as wrk does: one epoll_wait returns the ready
 * connections of several clients, where a thread per client would pay a wake-up and a context switch per
 * response. The loop owns what its clients share: the read buffer and the latency histogram.
 *
 * <p>Back-offs end on a tick of a few milliseconds (they are all equally long, so a queue in the order
 * they began holds them), so the selector never waits longer than one tick. Request timeouts are looked
 * for over all clients less often, every twentieth of the timeout: with 20,000 clients a scan per tick
 * was the loop's biggest cost.
 */
final class EventLoop implements Runnable {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final long TICK_MILLIS = 5;
    private static final long TICK_NANOS = TICK_MILLIS * 1_000_000L;

    private final Selector selector;
    /** The ends of its clients' HTTP/2 streams, posted from the HTTP/2 client's threads. */
    private final Inbox inbox;
    private final List<LoopClient> clients = new ArrayList<>();
    private final ArrayDeque<LoopClient> backingOff = new ArrayDeque<>();
    private final long scanNanos;
    private int finished;
    private final MixControl control;
    private final CountDownLatch ready;
    /** Shared by the loop's clients: each consumes what it reads before the next one reads. */
    private final ByteBuffer buffer = ByteBuffer.allocate(Exchange.BUFFER_BYTES);
    private final LoopStats stats;
    /** The loop thread's CPU time when it saw the measured window start (-1 until then), and when that was. */
    private long cpuAtWindowStart = -1;
    private long windowStartSeen;
    private boolean windowMeasured;
    /** How busy the loop was in the window, once it has seen the window end. */
    private volatile double busy = Double.NaN;

    EventLoop(MixControl control, CountDownLatch ready, int timeoutMillis) {
        this.scanNanos = Math.max(TICK_NANOS, Math.min(250_000_000L, timeoutMillis * 1_000_000L / 20));
        this.control = control;
        this.ready = ready;
        this.stats = new LoopStats(timeoutMillis);
        try {
            selector = Selector.open();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a selector", e);
        }
        inbox = new Inbox(selector);
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

    /** The loop thread's CPU time (user and system) over the measured window's length: 1 is saturated. */
    double busy() {
        return busy;
    }

    /** Notes the thread's CPU time as the window starts and ends (to a turn of the loop). */
    private void window(EventLoopEngine.Schedule schedule, long now) {
        if (windowMeasured || now - schedule.windowStart() < 0) {
            return;
        }
        boolean ended = now - schedule.windowEnd() >= 0;
        if (cpuAtWindowStart < 0 && ended) {
            busy = 1;   // the loop did not come back from its clients for the whole window: busy throughout
            windowMeasured = true;
        } else if (cpuAtWindowStart < 0) {
            cpuAtWindowStart = THREADS.getCurrentThreadCpuTime();
            windowStartSeen = now;
        } else if (ended) {
            busy = (THREADS.getCurrentThreadCpuTime() - cpuAtWindowStart) / (double) (now - windowStartSeen);
            windowMeasured = true;
        }
    }

    /** Where its clients' HTTP/2 streams end: on the loop's thread. */
    Inbox inbox() {
        return inbox;
    }

    void add(LoopClient client) {
        clients.add(client);
    }

    @Override
    public void run() {
        ready.countDown();
        EventLoopEngine.Schedule schedule = control.awaitStart();
        try {
            if (schedule == null) {
                return;
            }
            stats.window(schedule.windowStart(), schedule.windowEnd());
            for (LoopClient client : clients) {
                client.begin(schedule);
            }
            select(schedule);
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

    /** The loop proper: ready connections served, then on every tick the backed-off resumed and the late expired. */
    private void select(EventLoopEngine.Schedule schedule) throws IOException {
        boolean abandoned = false;
        long began = System.nanoTime();
        long nextTick = began + TICK_NANOS;
        long nextScan = began + scanNanos;
        while (true) {
            int ready = selector.select(TICK_MILLIS);
            long now = System.nanoTime();
            window(schedule, now);
            if (ready > 0) {
                for (var it = selector.selectedKeys().iterator(); it.hasNext(); ) {
                    var key = it.next();
                    it.remove();
                    ((LoopClient) key.attachment()).onReady(key);
                }
            }
            inbox.runPosted();
            if (now - nextTick >= 0) {
                nextTick = now + TICK_NANOS;
                resume(now);
                if (!abandoned && control.stopped()) {
                    abandoned = true;
                    clients.forEach(LoopClient::abandonIfUnrecorded);
                }
                if (now - nextScan >= 0) {
                    nextScan = now + scanNanos;
                    for (LoopClient client : clients) {
                        client.expireIfLate(now);
                    }
                }
                if (finished == clients.size()) {
                    return;
                }
            }
        }
    }

    /** {@code client} backs off until its resumeAt: they are all equally long, so the queue stays in order. */
    void backOff(LoopClient client) {
        backingOff.add(client);
    }

    /** One of the loop's clients has stopped for good. */
    void clientFinished() {
        finished++;
    }

    private void resume(long now) {
        while (!backingOff.isEmpty() && backingOff.peek().resumeIfDue(now)) {
            backingOff.poll();
        }
    }
}
