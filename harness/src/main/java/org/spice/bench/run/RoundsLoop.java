package org.spice.bench.run;

import java.io.IOException;
import java.io.PrintStream;
import java.util.Locale;

import org.spice.bench.model.CpuRounds;
import org.spice.bench.model.Failure;
import org.spice.bench.model.Stop;

/**
 * The loop every kind of rounds shares ({@link CrossRounds}, within a server or across servers, {@link LatencyRounds}
 * at common rates, {@link CostRounds} along each probe's rates): before a round, whether one more as long as the last still fits the time
 * bound; the round; a signal or a failed round ends the rounds, recorded as cut short; else the round's progress line,
 * then either every figure has reached its aim and the rounds end, or the rounds so far are recorded as in progress
 * and the next round's workloads chosen. What a round runs, what its figures are and where they go is the kind's.
 */
final class RoundsLoop {

    /** Why the rounds stopped, while they have not. */
    static final String IN_PROGRESS = "in progress";

    /** What a kind of rounds supplies. */
    interface Kind {
        /** Runs round {@code r} and keeps its figures: null, or why it could not finish. A signal may end it early. */
        Failure round(int r) throws InterruptedException, IOException;

        /** The progress line after a round. */
        String progress();

        /** Whether every figure has reached its aim. */
        boolean precise();

        /** Hands the rounds so far, with why they stopped ({@link #IN_PROGRESS} while they go on), to their record. */
        void record(String stoppedBy) throws IOException;

        /** Chooses the next round's workloads once a round has left some figure short of its aim. */
        default void narrow() {
        }

        /** Why the rounds stopped once {@link #precise}; null: every figure of the bound's within its precision. */
        default String finished() {
            return null;
        }
    }

    /**
     * The time the rounds may take.
     *
     * @param seconds   the bound: no round starts that would end past it, judged by the last round's length
     * @param firstS    what the first round is expected to take
     * @param every     what has to be precise, for the reasons the rounds stop ("every probe", "every ratio")
     * @param oneAlways whether the first round runs even if it may pass the bound (a profile needs one round)
     */
    record Bound(double seconds, double firstS, String every, boolean oneAlways) {
    }

    private RoundsLoop() {
    }

    /** Runs {@code kind}'s rounds within {@code bound}: null, or why the run must stop. */
    static Failure run(Kind kind, Bound bound, Stop stop, PrintStream err) throws InterruptedException, IOException {
        long began = System.nanoTime();
        double lastS = bound.firstS();
        for (int r = 1; ; r++) {
            if ((r > 1 || !bound.oneAlways()) && seconds(began) + lastS > bound.seconds()) {
                kind.record(String.format(Locale.ROOT, "%s (%.0f s) before %s was within its precision",
                        CpuRounds.AT_TIME_BOUND, bound.seconds(), bound.every()));
                return null;
            }
            long roundBegan = System.nanoTime();
            Failure ends = kind.round(r);
            if (stop.requested()) {
                kind.record("cut short: " + stop.why());
                return stop.failure();
            }
            if (ends != null) {
                kind.record("cut short: " + ends.reason());
                return ends;
            }
            lastS = seconds(roundBegan);
            err.println(kind.progress());
            if (kind.precise()) {
                kind.record(kind.finished() != null ? kind.finished() : bound.every() + CpuRounds.REACHED_AIM);
                return null;
            }
            kind.record(IN_PROGRESS);
            kind.narrow();
        }
    }

    private static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }
}
