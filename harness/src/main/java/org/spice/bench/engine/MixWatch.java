package org.spice.bench.engine;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.spice.bench.model.Failure;
import org.spice.bench.model.Stop;
import org.spice.bench.proc.CpuMeter;

/**
 * The runner thread's watch over a running mix, so that a crashed server costs seconds rather than a whole window: a
 * signal, one of the server's processes gone, or every connection refused with no success for a while.
 */
final class MixWatch {

    /** With no success for this long while connections are refused, the server is taken for dead. */
    private static final long DEAD_AFTER_NANOS = TimeUnit.SECONDS.toNanos(2);
    private static final long POLL_MILLIS = 100;
    /** A latch nothing counts down: a wait on it is a sleep. */
    private static final CountDownLatch NEVER = new CountDownLatch(1);

    private final List<LoopStats> stats;
    private final Stop stop;
    private final List<Long> pids;
    private long lastSuccesses = -1;
    private long lastProgress = System.nanoTime();
    private long refusalsAtProgress;
    private boolean serverGone;

    MixWatch(List<LoopStats> stats, Stop stop, List<Long> pids) {
        this.stats = stats;
        this.stop = stop;
        this.pids = pids;
    }

    boolean serverGone() {
        return serverGone;
    }

    /** Sleeps until {@code deadline}; returns null, or why the mix must end now. */
    Failure until(long deadline) throws InterruptedException {
        return until(deadline, NEVER);
    }

    /** Sleeps until {@code deadline} or until {@code done} has counted down; null, or why the mix must end now. */
    Failure until(long deadline, CountDownLatch done) throws InterruptedException {
        while (true) {
            Failure reason = check();
            long left = deadline - System.nanoTime();
            if (reason != null || left <= 0 || done.getCount() == 0) {
                return reason;
            }
            done.await(Math.max(1, Math.min(POLL_MILLIS, TimeUnit.NANOSECONDS.toMillis(left))), TimeUnit.MILLISECONDS);
        }
    }

    private Failure check() {
        if (stop.requested()) {
            return stop.failure();
        }
        Failure gone = processGone(pids);
        if (gone != null) {
            serverGone = true;
            return gone;
        }
        long successes = 0;
        long refusals = 0;
        for (LoopStats s : stats) {
            successes += s.liveSuccesses();
            refusals += s.liveRefusals();
        }
        long now = System.nanoTime();
        if (successes != lastSuccesses) {
            lastSuccesses = successes;
            lastProgress = now;
            refusalsAtProgress = refusals;
            return null;
        }
        if (now - lastProgress > DEAD_AFTER_NANOS && refusals > refusalsAtProgress) {
            serverGone = true;
            return Failure.of(Failure.Kind.SERVER_DOWN, "the server refused connections and answered none for "
                    + TimeUnit.NANOSECONDS.toSeconds(DEAD_AFTER_NANOS) + " s: it has stopped");
        }
        return null;
    }

    /** Why the mix must end if one of the server's processes is gone, else null. */
    static Failure processGone(List<Long> pids) {
        for (long pid : pids) {
            if (!CpuMeter.processExists(pid)) {
                return Failure.of(Failure.Kind.SERVER_GONE, "the server process " + pid + " is gone");
            }
        }
        return null;
    }
}
