package org.spice.bench.engine;

import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;

import org.spice.bench.mix.Mix;
import org.spice.bench.net.Request;
import org.spice.bench.net.TlsConfig;

/**
 * What the clients of one mix share: the start signal with the schedule, the stop flag, TLS, HTTP/2's connections, and
 * the count of clients still on a request that started in the window; for a CPU round, the mixes it runs one after
 * the other.
 */
final class MixControl {

    private final CountDownLatch go = new CountDownLatch(1);
    private final CountDownLatch inWindow;
    private final TlsConfig tls;
    private final H2Client h2;
    private final List<Mix> sequence;
    private final List<Request[]> sequenceRequests;
    private volatile EventLoopEngine.Schedule schedule;
    private volatile boolean stop;

    MixControl(TlsConfig tls, H2Client h2, int clients) {
        this(tls, h2, clients, List.of(), List.of());
    }

    /**
     * @param sequence         the mixes of a CPU round, one slice each from the window's start (the first also before
     *                         it, the last also after it); empty for a single mix
     * @param sequenceRequests their requests, in the same order
     */
    MixControl(TlsConfig tls, H2Client h2, int clients, List<Mix> sequence, List<Request[]> sequenceRequests) {
        this.tls = tls;
        this.h2 = h2;
        this.inWindow = new CountDownLatch(clients);
        this.sequence = List.copyOf(sequence);
        this.sequenceRequests = List.copyOf(sequenceRequests);
    }

    /** Whether the clients go from mix to mix, a slice each ({@link #draw}), rather than run their own. */
    boolean sequenced() {
        return !sequence.isEmpty();
    }

    /** A request of the mix whose slice {@code now} falls in (by the window's one-second grid, the edges clamped). */
    Request draw(SplittableRandom random, long now) {
        long index = Math.floorDiv(now - schedule.windowStart(), EventLoopEngine.SLICE_NANOS);
        int k = (int) Math.max(0, Math.min(sequence.size() - 1, index));
        return sequenceRequests.get(k)[sequence.get(k).draw(random)];
    }

    /** A client has ended its last request that started in the window (or stopped): it counts down once. */
    void pastWindow() {
        inWindow.countDown();
    }

    /** Zero once every client has ended what it started in the window: the ramp-down may end. */
    CountDownLatch inWindow() {
        return inWindow;
    }

    TlsConfig tls() {
        return tls;
    }

    /** What carries the HTTP/2 arms' requests. */
    H2Client h2() {
        return h2;
    }

    void start(EventLoopEngine.Schedule s) {
        schedule = s;
        go.countDown();
    }

    /** Blocks until the mix starts; null if the thread was interrupted first. */
    EventLoopEngine.Schedule awaitStart() {
        try {
            go.await();
            return schedule;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    boolean stopped() {
        return stop;
    }

    void stop() {
        stop = true;
        go.countDown();
    }
}
