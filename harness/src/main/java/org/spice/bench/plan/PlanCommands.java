package org.spice.bench.plan;

import java.nio.file.Path;

import org.spice.bench.model.Server;
import org.spice.cli.Cli;
import org.spice.servers.Checkout;

/** What bench, explain and sweep share: where the checkout is, and their option checks. */
public final class PlanCommands {

    /** Longest a phase may last: a day. Longer is a typo, not a benchmark. */
    public static final double MAX_SECONDS = 86_400;

    private PlanCommands() {
    }

    /**
     * The checkout this harness was built in (harness/target/spice-harness.jar or harness/target/classes), or the one
     * the spice.root property names.
     */
    public static Path projectRoot() {
        return Checkout.root();
    }

    /** The server a --server option names, or the usage error that lists them. */
    public static Server server(Cli.Checks check, String name) {
        return Server.find(name).orElseThrow(() -> check.fail("--server takes " + Server.ids() + ", not \"" + name + "\""));
    }

    /** Seconds an option gives, checked (above 0, or 0 too when {@code zero}; at most a day), or {@code byDefault}. */
    public static double seconds(Cli.Checks check, String option, Double value, double byDefault, boolean zero) {
        if (value == null) {
            return byDefault;
        }
        double seconds = check.number(option, value.toString(), zero);
        if (seconds > MAX_SECONDS) {
            throw check.fail(option + " takes at most " + (long) MAX_SECONDS + " seconds (a day), not \"" + value + "\"");
        }
        return seconds;
    }
}
