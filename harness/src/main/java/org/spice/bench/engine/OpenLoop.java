package org.spice.bench.engine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.channels.Selector;
import java.util.ArrayDeque;
import java.util.concurrent.locks.LockSupport;

import org.spice.bench.model.Stop;
import org.spice.bench.net.ErrorClass;
import org.spice.bench.net.Exchange;
import org.spice.bench.net.Request;
import org.spice.bench.net.TlsConfig;

/**
 * An open loop, as wrk2 and vegeta run one: requests go out on a schedule fixed before the run, whatever the server
 * does, so that a server that stalls makes every request due in the stall wait, and each wait is counted ({@link
 * OpenPlan}). The k-th request is due at t0 + k / rate, or at a random time near it ({@link Schedule}); it goes out on
 * a new connection (or, asking for keep-alive, on a free connection of the pool), never before it is due. Its latency
 * is its completion less its due time (the connect included); its service time, completion less the moment it
 * actually went out, is kept beside it, and so is the generator's own lag (sent less due): where that lag is large,
 * the generator, not the server, was late, and the run says so ({@link OpenStats#generatorLimited}).
 *
 * <p>One thread runs the selector and every exchange, as the closed loop's {@link EventLoop} does; a timer thread
 * parks until the next due time and wakes the selector (a selector's own timeout is whole milliseconds). At most
 * {@code maxInFlight} requests are under way; past that, due requests wait in a bounded queue (their latency still
 * counts from their due time), past that they are dropped, counted, and taken as the timeout in the percentiles.
 */
public final class OpenLoop {

    /**
     * The timer spins, rather than parks, this close to a due time, or a tenth of the interval between two requests
     * if that is less: a park oversleeps by some 50-100 µs, and the spin takes that out of the lag at a few hundred
     * requests a second; at thousands it would take a core (80 of every 125 µs at 8,000 a second, on this machine's
     * two cores beside the server: its lag p99 went to 19 ms where vegeta's stayed at 0.02 ms).
     */
    private static final long SPIN_NANOS = 80_000L;
    /** How often in-flight requests are looked at for their timeout. */
    private static final long SCAN_NANOS = 20_000_000L;
    /** The schedule starts this long after the run is set up, so that its first request is not already late. */
    public static final long LEAD_MS = 20;
    private static final long LEAD_NANOS = LEAD_MS * 1_000_000L;

    /**
     * Something that holds the generator's thread before it sends request k: nothing in a run; a test's stand-in for
     * what stops a real generator (a GC pause, the scheduler), whose requests then go out late and are its lag.
     */
    interface Hold {
        Hold NONE = k -> { };

        void before(long k) throws InterruptedException;
    }

    /** One request slot: an exchange, and the request under way on it (or as an HTTP/2 stream, {@link H2Client}). */
    private static final class Slot {
        final Exchange exchange;
        long due;
        long sent;
        boolean busy;

        Slot(TlsConfig tls, int timeoutMillis, Selector selector, ByteBuffer buffer) {
            exchange = new Exchange(tls, timeoutMillis, selector, this, buffer);
        }
    }

    private final OpenPlan plan;
    private final Stop stop;
    private final Hold hold;
    private final Selector selector;
    private final Slot[] slots;
    private final ArrayDeque<Slot> free = new ArrayDeque<>();
    private final ArrayDeque<Long> queue = new ArrayDeque<>();
    private final OpenStats stats;
    private final H2Client h2;
    /** The ends of HTTP/2 streams, posted from the HTTP/2 client's threads, run on the loop's. */
    private final Inbox inbox;
    private long k;
    private int inFlight;
    private long t0;

    private OpenLoop(OpenPlan plan, TlsConfig tls, H2Client h2, Stop stop, Hold hold) throws IOException {
        this.plan = plan;
        this.h2 = h2;
        this.stop = stop;
        this.hold = hold;
        this.selector = Selector.open();
        this.inbox = new Inbox(selector);
        this.stats = new OpenStats(plan);
        ByteBuffer buffer = ByteBuffer.allocate(Exchange.BUFFER_BYTES);
        slots = new Slot[plan.maxInFlight()];
        for (int i = 0; i < slots.length; i++) {
            slots[i] = new Slot(tls, plan.timeoutMillis(), selector, buffer);
            free.push(slots[i]);
        }
    }

    /** Runs {@code plan} to its end (every request due sent, and ended or timed out), or until {@code stop}. */
    public static OpenStats run(OpenPlan plan, TlsConfig tls, Stop stop) throws InterruptedException {
        return run(plan, tls, stop, Hold.NONE);
    }

    /**
     * Runs {@code plan} with its schedule starting at {@code t0} (System.nanoTime), so the caller knows its edges; its
     * HTTP/2 requests go through {@code h2} (null where it has none).
     */
    public static OpenStats run(OpenPlan plan, TlsConfig tls, H2Client h2, Stop stop, long t0) throws InterruptedException {
        return run(plan, tls, h2, stop, Hold.NONE, t0);
    }

    static OpenStats run(OpenPlan plan, TlsConfig tls, Stop stop, Hold hold) throws InterruptedException {
        return run(plan, tls, null, stop, hold, System.nanoTime() + LEAD_NANOS);
    }

    private static OpenStats run(OpenPlan plan, TlsConfig tls, H2Client h2, Stop stop, Hold hold, long t0)
            throws InterruptedException {
        OpenLoop loop;
        try {
            loop = new OpenLoop(plan, tls, h2, stop, hold);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a selector", e);
        }
        return loop.run(t0);
    }

