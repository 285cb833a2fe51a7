package org.spice.commands;

import java.util.ArrayList;
import java.util.List;

import org.spice.bench.plan.BenchPlan;
import org.spice.cli.Cli;

import picocli.CommandLine.Option;

/**
 * The servers already running that bench measures instead of starting one (--target): one, or several side by side,
 * each NAME=BASE_URL, measured in the same rounds as the servers bench starts are.
 */
final class TargetOptions {

    @Option(names = "--target", paramLabel = "[NAME=]BASE_URL", split = ",", converter = Converters.NamedTarget.class,
            description = "Measure a server that is already running, anywhere: http[s]://HOST[:PORT][/PREFIX]."
            + " Several, each NAME=BASE_URL, are measured side by side in the same rounds, each one's CPU read where"
            + " --server-metrics NAME=... or --server-cgroup NAME=... says (one URL under two names: an A/A).")
    List<BenchPlan.Deployed> given = new ArrayList<>();

    /** Whether bench measures servers already running (and starts none). */
    boolean any() {
        return !given.isEmpty();
    }

    /** Whether several targets are measured side by side. */
    boolean several() {
        return given.size() > 1;
    }

    /** The targets, each with its name: the one given, else (one target) --server's ({@code servers}). */
    List<BenchPlan.Deployed> named(List<String> servers) {
        if (given.size() == 1 && given.get(0).name() == null && !servers.isEmpty()) {
            return List.of(new BenchPlan.Deployed(String.join(", ", servers), given.get(0).base(), null));
        }
        return List.copyOf(given);
    }

    /** How servers side by side are measured one after the other instead: --one-at-a-time, or a bench per target. */
    String oneAfterAnother() {
        return !any() ? "add --one-at-a-time to measure them one after the other"
                : "measure each --target in a bench of its own, then scripts/spice compare the two";
    }

    /** Several targets: each named, each name once; they are measured side by side, as they run. */
    void check(Cli.Checks check, List<String> servers, boolean oneAtATime, int restarts) {
        if (given.size() == 1 && given.get(0).name() != null && !servers.isEmpty()) {
            throw check.fail("--target " + given.get(0).name() + "=...: the target has a name; --server names it"
                    + " again");
        }
        if (!several()) {
            return;
        }
        List<String> names = given.stream().map(BenchPlan.Deployed::name).toList();
        if (names.contains(null)) {
            throw check.fail("--target: several are measured side by side and named so: NAME=BASE_URL each (the same"
                    + " URL under two names: an A/A), not " + given.stream().map(t -> (t.name() == null ? ""
                    : t.name() + "=") + t.base()).toList());
        }
        if (names.stream().distinct().count() < names.size()) {
            throw check.fail("--target: each target's name once, not " + names);
        }
        if (!servers.isEmpty()) {
            throw check.fail("--server: with several --target, each target's NAME= is its name");
        }
        if (oneAtATime || restarts > 1) {
            throw check.fail((oneAtATime ? "--one-at-a-time" : "--restarts") + ": several --target are measured side by"
                    + " side, as they run (bench neither starts nor stops them)");
        }
    }
}
