package org.spice.commands;

import java.util.List;

import org.spice.bench.model.Reference;
import org.spice.cli.Cli;

/**
 * --pairs on one server: two probes to compare at one load, PROBE/PROBE (cgi/fastcgi). Each side is a probe the run
 * measures other than the static file (each probe's ratio to it is taken at one load already), and not the other
 * side.
 */
final class ProbePairs {

    private ProbePairs() {
    }

    /** @param atRates whether the CPU rounds run open loop at offered rates, where a pair can share one */
    static void check(Cli.Checks check, List<String> pairs, List<String> probes, boolean atRates) {
        if (!pairs.isEmpty() && !atRates) {
            throw check.fail("--pairs on one server pairs two probes at one offered rate in the CPU rounds: not with"
                    + " --cpu-clients, --cpu-time 0, --engine jmeter or --profile latency");
        }
        for (String spec : pairs) {
            String[] sides = spec.split("/", -1);
            if (sides.length != 2 || spec.contains("@")) {
                throw check.fail("--pairs on one server: PROBE/PROBE (cgi/fastcgi), not \"" + spec + "\"");
            }
            for (String side : sides) {
                if (side.equals(Reference.STATIC)) {
                    throw check.fail("--pairs " + spec + ": every probe's ratio to the static file is taken at one"
                            + " load already; name two other probes");
                }
                if (!probes.contains(side)) {
                    throw check.fail("--pairs " + spec + ": " + side + " is not measured in this run; its probes are "
                            + String.join(", ", probes));
                }
            }
            if (sides[0].equals(sides[1])) {
                throw check.fail("--pairs " + spec + ": a probe against itself");
            }
        }
    }
}
