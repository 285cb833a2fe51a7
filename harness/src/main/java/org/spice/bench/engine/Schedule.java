package org.spice.bench.engine;

import java.util.SplittableRandom;

import org.spice.bench.model.Arrivals;

/**
 * When an open loop's k-th request is due, in nanoseconds from the schedule's start: from k alone (a sum of sleeps
 * would drift), so that the loop's thread and its timer's each find any request's due time.
 */
public abstract sealed class Schedule permits Schedule.Even, Schedule.Poisson {

    /** {@code arrivals} at {@code rate} requests a second; a Poisson schedule draws from {@code seed}. */
    public static Schedule of(Arrivals arrivals, double rate, long seed) {
        return arrivals == Arrivals.POISSON ? new Poisson(rate, seed) : new Even(rate);
    }

    /** Request k's due time, nanoseconds after the schedule's start; never less than request k - 1's. */
    abstract long offset(long k);

    /** Requests per second, on average. */
    abstract double rate();

    /** One request every 1 / rate seconds. */
    static final class Even extends Schedule {
        private final double rate;

        Even(double rate) {
            this.rate = rate;
        }

        @Override
        long offset(long k) {
            return (long) Math.floor(k * 1e9 / rate);
        }

        @Override
        double rate() {
            return rate;
        }
    }

    /**
     * Poisson arrivals, drawn a run of {@link #RUN} requests at a time: run r holds requests r × RUN to (r + 1) × RUN
     * - 1 over the span the even schedule gives them, and places them there as RUN uniform draws in order (a Poisson
     * process given its count; the gaps between ordered uniform draws are exponential draws scaled to their sum). A
     * run's count is fixed, so the rate holds over every run's span (a third of a second at 3,000 req/s) and a
     * slice's count stays near its share; a run's draws come from the seed and the run's number alone, so the same
     * seed gives the same schedule and each thread draws a run once, when it first needs it.
     */
    static final class Poisson extends Schedule {
        static final int RUN = 1024;

        private final double rate;
        private final double runNanos;
        private final long seed;
        private final ThreadLocal<Run> current = new ThreadLocal<>();

        private record Run(long index, long[] offsets) {
        }

        Poisson(double rate, long seed) {
            this.rate = rate;
            this.runNanos = RUN * 1e9 / rate;
            this.seed = seed;
        }

        @Override
        long offset(long k) {
            long index = k / RUN;
            Run run = current.get();
            if (run == null || run.index != index) {
                run = draw(index);
                current.set(run);
            }
            return run.offsets[(int) (k % RUN)];
        }

        @Override
        double rate() {
            return rate;
        }

        private Run draw(long index) {
            SplittableRandom random = new SplittableRandom(seed ^ (index * 0x9E3779B97F4A7C15L));
            double[] sums = new double[RUN + 1];
            double sum = 0;
            for (int i = 0; i <= RUN; i++) {
                sum -= Math.log(1 - random.nextDouble());
                sums[i] = sum;
            }
            double from = index * runNanos;
            long[] offsets = new long[RUN];
            for (int i = 0; i < RUN; i++) {
                offsets[i] = (long) Math.floor(from + runNanos * sums[i] / sum);
            }
            return new Run(index, offsets);
        }
    }
}
