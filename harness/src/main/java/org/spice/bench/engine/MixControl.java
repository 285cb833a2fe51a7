package org.spice.bench.engine;

import java.util.concurrent.CountDownLatch;

import org.spice.bench.net.TlsConfig;

/**
 * What the clients of one mix share: the start signal with the schedule, the stop flag, TLS, and the count of
 * clients still on a request that started in the window.
 */
final class MixControl {

    private final CountDownLatch go = new CountDownLatch(1);
    private final CountDownLatch inWindow;
    private final TlsConfig tls;
    private volatile EventLoopEngine.Schedule schedule;
    private volatile boolean stop;

    MixControl(TlsConfig tls, int clients) {
        this.tls = tls;
        this.inWindow = new CountDownLatch(clients);
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
