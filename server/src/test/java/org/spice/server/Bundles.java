package org.spice.server;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.spice.testkit.MachineSpeed;

/**
 * The deploy bundles, built once per test JVM by {@code scripts/spice bundle all} into target/dist (the deploy tests
 * share them), as the user builds them.
 */
final class Bundles {

    private static final Path OUT = Exec.ROOT.resolve("target/dist");
    private static boolean built;

    private Bundles() {
    }

    /** The archive of the bundle for {@code server} (apache, nginx, tomcat, tomcat9, jetty). */
    static synchronized Path archive(String server) {
        if (!built) {
            Exec.spice("bundle", "all", "--out", OUT.toString()).ok("scripts/spice bundle all");
            built = true;
        }
        Path archive = OUT.resolve("spice-" + server + "-" + System.getProperty("spice.version") + ".tar.gz");
        if (!Files.isRegularFile(archive)) {
            throw new AssertionError("scripts/spice bundle all made no " + archive);
        }
        return archive;
    }

    /**
     * Whether the deploy benches measure every probe each bundle serves (-Dspice.deploy.probes=all, by hand: some 4 min
     * for two hosts) rather than the static file and CGI (the suite's: the probe whose CPU only a cgroup sees whole,
     * and the reference).
     */
    static boolean everyProbe() {
        return "all".equals(System.getProperty("spice.deploy.probes", ""));
    }

    /** The deploy benches' --probes option: none for every probe, else static and cgi. */
    static List<String> benchProbes() {
        return everyProbe() ? List.of() : List.of("--probes", "static,cgi");
    }

    /**
     * The deploy benches' --cpu-time: six rounds at the least for an interval; static and cgi, each at its own rate
     * with the static file beside cgi, three one-second slices a round, took 5.3 s a round at 18,500 req/s (this
     * machine's speed, MachineSpeed) and 6.4 s in a suite run that measured 20,400 (32 s then held five rounds, and
     * ReadmeDeployIT failed for want of an interval): a round's time is mostly its slices and edges, not the machine's
     * speed, so 40 s, longer only on a machine slower than 16,000 req/s. Every probe: some 25 s a round, 90 s.
     */
    static int roundsS() {
        if (everyProbe()) {
            return 90;
        }
        double rate = MachineSpeed.measuredRps();
        return Double.isNaN(rate) || rate <= 0 ? 40 : (int) Math.max(40, 40 * 16_000 / rate);
    }
}
