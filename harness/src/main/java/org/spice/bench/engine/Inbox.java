package org.spice.bench.engine;

import java.nio.channels.Selector;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Work handed to a selector loop from other threads (the ends of HTTP/2 streams, from {@link H2Client}'s): posted with
 * a wake-up of the loop's selector, run on the loop's own thread at its next turn, so that the loop's counts stay
 * single-threaded. The closed loop's {@link EventLoop} and the {@link OpenLoop} each drain one.
 */
final class Inbox {

    private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final Selector selector;

    Inbox(Selector selector) {
        this.selector = selector;
    }

    /** Runs {@code task} on the loop's thread at its next turn, which it starts at once. */
    void post(Runnable task) {
        tasks.add(task);
        selector.wakeup();
    }

    /** Runs what was posted, on the calling (the loop's) thread. */
    void runPosted() {
        for (Runnable task = tasks.poll(); task != null; task = tasks.poll()) {
            task.run();
        }
    }
}
