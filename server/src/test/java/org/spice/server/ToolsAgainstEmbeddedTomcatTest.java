package org.spice.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.spice.bench.model.Results;
import org.spice.bench.model.ResultsJson;
import org.spice.bench.model.RunRecord;
import org.spice.commands.BenchCommand;
import org.spice.commands.CompareToolsCommand;
import org.spice.commands.ImportCommand;
import org.spice.page.CanonicalPage;
import org.spice.testkit.CommandRun;

/**
 * Other load tools against the embedded server, really run (ab, h2load and wrk from Debian, JMeter as the
 * build assembles it from Maven Central): their output imported gives the tool's own totals; JMeter as
 * bench's engine, here and split across two JMeter server engines on 127.0.0.1. The imports whose totals count the
 * page's bytes (tagged "page") run at the suite's second page size too; JMeter and the log check, once.
 */
class ToolsAgainstEmbeddedTomcatTest extends StartedEmbeddedTomcat {

    private static final Path JMETER = Path.of(System.getProperty("spice.jmeter.home", "../jmeter/target/jmeter"));
    private static final Path WRK_SCRIPT = Path.of(System.getProperty("spice.wrk.script", "../harness/wrk/wrk-spice.lua"));

    private static String url() {
        return server.baseUrl() + "/spice/static/spice.html";
    }

    @Test
    @Tag("page")
    void abImportGivesAbsOwnTotals() throws Exception {
        Path dir = Files.createDirectories(base.resolve("ab"));
        String text = tool(dir.resolve("ab.txt"), "ab", "-q", "-n", "400", "-c", "4", "-g", dir.resolve("ab.tsv").toString(), url());
        long complete = number(text, "Complete requests:\\s+(\\d+)");
        RunRecord run = imported(dir, "ab", dir.resolve("ab.txt"), dir.resolve("ab.tsv"));
        assertEquals(complete - number(text, "Failed requests:\\s+(\\d+)"), run.requests());
        assertEquals(400, run.requests());
        assertEquals(CanonicalPage.builtBytes(), run.bytesPerResponse(), 0.0);
        assertTrue(Double.isNaN(run.fairnessJain()), "ab has no per-client figures: no fairness, not a made-up one");
        // ab's output says what it measured: another probe or client count is refused, nothing written.
        String refused = importFails(dir, "ab", "--probe", "servlet", "--clients", "4");
        assertTrue(refused.contains("ab measured /spice/static/spice.html (its Document Path), the static probe, not --probe servlet"), refused);
        refused = importFails(dir, "ab", "--probe", "static", "--clients", "64");
        assertTrue(refused.contains("ab ran 4 clients (its Concurrency Level), not --clients 64"), refused);
    }

    @Test
    @Tag("page")
    void wrkImportGivesWrksOwnTotals() throws Exception {
        Path dir = Files.createDirectories(base.resolve("wrk"));
        String text = tool(dir.resolve("wrk.txt"), "wrk", "-t1", "-c4", "-d1s", "-s", WRK_SCRIPT.toString(), url());
        RunRecord run = imported(dir, "wrk", dir.resolve("wrk.txt"));
        assertEquals(number(text, "\"requests\": (\\d+)"), run.requests());
        assertTrue(run.requests() > 0);
        assertEquals(0, run.errorTotal(), run.errors().toString());
        String refused = importFails(dir, "wrk", "--probe", "module", "--clients", "4");
        assertTrue(refused.contains("the static probe, not --probe module"), refused);
        refused = importFails(dir, "wrk", "--probe", "static", "--clients", "8");
        assertTrue(refused.contains("wrk ran 4 clients (its connections), not --clients 8"), refused);
    }

