package org.spice.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.commands.CheckResultsCommand;
import org.spice.testkit.CommandRun;

/**
 * The deploy path on two hosts, as docs/deploy.md tells it: the apache and tomcat bundles installed by their own
 * install.sh into a stock httpd and a stock Tomcat on the server's host, each on that host's address with a metrics
 * agent of its own (--pid-file: neither runs in a cgroup of its own); from the client's host, a network namespace
 * made here and removed, verify of every probe of each bundle and one bench of both deployments side by side. Then
 * the agents stop (the servers back in their cgroups), the bundles uninstall (the stock layouts as they were) and
 * the namespace goes. It stands for the httpd-2.4 and tomcat-11 cells where it runs (root, ip netns).
 */
class TwoHostsBundlesIT {

    static final String SERVER = "10.213.98.2";
    static final String CLIENT = "10.213.98.1";
    private static final int HTTPD_PORT = 18611;
    private static final int TOMCAT_PORT = 18613;
    private static final int[] AGENTS = {19711, 19721};

    @TempDir
    Path dir;

    @Test
    void theApacheAndTomcatBundlesMeasuredSideBySideFromAnotherHost() throws Exception {
        Assumptions.assumeTrue(StockBundlesIT.wantedByName("two-hosts") && Netns.possible(),
                "two hosts: the client's host is a network namespace, made as root with ip netns; skipped");
        long pid = ProcessHandle.current().pid();
        try (Netns client = Netns.make("spice-deploy-" + pid, "spd" + pid % 100_000, SERVER, CLIENT);
                StockServer httpd = new StockServer.Httpd(Bundles.archive("apache"), SERVER, HTTPD_PORT);
                StockServer tomcat = new StockServer.Tomcat(Bundles.archive("tomcat"), SERVER, TOMCAT_PORT,
                        System.getProperty("spice.tomcat.version"))) {
            try {
                bothHosts(client, httpd, tomcat);
            } finally {
                for (int port : AGENTS) {
                    Exec.spice("metrics-agent", "stop", "--port", Integer.toString(port));
                }
            }
        }
    }

    private void bothHosts(Netns client, StockServer httpd, StockServer tomcat) throws Exception {
        httpd.up();
        tomcat.up();
        httpd.awaitServing();
        tomcat.awaitServing();
        String httpdCgroup = cgroup(httpd.pidFile());
        String tomcatCgroup = cgroup(tomcat.pidFile());
        String httpdMetrics = agent(AGENTS[0], httpd.pidFile());
        String tomcatMetrics = agent(AGENTS[1], tomcat.pidFile());
        String httpdUrl = "http://" + SERVER + ":" + HTTPD_PORT;
        String tomcatUrl = "http://" + SERVER + ":" + TOMCAT_PORT;
        harness(client, 300, "verify", httpdUrl, "--probes", StockBundlesIT.cell("apache").probes()).ok("verify httpd");
        harness(client, 300, "verify", tomcatUrl, "--probes", StockBundlesIT.cell("tomcat").probes()).ok("verify tomcat");
        harness(client, 300, "verify", httpdUrl, "--http2", "--probes", StockBundlesIT.cell("apache").h2cProbes())
                .ok("verify httpd over h2c");
        harness(client, 300, "verify", tomcatUrl, "--http2", "--probes", StockBundlesIT.cell("tomcat").h2cProbes())
                .ok("verify tomcat over h2c");

        // each server's CPU through its agent, at the side-by-side default (the probes near the static file at one
        // offered rate, each far one at its own with the static file beside it); the rounds may end once every ratio
        // is within ±50 % (--cpu-precision is in percent: the 0.5 this passed until 2026-12-06 asked ±0.5 %, so the
        // rounds ran to their time bound, 13 in 110 s): what is checked is that each has an interval (check-results)
        Path out = dir.resolve("side");
        List<String> bench = new ArrayList<>(List.of("bench", "--target", "httpd=" + httpdUrl + ",tomcat=" + tomcatUrl,
                "--server-metrics", "httpd=" + httpdMetrics, "--server-metrics", "tomcat=" + tomcatMetrics));
        bench.addAll(Bundles.benchProbes());
        bench.addAll(List.of("--clients", "8", "--ramp-up", "0.5", "--duration", "1", "--ramp-down", "0.2", "--warm-up",
                "3", "--cpu-time", Integer.toString(Bundles.roundsS()), "--cpu-precision", "50", "--out", out.toString()));
        harness(client, 1800, bench.toArray(String[]::new)).ok("bench side by side from the client's host");
        CommandRun checked = CommandRun.of(new CheckResultsCommand(), out.toString(), "--label", "two hosts");
        assertEquals(0, checked.status(), checked.console());
        System.err.print(checked.console());

        for (int port : AGENTS) {
            Exec.spice("metrics-agent", "stop", "--port", Integer.toString(port)).ok("metrics-agent stop");
        }
        assertEquals("", client.pids(), "processes left on the client's host");
        assertEquals(httpdCgroup, cgroup(httpd.pidFile()), "httpd back in its cgroup after the agent stopped");
        assertEquals(tomcatCgroup, cgroup(tomcat.pidFile()), "Tomcat back in its cgroup after the agent stopped");
        httpd.down();
        tomcat.down();
    }

    /** The cgroup v2 path of the process in {@code pidFile}. */
    private static String cgroup(Path pidFile) throws IOException {
        String pid = Files.readString(pidFile).strip();
        return Files.readAllLines(Path.of("/proc", pid, "cgroup")).stream().filter(l -> l.startsWith("0::"))
                .map(l -> l.substring(3)).findFirst().orElse("");
    }

    /** A metrics agent on the server's host for the server in {@code pidFile}; its --server-metrics value. */
    private static String agent(int port, Path pidFile) {
        Exec started = Exec.spice("metrics-agent", "start", "--host", SERVER, "--port", Integer.toString(port),
                "--pid-file", pidFile.toString()).ok("metrics-agent start");
        String metrics = started.serverMetrics();
        assertFalse(metrics.isEmpty(), "metrics-agent start printed no --server-metrics:\n" + started.out());
        return metrics;
    }

    /** The harness as the user runs it (its jar), on the client's host. */
    static Exec harness(Netns client, long limitS, String... args) {
        List<String> command = new ArrayList<>(List.of("java", "-jar", Exec.HARNESS_JAR.toString()));
        command.addAll(List.of(args));
        Exec ran = client.exec(limitS, command);
        System.err.print(ran.out());
        return ran;
    }
}
