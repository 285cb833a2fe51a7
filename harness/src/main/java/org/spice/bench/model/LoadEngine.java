package org.spice.bench.model;

import java.util.List;

import org.HdrHistogram.Histogram;

import org.spice.bench.mix.Mix;

/**
 * What runs a ladder's mixes: SPICE's own event loops, or Apache JMeter. What an engine can do beyond the ladder is a
 * type: an engine that runs windows of any length is {@link Windowed}, and only such an engine warms to a steady state
 * or floods (JMeter starts a JVM per run, so it runs the ladder's timing only).
 */
public interface LoadEngine {

    /** Runs {@code mix} with {@code clients} clients (ramp-up, window, ramp-down) and returns what its window measured. */
    RunRecord run(Mix mix, int clients, int repeat) throws InterruptedException;

    /** Runs {@code mix} unmeasured for {@code seconds}, so neither side is cold when timing starts. */
    void warmUp(Mix mix, int clients, double seconds) throws InterruptedException;

    /**
     * {@code mix} open loop: requests due at {@code rate} a second for {@code seconds}, at most {@code maxInFlight}
     * under way, the server's CPU read around them by this engine, as it reads it around every round it runs: no phase
     * reads it around a run of its own, nor asks which engine it has.
     */
    Open open(Mix mix, double rate, int maxInFlight, double seconds) throws InterruptedException;

    /**
     * What an open-loop run measured.
     *
     * @param run        its figures, the server's CPU per request among them
     * @param serverCpuS the server's CPU over the run, seconds
     * @param latencies  its latencies from the due times, for a profile to pool; null where the engine keeps none
     * @param failure    why the run failed (the engine could not run it), or null
     */
    record Open(OpenLoopRun run, double serverCpuS, Histogram latencies, Failure failure) {
    }

    /** What the engine has to say for the results (which JMeter engine ran how many clients). */
    default List<String> notes() {
        return List.of();
    }

    /** An engine that runs windows of any timing: the steady-state check's slices, the flood's longer steps. */
    interface Windowed extends LoadEngine {

        /** As {@link #run(Mix, int, int)} with a timing of its own (a flood needs a longer ramp-up than the ladder). */
        RunRecord run(Mix mix, int clients, int repeat, double rampUpS, double windowS, double rampDownS)
                throws InterruptedException;

        /** One unmeasured slice of {@code mix} ({@code seconds} of load, no ramps) with its CPU. */
        RunRecord slice(Mix mix, int clients, double seconds) throws InterruptedException;

        /**
         * One CPU round: the mixes of {@code order} a one-second slice each, one after the other under a load that does
         * not stop in between, the first {@code leadInS} seconds longer, unmeasured; per slice its counts and CPU, and
         * the CPU of the server's JIT compiler threads when {@code readsJit}.
         */
        Round round(List<Mix> order, int clients, double leadInS, boolean readsJit) throws InterruptedException;

        /**
         * One CPU round open loop: requests due at {@code rate} a second throughout, on a schedule fixed in advance,
         * each to the mix of the slice its due time falls in (the first {@code leadInS} seconds the first mix's,
         * unmeasured); per slice its counts and CPU, as {@link #round}.
         */
        Round openRound(List<Mix> order, double rate, double leadInS, boolean readsJit) throws InterruptedException;
    }

    /**
     * What a CPU round measured.
     *
     * @param whole  the round as one window, closed loop; null for an open-loop round, which has no window's figures
     * @param slices each mix's slice, in the order they ran
     * @param ends   why the rounds must end here (a signal, the server gone), or null
     * @param note   what the round's figures carry that is not the server's (an open loop that could not keep its
     *               schedule), or null
     */
    record Round(RunRecord whole, List<CpuSlice> slices, Failure ends, String note) {
        public Round {
            slices = List.copyOf(slices);
        }

        /** A closed-loop round: it ends the rounds where its window failed for a reason that ends a ladder. */
        public Round(RunRecord whole, List<CpuSlice> slices) {
            this(whole, slices, whole.failed() && whole.failureKind().endsLadder() ? whole.failure() : null, null);
        }

        /** A round run in parts, one after another (each at its own load): their slices, the first's end or note. */
        public static Round joined(List<Round> parts) {
            List<CpuSlice> slices = new java.util.ArrayList<>();
            parts.forEach(p -> slices.addAll(p.slices()));
            return new Round(parts.get(0).whole(), slices,
                    parts.stream().map(Round::ends).filter(e -> e != null).findFirst().orElse(null),
                    parts.stream().map(Round::note).filter(n -> n != null).findFirst().orElse(null));
        }
    }
}
