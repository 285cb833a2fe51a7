package org.spice.commands;

import java.util.List;
import java.util.TreeSet;

import org.spice.bench.model.FloodPlan;
import org.spice.bench.model.Timing;
import org.spice.cli.Cli;

import picocli.CommandLine.Option;

/** The options of {@code bench --profile overload}: where the peak is, and how far past it to go. */
final class FloodOptions {

    /** The most a multiple may be: past 1,000 × a peak of one client, the flood measures the client, not the server. */
    static final int MAX_MULTIPLE = 1000;

    @Option(names = "--peak-clients", paramLabel = "N", description = "With --profile overload: the peak's client count"
            + " of every workload, instead of each one's useful peak from the ladder (the ladder then runs at N only,"
            + " unless --clients says otherwise).")
    Integer peakClients;

    @Option(names = "--multiples", paramLabel = "LIST", split = ",", description = "With --profile overload: the"
            + " multiples of the peak's clients to measure (default 2,4,8,16).")
    List<Integer> multiples;

    @Option(names = "--flood-timing", paramLabel = "UP,WINDOW,DOWN,PAUSE", split = ",", converter = Converters.Seconds.class, description = "With --profile"
            + " overload: each step's ramp-up, window, ramp-down and the pause before it, seconds (default 3,5,1,2).")
    List<Double> timing;

    /** The flood the options ask for (null unless the profile is overload), checked. */
    FloodPlan flood(Cli.Checks check, Timing.Profile profile) {
        if (profile != Timing.Profile.OVERLOAD) {
            if (peakClients != null || multiples != null || timing != null) {
                throw check.fail("--peak-clients, --multiples and --flood-timing go with --profile overload");
            }
            return null;
        }
        if (peakClients != null && peakClients < 1) {
            throw check.fail("--peak-clients takes a client count above 0, not " + peakClients);
        }
        TreeSet<Integer> sorted = new TreeSet<>(multiples == null ? FloodPlan.MULTIPLES : multiples);
        if (sorted.first() < 2 || sorted.last() > MAX_MULTIPLE) {
            throw check.fail("--multiples takes whole numbers from 2 to " + MAX_MULTIPLE + ", not " + multiples);
        }
        return new FloodPlan(peakClients == null ? 0 : peakClients, List.copyOf(sorted), timing(check));
    }

    /** The steps' timing given, checked: four numbers of seconds, the window above 0. */
    private List<Double> timing(Cli.Checks check) {
        if (timing == null) {
            return FloodPlan.TIMING;
        }
        if (timing.size() != 4 || timing.get(1) <= 0) {
            throw check.fail("--flood-timing takes four numbers of seconds, UP,WINDOW,DOWN,PAUSE, the window above 0"
                    + " (e.g. 3,5,1,2), not " + timing);
        }
        return timing;
    }

    /** The ladder's client counts when none are given: the peak's alone if it is given, else the default ladder. */
    List<Integer> ladder() {
        return peakClients == null ? null : List.of(peakClients);
    }
}
