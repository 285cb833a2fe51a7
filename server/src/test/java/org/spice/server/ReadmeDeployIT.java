package org.spice.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.spice.commands.CheckResultsCommand;
import org.spice.testkit.CommandRun;

/**
 * README.md's "Deploying the probes onto your own server", run as printed: its lines for the server's machine in a
 * second machine made here (a network namespace with an address of its own, and a mount namespace whose /etc, /opt and
 * /var are overlays of this machine's and whose /run is empty: Debian's own httpd, with its own configuration,
 * installed into and started there, nothing written to this machine's), its lines for the client here. Only the
 * placeholders are filled in (VERSION, SERVER, SPICE: this checkout; METRICS: what the agent printed) and, but for
 * -Dspice.deploy.probes=all, options added to bench for the suite's time. bench must end with the CPU table, every
 * probe's CPU from httpd's cgroup. Then the agent stops, the bundle uninstalls, /etc/apache2 is as it was, and the
 * machine goes.
 */
class ReadmeDeployIT {

    private static final String SERVER = "10.213.97.2";
    private static final String CLIENT = "10.213.97.1";
    /** The same files, links and contents under /etc/apache2, wherever it is run. */
    private static final String APACHE_CONF_STATE = "cd /etc/apache2 && find . \\( -type f -o -type l \\) -printf '%y %p %l\\n'"
            + " | sort && find . -type f -print0 | sort -z | xargs -0 sha256sum";

