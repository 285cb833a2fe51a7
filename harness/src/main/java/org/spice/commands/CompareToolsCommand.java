package org.spice.commands;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.spice.bench.analysis.ResultsFiles;
import org.spice.bench.model.Results;
import org.spice.bench.model.ResultsJson;
import org.spice.bench.model.RunRecord;
import org.spice.bench.plan.PlanCommands;
import org.spice.bench.proc.Programs;
import org.spice.cli.Cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code spice compare-tools URL [SECONDS [ROUNDS [CLIENTS...]]]}: SPICE's engine, JMeter, wrk, ab and h2load on
 * the same static URL, one after the other for the same time, at each client count, round after round. Each tool's
 * output becomes SPICE results the same way (bench for the engine and JMeter, import for the others; a tool's
 * results hold its last round at each client count), then one comparison with a column per tool. The table printed
 * as it goes adds each tool's whole-process CPU per request (user + system from /usr/bin/time, start-up included).
 */
@Command(name = "compare-tools", mixinStandardHelpOptions = true, sortOptions = false,
        description = "SPICE's engine, JMeter, wrk, ab and h2load on the same probe URL, one after the other for the"
                + " same time; each tool's whole-process CPU per request as it goes; then one comparison, a column per tool.")
public final class CompareToolsCommand extends Cli.Printing implements Callable<Integer> {

