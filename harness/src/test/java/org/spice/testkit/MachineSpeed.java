package org.spice.testkit;

/**
 * How fast this machine is against the one the suite's time-dependent bounds were set on, from the figure
 * {@code scripts/spice test} measures first: the embedded server's static file at 8 clients, a connection per request,
 * as ab drives it ({@code spice.machine.rps}). A test whose bound or length depends on the machine's speed scales it by
 * {@link #slowness()}, so that a slower machine is given its room from a measurement made in the same run, not from
 * the figures of the machine the test was tuned on.
 */
public final class MachineSpeed {

    /**
     * The figure on the machine the bounds were set on: 2 cores, 2026-11-28, 15,968 and 15,895 req/s (best of three
     * runs each, as scripts/spice test measures it).
     */
    public static final double REFERENCE_RPS = 15_900;
    /**
     * How far apart the figure stands on one machine: single runs read 9,774-13,525 req/s here (1.38 ×) in five
     * suites on 2026-11-28, before the measurement took the best of three; within this a machine is not told from the
     * reference, and is given no more time.
     */
    public static final double SPREAD = 1.4;

    private MachineSpeed() {
    }

    /** The figure measured in this run, or NaN where the tests run without scripts/spice test (mvn alone). */
    public static double measuredRps() {
        String given = System.getProperty("spice.machine.rps", "");
        try {
            return given.isBlank() ? Double.NaN : Double.parseDouble(given.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("spice.machine.rps is not a rate in req/s: \"" + given + "\"", e);
        }
    }

    /**
     * How many times slower this machine is than the reference: 1 where it is as fast or faster, within the figure's
     * {@link #SPREAD} of it, or where nothing was measured; at most {@code cap}, so that a machine too slow for the suite fails on its bounds rather than
     * running for hours.
     */
    public static double slowness(double cap) {
        double measured = measuredRps();
        if (Double.isNaN(measured) || measured <= 0) {
            return 1;
        }
        double slower = REFERENCE_RPS / measured;
        return slower <= SPREAD ? 1 : Math.min(cap, slower);
    }
}