    @Test
    void theDeploySectionRunsAsPrinted() throws Exception {
        Assumptions.assumeTrue(StockBundlesIT.wantedByName("readme") && possible(), "readme: it needs root, ip netns,"
                + " unshare, nsenter, overlayfs, sudo and Debian's apache2; skipped");
        Path root = Files.createTempDirectory("spice-readme-");
        Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxr-xr-x"));
        long pid = ProcessHandle.current().pid();
        Process holder = null;
        try (Netns machine = Netns.make("spice-server-" + pid, "sprd" + pid % 10_000, CLIENT, SERVER)) {
            holder = holder(machine, root);
            String left;
            try {
                runAsPrinted(root, holder.pid());
            } finally {
                left = leaveNothing(machine, holder);
            }
            assertEquals("", left, "processes left on the server's machine");
        } finally {
            if (holder != null) {
                holder.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            Exec.run("rm", "-rf", root.toString());
        }
    }

    private static boolean possible() throws IOException {
        return Netns.possible() && List.of("unshare", "nsenter", "sudo", "apache2ctl").stream()
                .allMatch(c -> Exec.run("sh", "-c", "command -v " + c).status() == 0)
                && Files.readString(Path.of("/proc/filesystems")).contains("overlay") && Files.isDirectory(Path.of("/opt"));
    }

    /**
     * The README's deploy block, comments and blank lines dropped, placeholders filled in: each line with its side,
     * "server" or "client", by the comment it follows ("# on the server's machine", "# on the client").
     */
    static List<String[]> deployLines(String readme, String version, String spice) {
        List<String[]> lines = new ArrayList<>();
        String section = readme.substring(readme.indexOf("## Deploying the probes onto your own server"));
        String block = section.substring(section.indexOf("```") + 1);
        block = block.substring(block.indexOf('\n') + 1, block.indexOf("```"));
        String side = "client";
        for (String line : block.split("\n")) {
            if (line.startsWith("# on the server")) {
                side = "server";
            } else if (line.startsWith("# on the client")) {
                side = "client";
            } else if (!line.startsWith("#") && !line.isBlank()) {
                String command = line.replaceAll("\\s+#.*$", "").replaceAll("\\bVERSION\\b", version)
                        .replaceAll("\\bSERVER\\b", SERVER).replaceAll("\\bSPICE\\b", spice);
                lines.add(new String[] {side, command});
            }
        }
        return lines;
    }

    private static List<String> side(List<String[]> lines, String which) {
        return lines.stream().filter(l -> l[0].equals(which)).map(l -> l[1]).toList();
    }

    /** The path itself: the bundle built here, the server's lines there, the client's here, the checks. */
    private static void runAsPrinted(Path root, long holder) throws Exception {
        String version = System.getProperty("spice.version");
        List<String[]> lines = deployLines(Files.readString(Exec.ROOT.resolve("README.md")), version, Exec.ROOT.toString());
        List<String> server = side(lines, "server");
        List<String> client = new ArrayList<>(side(lines, "client"));
        assertFalse(server.isEmpty() || client.isEmpty(), "README.md's deploy block has a server and a client side");
        // the client's first line builds the bundle; then it goes to the server's machine, and the server's lines run
        String build = client.remove(0);
        assertTrue(build.startsWith("scripts/spice bundle"), "the deploy block opens with the bundle: " + build);
        System.err.println("readme: here: " + build);
        Exec.run(Exec.ROOT, Map.of(), 900, List.of("bash", "-ec", build)).ok(build);
        Path serverDir = Files.createDirectories(root.resolve("server"));
        Files.copy(Exec.ROOT.resolve("dist/spice-apache-" + version + ".tar.gz"), serverDir.resolve("spice-apache-" + version
                + ".tar.gz"));
        server.forEach(l -> System.err.println("readme: on the server: " + l));
        Exec there = onServer(holder, 600, "bash", "-ec", "cd '" + serverDir + "'\n" + String.join("\n", server));
        there.ok("the lines for the server's machine");
        String metrics = there.serverMetrics();
        assertFalse(metrics.isEmpty(), "metrics-agent start printed no --server-metrics:\n" + there.out());

        List<String> rest = client.stream().map(l -> l.replaceAll("\\bMETRICS\\b", metrics))
                .map(l -> l.contains("scripts/spice bench ") ? l + benchOptions() : l).toList();
        rest.forEach(l -> System.err.println("readme: here: " + l));
        Exec here = Exec.run(Exec.ROOT, Map.of(), 1800, List.of("bash", "-ec", String.join("\n", rest)));
        System.err.print(here.out());
        here.ok("the lines for the client");
        String results = here.out().lines().filter(l -> l.startsWith("results: ")).map(l -> l.substring(9))
                .reduce((a, b) -> b).orElseThrow(() -> new AssertionError("bench named no results"));
        CommandRun checked = CommandRun.of(new CheckResultsCommand(), results, "--label", "readme", "--probes", "static,cgi");
        assertEquals(0, checked.status(), checked.console());
        List<String> out = here.out().lines().toList();
        assertTrue(out.subList(Math.max(0, out.size() - 25), out.size()).stream().anyMatch(l -> l.contains("CPU")),
                "bench's answer ends with the CPU table");

        onServer(holder, 120, "bash", Exec.SPICE.toString(), "metrics-agent", "stop").ok("metrics-agent stop");
        onServer(holder, 120, "sh", "-ec", "/opt/spice/apache/bin/spice-helpers stop; apache2ctl stop; cd '"
                + serverDir.resolve("spice-apache-" + version) + "' && ./install.sh --uninstall").ok("the uninstall");
        assertEquals(1, onServer(holder, 30, "test", "-e", "/opt/spice/apache/installed.manifest").status(),
                "--uninstall removed /opt/spice/apache/installed.manifest");
        assertEquals(Exec.run("sh", "-c", APACHE_CONF_STATE).out(), onServer(holder, 60, "sh", "-c", APACHE_CONF_STATE).out(),
                "/etc/apache2 on the server's machine after --uninstall is this machine's");
    }

    /** The suite's bench options (static and CGI, six rounds), or none for every probe. */
    private static String benchOptions() {
        // ±50 %: the rounds stop at the six an interval needs, as TwoHostsBundlesIT's, instead of running to their bound
        return Bundles.everyProbe() ? "" : " --probes static,cgi --clients 8 --ramp-up 0.5 --duration 1 --ramp-down 0.2"
                + " --warm-up 3 --cpu-time " + Bundles.roundsS() + " --cpu-precision 50";
    }

    /**
     * The second machine: a process holding a mount namespace in {@code machine}'s network whose /etc, /opt and /var
     * are overlays (their upper layers in a tmpfs of its own) and whose /run is its own.
     */
    private static Process holder(Netns machine, Path root) throws Exception {
        Process holder = new ProcessBuilder("nsenter", "--net=/run/netns/" + machine.name(), "unshare", "--mount",
                "--propagation", "private", "sleep", "100000").redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        Path layers = Files.createDirectories(root.resolve("layers"));
        Exec made = null;
        for (int tries = 0; tries < 50; tries++) {
            Thread.sleep(100);
            made = Exec.run("nsenter", "-t", Long.toString(holder.pid()), "-m", "--", "sh", "-ec", "mount -t tmpfs spice-machine '"
                    + layers + "'\nfor dir in etc opt var; do\n mkdir -p '" + layers + "'/$dir/upper '" + layers + "'/$dir/work\n"
                    + " mount -t overlay overlay -o lowerdir=/$dir,upperdir='" + layers + "'/$dir/upper,workdir='" + layers
                    + "'/$dir/work /$dir\ndone\nmount -t tmpfs -o mode=755 spice-run /run && mkdir -p /run/lock && chmod 1777"
                    + " /run/lock");
            if (made.status() == 0 || !holder.isAlive()) {
                break;
            }
        }
        made.ok("making the server's machine (its mount namespace)");
        return holder;
    }

    /** {@code command} on the second machine (its network and its files), as root. */
    private static Exec onServer(long holder, long limitS, String... command) {
        List<String> all = new ArrayList<>(List.of("nsenter", "-t", Long.toString(holder), "-m", "-n", "--"));
        all.addAll(List.of(command));
        return Exec.run(null, Map.of(), limitS, all);
    }

    /** Whatever happened: the agent, the helpers and httpd stopped there; what of theirs is left (httpd's children). */
    private static String leaveNothing(Netns machine, Process holder) throws InterruptedException {
        if (holder.isAlive()) {
            onServer(holder.pid(), 120, "sh", "-c", "bash '" + Exec.SPICE + "' metrics-agent stop >/dev/null 2>&1\n"
                    + "[ ! -x /opt/spice/apache/bin/spice-helpers ] || /opt/spice/apache/bin/spice-helpers stop\n"
                    + "apache2ctl stop");
        }
        String left = "";
        for (int waited = 0; waited < 100; waited++) {   // httpd -k stop returns before its children have gone
            left = machine.pids().lines().filter(p -> !p.equals(Long.toString(holder.pid()))).reduce("", (a, b) -> a + " " + b)
                    .strip();
            if (left.isEmpty()) {
                break;
            }
            Thread.sleep(100);
        }
        return left;
    }
}