    /** The caveat of the README's tools matrix: h2load 1.52 reads no status from Tomcat's "HTTP/1.1 200 ". */
    @Test
    @Tag("page")
    void h2loadCannotReadTomcatsStatusLine() throws Exception {
        Path dir = Files.createDirectories(base.resolve("h2load"));
        String text = tool(dir.resolve("h2load.txt"), "h2load", "--h1", "-n", "300", "-c", "3", "--log-file",
                dir.resolve("h2load.log").toString(), url());
        assertTrue(text.contains("300 done, 0 succeeded, 300 failed"), text);
        assertTrue(text.contains("(" + 300L * CanonicalPage.builtBytes() + ") data"), "yet every body arrived: " + text);
        // h2load ran -c 3: its "spawning thread" line says so, and an import claiming 4 is refused (below).
        RunRecord run = imported(dir, "h2load", 3, dir.resolve("h2load.txt"), dir.resolve("h2load.log"));
        assertEquals(0, run.requests());
        Results results = ResultsJson.readResults(dir.resolve("out"));
        assertTrue(results.notes().stream().anyMatch(n -> n.contains("without a reason phrase")), results.notes().toString());
        String refused = importFails(dir, "h2load", "--probe", "static", "--clients", "4");
        assertTrue(refused.contains("h2load ran 3 clients (its \"spawning thread\" lines), not --clients 4"), refused);
    }

