package org.spice.bench.model;

import org.spice.bench.mix.Mix;

/** What runs a ladder's mixes: SPICE's own event loops, or Apache JMeter. */
public interface LoadEngine {

    /** Runs {@code mix} with {@code clients} clients (ramp-up, window, ramp-down) and returns what its window measured. */
    RunRecord run(Mix mix, int clients, int repeat) throws InterruptedException;

    /**
     * As {@link #run(Mix, int, int)} with a timing of its own (a flood needs a longer ramp-up than the ladder); null
     * when the engine cannot (JMeter's runs take the ladder's timing).
     */
    default RunRecord run(Mix mix, int clients, int repeat, double rampUpS, double windowS, double rampDownS)
            throws InterruptedException {
        return null;
    }

    /** Runs {@code mix} unmeasured for {@code seconds}, so neither side is cold when timing starts. */
    void warmUp(Mix mix, int clients, double seconds) throws InterruptedException;

    /**
     * One unmeasured slice of {@code mix} ({@code seconds} of load, no ramps) with its CPU, for the steady-state
     * check; null when the engine cannot run short slices (JMeter starts a JVM per run).
     */
    default RunRecord slice(Mix mix, int clients, double seconds) throws InterruptedException {
        return null;
    }

    /** What the engine has to say for the results (which JMeter engine ran how many clients). */
    default java.util.List<String> notes() {
        return java.util.List.of();
    }
}