    private OpenStats run(long t0) throws InterruptedException {
        this.t0 = t0;
        long gcBefore = gcMillis();
        long total = plan.scheduled();
        long last = plan.due(t0, Math.max(0, total - 1));
        long giveUp = last + plan.timeoutMillis() * 1_000_000L * 2;
        Thread timer = new Thread(() -> tick(t0, total), "spice-open-loop-timer");
        timer.setDaemon(true);
        timer.start();
        try {
            long nextScan = t0 + SCAN_NANOS;
            while (true) {
                selector.select(100);
                long now = System.nanoTime();
                serveReady();
                inbox.runPosted();
                sendDue(t0, total);
                if (now - nextScan >= 0) {
                    nextScan = now + SCAN_NANOS;
                    expire(now);
                }
                if (stop.requested() || (k >= total && inFlight == 0) || now - giveUp >= 0) {
                    stats.ended(t0, k, gcMillis() - gcBefore, stop.requested());
                    return stats;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("the selector failed", e);
        } finally {
            timer.interrupt();
            close();
        }
    }

    /** Every exchange the selector found ready moved on; those that ended counted, and their slots freed. */
    private void serveReady() throws IOException {
        for (var it = selector.selectedKeys().iterator(); it.hasNext(); ) {
            var key = it.next();
            it.remove();
            Slot slot = (Slot) key.attachment();
            if (slot.busy && slot.exchange.onReady(key)) {
                ended(slot, System.nanoTime());
            }
        }
    }

    /** The queue's requests into the free slots, then every request of the schedule now due sent or queued. */
    private void sendDue(long t0, long total) throws IOException, InterruptedException {
        while (!queue.isEmpty() && !free.isEmpty()) {
            send(free.pop(), queue.poll());
        }
        while (k < total && plan.due(t0, k) - System.nanoTime() <= 0 && !stop.requested()) {
            hold.before(k);
            due(plan.due(t0, k++));
        }
    }

    private void close() {
        for (Slot slot : slots) {
            slot.exchange.close();
        }
        try {
            selector.close();
        } catch (IOException e) {
            // the run is over either way
        }
    }

    /** The timer thread: parks until each next due time and wakes the selector, so no request waits for a select. */
    private void tick(long t0, long total) {
        long spin = Math.min(SPIN_NANOS, (long) (1e8 / plan.rate()));
        long j = 0;
        while (j < total && !Thread.currentThread().isInterrupted()) {
            long at = plan.due(t0, j);
            for (long wait = at - System.nanoTime(); wait > 0; wait = at - System.nanoTime()) {
                if (wait > spin) {
                    LockSupport.parkNanos(wait - spin);   // a park oversleeps by some 50-100 µs
                } else {
                    Thread.onSpinWait();
                }
                if (Thread.currentThread().isInterrupted()) {
                    return;
                }
            }
            selector.wakeup();
            long now = System.nanoTime();
            // on to the first request due after now: those due by now go out on this wake-up
            for (j++; j < total && plan.due(t0, j) - now <= 0; j++) {
                // skipped
            }
        }
    }

    /**
     * A request is due: it goes out on a free slot, else it queues, else it is dropped. How late the generator came
     * to it is its lag (a queued request's wait for a slot is the server's doing, and in its latency).
     */
    private void due(long due) {
        stats.lag(System.nanoTime() - due);
        if (!free.isEmpty() && queue.isEmpty()) {
            send(free.pop(), due);
        } else if (queue.size() < plan.queueMax()) {
            queue.add(due);
        } else {
            stats.dropped(plan.slice(due - t0));
        }
    }

    private void send(Slot slot, long due) {
        Request request = plan.request(due - t0, stats.sentSoFar());
        slot.busy = true;
        slot.due = due;
        inFlight++;
        if (request.h2()) {
            stream(slot, request);
            return;
        }
        ErrorClass unprepared = slot.exchange.prepare(request);
        slot.sent = System.nanoTime();
        stats.sent();
        if (unprepared != null) {
            stats.failed(unprepared, plan.slice(due - t0));
            release(slot);
        } else if (slot.exchange.start(request, slot.sent)) {
            ended(slot, System.nanoTime());
        }
    }

    /** {@code request} goes as an HTTP/2 stream, its slot held until the stream's end comes back on this thread. */
    private void stream(Slot slot, Request request) {
        slot.sent = System.nanoTime();
        stats.sent();
        h2.send(request, inbox, (outcome, status, body, end) -> ended(slot, end, outcome));
    }

    private void ended(Slot slot, long end) {
        ended(slot, end, slot.exchange.outcome());
    }

    private void ended(Slot slot, long end, ErrorClass outcome) {
        int slice = plan.slice(slot.due - t0);
        if (outcome == null) {
            stats.succeeded(end - slot.due, end - slot.sent, end, slice);
        } else {
            stats.failed(outcome, slice);
            if (outcome == ErrorClass.TIMEOUT) {
                stats.timedOut();
            }
        }
        release(slot);
    }

    /**
     * The slot is free again (last in, first out: a kept connection is used again while it is warm); the loop gives it
     * to the oldest queued request, whose latency counts from its due time.
     */
    private void release(Slot slot) {
        slot.busy = false;
        inFlight--;
        free.push(slot);
    }

    private void expire(long now) {
        for (Slot slot : slots) {
            if (slot.busy && slot.exchange.expire(now)) {
                ended(slot, now);
            }
        }
    }

    private static long gcMillis() {
        long sum = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            sum += Math.max(0, gc.getCollectionTime());
        }
        return sum;
    }
}