    /**
     * h2load appends to an existing --log-file: a second run into the same log leaves both runs' requests in it, and
     * the import refuses it, naming both counts. compare-tools starts each h2load run on a fresh log (CompareToolsCommand.h2loadOnAFreshLog), so its
     * second round imports (its scratch log had once held 85,069 requests against the summary's 39,836).
     */
    @Test
    void aLogThatDisagreesWithItsSummaryIsRefusedAndCompareToolsStartsAFreshOne() throws Exception {
        Path dir = Files.createDirectories(base.resolve("h2load-twice"));
        Path log = dir.resolve("h2load.log");
        tool(dir.resolve("first.out"), "h2load", "--h1", "-n", "200", "-c", "2", "--log-file", log.toString(), url());
        tool(dir.resolve("h2load.txt"), "h2load", "--h1", "-n", "120", "-c", "2", "--log-file", log.toString(), url());
        Files.delete(dir.resolve("first.out"));
        String refused = importFails(dir, "h2load", "--probe", "static", "--clients", "2");
        assertTrue(refused.contains(log + ": 320 requests, but the summary " + dir.resolve("h2load.txt") + " says 120 done"),
                refused);

        for (int round = 1; round <= 2; round++) {
            Process run = new ProcessBuilder(CompareToolsCommand.h2loadOnAFreshLog(url(), 2, 120, log)).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("h2load.txt").toFile()).start();
            assertTrue(run.waitFor(90, TimeUnit.SECONDS), "h2load ended");
            assertEquals(0, run.exitValue(), Files.readString(dir.resolve("h2load.txt")));
        }
        assertEquals(120, Files.readAllLines(log).size(), "the second round's log holds its own requests only");
        imported(dir, "h2load", 2, dir.resolve("h2load.txt"), log);
    }

    @Test
    void jmeterRunsTheLadderHere() throws Exception {
        Results results = bench(base.resolve("jmeter-local"), "--clients", "2");
        RunRecord run = results.runs().get(0);
        assertEquals("jmeter", results.settings().engine());
        assertTrue(run.requests() > 0, "JMeter measured nothing");
        assertEquals(0, run.errorTotal(), run.errors().toString());
        assertEquals(2, run.clientRates().length, "a thread per client");
        assertTrue(results.notes().stream().anyMatch(n -> n.startsWith("jmeter, static at 2 clients: local 2 clients")),
                results.notes().toString());
    }

    @Test
    void jmeterSplitsTheClientsAcrossTwoServerEngines() throws Exception {
        List<Process> engines = new ArrayList<>();
        List<String> remotes = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                int port = freePort();
                Path log = base.resolve("jmeter-server-" + port + ".log");
                // RMI without TLS: engines and bench on this machine only (the documented opt-out).
                engines.add(new ProcessBuilder(java(), "-Djava.rmi.server.hostname=127.0.0.1", "-jar",
                        JMETER.resolve("bin/ApacheJMeter.jar").toString(), "-s", "-Jserver_port=" + port,
                        "-Jserver.rmi.localport=" + freePort(), "-Jserver.rmi.ssl.disable=true", "-j", log.toString())
                        .redirectErrorStream(true).redirectOutput(base.resolve("jmeter-server-" + port + ".out").toFile()).start());
                remotes.add("127.0.0.1:" + port);
                waitForListener(port);
            }
            Results results = bench(base.resolve("jmeter-remote"), "--clients", "3", "--jmeter-remote",
                    String.join(",", remotes), "--jmeter-rmi-no-tls");
            RunRecord run = results.runs().get(0);
            assertTrue(run.requests() > 0, "the engines measured nothing");
            assertEquals(0, run.errorTotal(), run.errors().toString());
            assertEquals(3, run.clientRates().length, "three clients in all");
            String note = results.notes().stream().filter(n -> n.startsWith("jmeter, static at 3 clients")).findFirst().orElseThrow();
            Matcher m = Pattern.compile(Pattern.quote(remotes.get(0)) + " 2 clients, (\\d+) samples; "
                    + Pattern.quote(remotes.get(1)) + " 1 client, (\\d+) samples").matcher(note);
            assertTrue(m.find(), note);
            assertTrue(Long.parseLong(m.group(1)) > 0 && Long.parseLong(m.group(2)) > 0, "both engines sent requests: " + note);
        } finally {
            for (Process engine : engines) {
                engine.destroy();
                if (!engine.waitFor(20, TimeUnit.SECONDS)) {
                    engine.destroyForcibly();
                }
            }
        }
    }

    private static Results bench(Path out, String... more) throws IOException {
        assertTrue(Files.isRegularFile(JMETER.resolve("bin/ApacheJMeter.jar")), "JMeter is assembled by the build: " + JMETER);
        List<String> args = new ArrayList<>(List.of("--target", server.baseUrl(), "--engine", "jmeter", "--jmeter-home",
                JMETER.toString(), "--probes", "static", "--ramp-up", "1", "--duration", "2", "--ramp-down", "0",
                "--pause", "0", "--warm-up", "0", "--cpu-time", "0", "--out", out.toString()));
        args.addAll(List.of(more));
        CommandRun ran = CommandRun.of(new BenchCommand(), args.toArray(String[]::new));
        int status = ran.status();
        assertEquals(0, status, ran.console());
        try (Stream<Path> files = Files.walk(out)) {
            return ResultsJson.read(files.filter(p -> p.getFileName().toString().equals(ResultsJson.FILE)).findFirst().orElseThrow());
        }
    }

    private static RunRecord imported(Path dir, String tool, Path... files) throws IOException {
        return imported(dir, tool, 4, files);
    }

    private static RunRecord imported(Path dir, String tool, int clients, Path... files) throws IOException {
        List<String> args = new ArrayList<>(List.of(tool, "--probe", "static", "--clients", Integer.toString(clients), "--out",
                dir.resolve("out").toString(), "--server", "embedded"));
        for (Path file : files) {
            args.add(file.toString());
        }
        CommandRun ran = CommandRun.of(new ImportCommand(), args.toArray(String[]::new));
        int status = ran.status();
        assertEquals(0, status, ran.console());
        return ResultsJson.readResults(dir.resolve("out")).runs().get(0);
    }

    /** An import of the files {@code tool} wrote in {@code dir} with the given claim, which must be refused. */
    private static String importFails(Path dir, String tool, String... claim) throws IOException {
        List<String> args = new ArrayList<>(List.of(tool));
        args.addAll(List.of(claim));
        args.addAll(List.of("--out", dir.resolve("refused").toString()));
        try (var files = Files.list(dir)) {
            files.filter(f -> f.toString().matches(".*\\.(txt|tsv|log)$")).sorted().forEach(f -> args.add(f.toString()));
        }
        CommandRun ran = CommandRun.of(new ImportCommand(), args.toArray(String[]::new));
        int status = ran.status();
        String printed = ran.console();
        assertEquals(1, status, printed);
        assertFalse(Files.exists(dir.resolve("refused").resolve("results.json")), "nothing written: " + printed);
        return printed;
    }

    /** Runs a load tool (bounded: it is told how many requests or seconds) and keeps its output in {@code output}. */
    private static String tool(Path output, String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), command[0] + " ended");
        String text = Files.readString(output, StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), command[0] + ": " + text);
        return text;
    }

    private static long number(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        assertTrue(m.find(), regex + " in " + text);
        return Long.parseLong(m.group(1));
    }

    private static int freePort() throws IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static void waitForListener(int port) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < end) {
            try (Socket socket = new Socket("127.0.0.1", port)) {
                return;
            } catch (IOException e) {
                Thread.sleep(200);
            }
        }
        throw new AssertionError("the JMeter server engine did not listen on " + port + " within 60 s");
    }

    private static String java() {
        return ProcessHandle.current().info().command().orElse("java");
    }
}