    static final List<String> TOOLS = List.of("engine", "jmeter", "wrk", "ab", "h2load");
    private static final String TIME = "/usr/bin/time";

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "URL", description = "The static probe's URL, e.g."
            + " http://127.0.0.1:18081/spice/static/spice.html.")
    String url;

    @Parameters(index = "1", paramLabel = "SECONDS", defaultValue = "10", description = "Each tool's run (default 10).")
    double seconds;

    @Parameters(index = "2", paramLabel = "ROUNDS", defaultValue = "1", description = "Rounds of every tool (default 1).")
    int rounds;

    @Parameters(index = "3..*", paramLabel = "CLIENTS", description = "Client counts (default 8).")
    List<Integer> clients = new ArrayList<>();

    @Option(names = "--warm-up", paramLabel = "S", defaultValue = "30", description = "SPICE's engine warms the server"
            + " for S seconds before the first tool runs, untimed (default 30; 0: none).")
    double warmUpS;

    @Option(names = "--jmeter-home", paramLabel = "DIR", description = "JMeter's home (default: jmeter/target/jmeter).")
    Path jmeterHome;

    @Option(names = "--out", paramLabel = "DIR", description = "Where the tools' results and the comparison go"
            + " (default: results/tools-TIME).")
    Path outDir;

    @Override
    public Integer call() throws Exception {
        check();
        Path dir = outDir != null ? outDir : Path.of("results", "tools-" + LocalDateTime.now()
                .format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        Path scratch = Files.createTempDirectory("spice-tools-");
        try {
            if (warmUpS > 0) {
                bench("engine", clients.get(0), scratch.resolve("warm-up"), warmUpS, null);
            }
            out.println(String.format(Locale.ROOT, "%-8s %4s %6s %10s %16s", "tool", "c", "round", "req/s",
                    "µs/req (process)"));
            for (int c : clients) {
                for (int round = 1; round <= rounds; round++) {
                    for (String tool : TOOLS) {
                        double cpuS = run(tool, c, dir, scratch);
                        row(tool, c, round, dir.resolve(tool), cpuS);
                    }
                }
            }
            List<String> compare = new ArrayList<>(TOOLS.stream().map(t -> dir.resolve(t).toString()).toList());
            compare.addAll(List.of("--out", dir.toString()));
            return Cli.run(new CompareCommand(), out, err, compare.toArray(String[]::new));
        } finally {
            delete(scratch);
        }
    }

    /** The options, before any network: a probe URL, counts above 0, every tool on this machine. */
    private void check() {
        Cli.Checks check = new Cli.Checks(spec);
        if (!url.matches("http://[^/]+/spice/.+")) {
            throw check.fail("give a probe URL, e.g. http://127.0.0.1:PORT/spice/static/spice.html, not \"" + url + "\"");
        }
        PlanCommands.seconds(check, "SECONDS", seconds, seconds, false);
        PlanCommands.seconds(check, "--warm-up", warmUpS, warmUpS, true);
        if (rounds < 1) {
            throw check.fail("ROUNDS takes 1 or more, not " + rounds);
        }
        if (clients.isEmpty()) {
            clients.add(8);
        }
        if (clients.stream().anyMatch(c -> c < 1)) {
            throw check.fail("CLIENTS take 1 or more each, not " + clients);
        }
        for (String[] tool : new String[][] {{"wrk", "wrk"}, {"ab", "apache2-utils"}, {"h2load", "nghttp2-client"}}) {
            if (!Programs.onPath(tool[0])) {
                throw check.fail(tool[0] + " is not installed: apt-get install " + tool[1]);
            }
        }
        if (!Files.isExecutable(Path.of(TIME))) {
            throw check.fail(TIME + " is not installed (each tool's CPU is read with it): apt-get install time");
        }
    }

    /** One tool's run at {@code c} clients, its results kept in DIR/TOOL; returns the tool's process CPU in seconds. */
    private double run(String tool, int c, Path dir, Path scratch) throws IOException, InterruptedException {
        Path time = scratch.resolve("time");
        Files.deleteIfExists(time);
        switch (tool) {
            case "engine", "jmeter" -> {
                Path runOut = scratch.resolve(tool + "-" + c);
                bench(tool, c, runOut, 0, time);
                keep(ResultsJson.read(ResultsFiles.under(runOut)), dir.resolve(tool));
                delete(runOut);
            }
            case "wrk" -> {
                Path text = scratch.resolve("wrk.txt");
                timed(time, text, List.of("wrk", "-t1", "-c", Integer.toString(c), "-d", (long) Math.ceil(seconds) + "s",
                        "-s", PlanCommands.projectRoot().resolve("harness/wrk/wrk-spice.lua").toString(), url));
                importTool(tool, c, dir, text);
            }
            case "ab" -> {
                Path text = scratch.resolve("ab.txt");
                Path tsv = scratch.resolve("ab.tsv");
                timed(time, text, List.of("ab", "-q", "-c", Integer.toString(c), "-t", Long.toString((long) Math.ceil(seconds)),
                        "-n", "100000000", "-g", tsv.toString(), url));
                importTool(tool, c, dir, text, tsv);
            }
            default -> h2load(c, dir, scratch, time);
        }
        return cpuSeconds(time);
    }

    /**
     * h2load keeps its connections open (with "Connection: close" and -D it spins instead of reconnecting), and takes
     * a count: as many requests as wrk managed in the same time, at least {@code c}. It appends to an existing log,
     * so the log is new each run (reused across rounds, it had held 85,069 requests against a summary's 39,836).
     */
    private void h2load(int c, Path dir, Path scratch, Path time) throws IOException, InterruptedException {
        long count = Math.max(c, lastRun(dir.resolve("wrk"), c).requests());
        Path text = scratch.resolve("h2load.txt");
        Path log = scratch.resolve("h2load.log");
        timed(time, text, h2loadOnAFreshLog(url, c, count, log));
        importTool("h2load", c, dir, text, log);
    }

    /** h2load --h1 at {@code c} clients for {@code n} requests into {@code log}, which goes first: h2load appends. */
    public static List<String> h2loadOnAFreshLog(String url, int c, long n, Path log) throws IOException {
        Files.deleteIfExists(log);
        return List.of("h2load", "--h1", "-c", Integer.toString(c), "-n", Long.toString(n), "--log-file", log.toString(), url);
    }

    /**
     * SPICE's engine or JMeter through bench, in a JVM of its own (so that its whole process is timed as the other
     * tools' are): the static probe, one ladder step of {@code seconds}, no CPU rounds; under /usr/bin/time into
     * {@code time} unless that is null (the warm-up).
     */
    private void bench(String tool, int c, Path runOut, double warmUp, Path time) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dspice.root=" + PlanCommands.projectRoot(), "-cp", System.getProperty("java.class.path"),
                "org.spice.harness.Main", "bench", "--target", url.substring(0, url.indexOf("/spice/")), "--engine",
                tool.equals("jmeter") ? "jmeter" : "event-loop", "--server", tool, "--probes", "static", "--clients",
                Integer.toString(c), "--ramp-up", "1", "--duration", Double.toString(seconds), "--ramp-down", "0",
                "--pause", "0", "--warm-up", Double.toString(warmUp), "--cpu-time", "0", "--out", runOut.toString()));
        if (tool.equals("jmeter") && jmeterHome != null) {
            command.addAll(List.of("--jmeter-home", jmeterHome.toString()));
        }
        timed(time, runOut.resolveSibling(runOut.getFileName() + ".out"), command);
    }

    /** {@code command} with its output to {@code text}, under /usr/bin/time unless {@code time} is null; must succeed. */
    private void timed(Path time, Path text, List<String> command) throws IOException, InterruptedException {
        List<String> all = new ArrayList<>();
        if (time != null) {
            all.addAll(List.of(TIME, "-f", "%U %S", "-o", time.toString()));
        }
        all.addAll(command);
        Process process = new ProcessBuilder(all).redirectErrorStream(true).redirectOutput(text.toFile()).start();
        process.getOutputStream().close();
        long limitS = (long) (seconds * 5 + warmUpS + 120);
        if (!process.waitFor(limitS, TimeUnit.SECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new IOException(command.get(0) + " ran past " + limitS + " s; its output: " + text);
        }
        if (process.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed (status " + process.exitValue() + "):\n"
                    + Files.readString(text));
        }
    }

    /** User + system seconds, as /usr/bin/time wrote them ("%U %S"). */
    private static double cpuSeconds(Path time) throws IOException {
        List<String> lines = Files.readAllLines(time);
        String[] last = lines.get(lines.size() - 1).strip().split("\\s+");
        return Double.parseDouble(last[0]) + Double.parseDouble(last[1]);
    }

    /** A bench run's mix kept in DIR's results, in place of an earlier one at its client count. */
    private static void keep(Results run, Path dir) throws IOException {
        Path file = dir.resolve(ResultsJson.FILE);
        List<RunRecord> runs = new ArrayList<>();
        if (Files.exists(file)) {
            Map<Integer, RunRecord> byClients = new LinkedHashMap<>();
            ResultsJson.read(file).runs().forEach(r -> byClients.put(r.clients(), r));
            run.runs().forEach(r -> byClients.put(r.clients(), r));
            runs.addAll(byClients.values());
        } else {
            runs.addAll(run.runs());
        }
        runs.sort(Comparator.comparingInt(RunRecord::clients));
        Results kept = run.withRuns(runs);
        ResultsFiles.write(dir, kept);
        Cli.run(new ReportCommand(), new PrintStream(OutputStream.nullOutputStream()), System.err, dir.toString());
    }

    /** A tool's output imported: its first client count starts DIR/TOOL, the next ones join it. */
    private void importTool(String tool, int c, Path dir, Path... files) throws IOException {
        Path into = dir.resolve(tool);
        List<String> args = new ArrayList<>(List.of(tool, "--probe", "static", "--clients", Integer.toString(c), "--server",
                tool, Files.exists(into.resolve(ResultsJson.FILE)) ? "--into" : "--out", into.toString()));
        Stream.of(files).map(Path::toString).forEach(args::add);
        if (Cli.run(new ImportCommand(), new PrintStream(OutputStream.nullOutputStream()), err, args.toArray(String[]::new)) != 0) {
            throw new IOException(tool + "'s output could not be imported (see " + List.of(files) + ")");
        }
    }

    private static RunRecord lastRun(Path dir, int c) throws IOException {
        return ResultsJson.read(dir.resolve(ResultsJson.FILE)).runs().stream().filter(r -> r.clients() == c)
                .reduce((a, b) -> b).orElseThrow(() -> new IOException("no run at " + c + " clients in " + dir));
    }

    /** One row: the rate SPICE computed from the tool's own output, and the tool's whole CPU per request of it. */
    private void row(String tool, int c, int round, Path dir, double cpuS) throws IOException {
        double rate = lastRun(dir, c).rateRps();
        double requests = rate * seconds;
        out.println(String.format(Locale.ROOT, "%-8s %4d %6d %10.0f %16.1f", tool, c, round, rate,
                requests > 0 ? cpuS * 1e6 / requests : 0));
    }

    private static void delete(Path path) throws IOException {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> all = Files.walk(path)) {
            for (Path each : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(each);
            }
        }
    }
}
