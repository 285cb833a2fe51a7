package org.spice.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.servers.Processes;
import org.spice.agent.CgroupExporter;

/**
 * scripts/spice metrics-agent from a checkout in a folder only root may enter (mode 0700, as root's home is): the
 * exporters run as the service user, so what they read (their configuration, the harness's jar) must be where that
 * user can reach it. And an exporter that fails at its start ends the agent's start at once with that exporter's own
 * message, nothing left running. The checkout here is the scripts and the harness's jar, copied into the 0700 folder:
 * all the agent runs.
 */
class MetricsAgentFolderTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final String USER = System.getenv().getOrDefault("SPICE_SERVICE_USER", "www-data");

    @TempDir
    Path closed;

    private Path checkout;
    private Path runBase;
    private int port;

    @BeforeEach
    void checkoutInAClosedFolder() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "the agent drops to the service user only as root");
        assumeTrue(run(List.of("id", USER)).status == 0, "no user " + USER + " here");
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(closed)));
        checkout = closed.resolve("spice");
        copy(ROOT.resolve("scripts"), checkout.resolve("scripts"));
        copy(ROOT.resolve("harness/target/spice-harness.jar"), checkout.resolve("harness/target/spice-harness.jar"));
        copy(ROOT.resolve("harness/target/lib"), checkout.resolve("harness/target/lib"));
        // run/ goes here, not under /var/lib/spice: the test removes what it made
        runBase = Files.createTempDirectory("spice-run-base");
        Files.setPosixFilePermissions(runBase, PosixFilePermissions.fromString("rwxr-xr-x"));
        port = ExportersAgainstProcTest.freePorts(3);
    }

    @AfterEach
    void stopAndRemove() throws Exception {
        if (checkout != null && runBase != null) {
            agent("stop", "--port", Integer.toString(port));
            run(List.of("rm", "-rf", runBase.toString()));
        }
    }

    @Test
    void startsFromAFolderOnlyRootEnters() throws Exception {
        String cgroup = ownCgroup();
        Ran started = agent("start", "--port", Integer.toString(port), "--cgroup", cgroup);
        assertEquals(0, started.status, started.out);
        Path run = Path.of(Files.readSymbolicLink(checkout.resolve("run")).toString());
        assertTrue(run.startsWith(runBase), "run/ links to a folder " + USER + " reaches: " + run);
        assertTrue(started.out.contains("as " + USER + ", from " + run.resolve("metrics-agent-" + port)), started.out);

        String line = started.out.lines().filter(l -> l.startsWith("--server-metrics ")).findFirst().orElseThrow();
        List<URI> urls = Arrays.stream(line.substring("--server-metrics ".length()).split(",")).map(URI::create).toList();
        assertEquals(3, urls.size(), line);
        assertTrue(scrape(urls.get(0)).contains("node_cpu_seconds_total"), "node_exporter answers");
        assertTrue(scrape(urls.get(1)).contains("namedprocess_namegroup_cpu_seconds_total"), "process-exporter answers");
        assertTrue(scrape(urls.get(2)).contains(CgroupExporter.METRIC), "the cgroup exporter answers");

        List<Long> pids = new ArrayList<>();
        for (String kind : List.of("node", "process", "cgroup")) {
            long pid = Long.parseLong(Files.readString(run.resolve("metrics-agent-" + port + "/" + kind + ".pid")).strip());
            pids.add(pid);
            String uid = Files.readAllLines(Path.of("/proc/" + pid + "/status")).stream()
                    .filter(l -> l.startsWith("Uid:")).findFirst().orElseThrow().split("\\s+")[1];
            assertEquals(run(List.of("id", "-u", USER)).out.strip(), uid, kind + " exporter runs as " + USER);
        }
        Ran stopped = agent("stop", "--port", Integer.toString(port));
        assertEquals(0, stopped.status, stopped.out);
        for (long pid : pids) {
            assertFalse(Processes.running(pid), "pid " + pid + " stopped");
        }
    }

    /**
     * A socket bound to the process exporter's port and not listening: the agent's check (a connection) finds the port
     * free, and the exporter's own listen then fails, as it would with any other taker of the port.
     */
    @Test
    void anExporterThatFailsStopsTheStartWithItsOwnMessage() throws Exception {
        Ran failed;
        try (Socket taker = new Socket()) {
            taker.bind(new InetSocketAddress("127.0.0.1", port + 1));
            failed = agent("start", "--port", Integer.toString(port));
        }
        assertEquals(1, failed.status, failed.out);
        String last = failed.out.strip().lines().reduce((a, b) -> b).orElse("");
        assertTrue(last.startsWith("spice metrics-agent: the process exporter exited before it listened:"), last);
        assertTrue(last.contains("address already in use") && last.contains("nothing left running"), last);
        assertFalse(listening(port), "node_exporter, which had started, is stopped");
        assertTrue(ProcessHandle.allProcesses().noneMatch(p -> Processes.running(p.pid()) && p.info().commandLine().orElse("")
                .contains("127.0.0.1:" + port)), "no exporter of the failed start runs");

        Ran again = agent("start", "--port", Integer.toString(port));
        assertEquals(0, again.status, "a start after the failed one finds nothing left: " + again.out);
    }

    private Ran agent(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("bash", checkout.resolve("scripts/spice").toString(), "metrics-agent"));
        command.addAll(List.of(args));
        return run(command);
    }

    private Ran run(List<String> command) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        if (runBase != null) {
            builder.environment().put("SPICE_RUN_BASE", runBase.toString());
        }
        Process process = builder.start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Ran(process.waitFor(), out);
    }

    private record Ran(int status, String out) {
    }

    /** This JVM's own cgroup (v2's, else v1's cpuacct): one whose counters the cgroup exporter can read. */
    private static String ownCgroup() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/cgroup"))) {
            String[] parts = line.split(":", 3);
            String mount = mountOf(parts[0].equals("0") ? "cgroup2" : "cgroup", parts[1]);
            if (mount != null && (parts[0].equals("0") || Arrays.asList(parts[1].split(",")).contains("cpuacct"))) {
                return mount + parts[2];
            }
        }
        throw new IOException("no cgroup of this process has a CPU counter");
    }

    private static String mountOf(String type, String controllers) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/mounts"))) {
            String[] f = line.split(" ");
            if (f[2].equals(type) && (type.equals("cgroup2") || Arrays.asList(f[3].split(",")).contains("cpuacct"))) {
                return f[1];
            }
        }
        return null;
    }

    private static String scrape(URI url) throws IOException {
        return new String(url.toURL().openStream().readAllBytes(), StandardCharsets.UTF_8);
    }

    private static boolean listening(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : files.toList()) {
                Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.createDirectories(target.getParent());
                    Files.copy(file, target, java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }
}
