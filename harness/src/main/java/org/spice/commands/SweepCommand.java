package org.spice.commands;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.Callable;

import org.spice.bench.analysis.ResultsFiles;
import org.spice.bench.analysis.Sweeps;
import org.spice.bench.model.Results;
import org.spice.bench.model.ResultsJson;
import org.spice.bench.model.Server;
import org.spice.bench.model.Sweep;
import org.spice.bench.plan.HarnessProcess;
import org.spice.bench.plan.PlanCommands;
import org.spice.bench.plan.SizedTree;
import org.spice.bench.report.ReportWriter;
import org.spice.bench.report.SweepReport;
import org.spice.bench.run.Recorder;
import org.spice.cli.Cli;
import org.spice.page.CanonicalPage;
import org.spice.page.Probe;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code spice sweep}: where an interface's cost is per request and where it is per byte. For each page size the
 * project is built at that size (a copy of the sources per size, {@link SizedTree}; the checkout itself for the size
 * it is built at), and that build's own harness runs its bench in a JVM of its own ({@link HarnessProcess}): it starts
 * the server afresh, verifies the probes, warms them to a steady state and measures them at one client count. Then, per probe, the line through the points:
 * CPU per request = fixed + per-KB x KB (sweep.json, sweep.png, a table).
 */
@Command(name = "sweep", sortOptions = false, mixinStandardHelpOptions = true,
        description = {"Measure the probes at several page sizes (a build and a server start per size) and fit server CPU"
                + " per request = fixed + per KB x page KB for each probe: sweep.json, sweep.png and a table.",
            "The size nearest 6,250 bytes gets the sweep in its report's 'why' section."})
public final class SweepCommand extends Cli.Printing implements Callable<Integer> {

    /** The largest page a sweep builds: 1 MiB; a larger one measures the network, not the interface. */
    static final int MAX_BYTES = 1 << 20;

    @Spec
    CommandSpec spec;

    @Option(names = "--probes", paramLabel = "LIST", split = ",", description = "The probes (default: the server's).")
    List<String> probes;

    @Option(names = "--sizes", paramLabel = "LIST", split = ",", description = "Page sizes in bytes, at least two"
            + " (default 1024,6250,16384,65536; at least the page's smallest size, at most 1 MiB).")
    List<String> sizes = List.of("1024", "6250", "16384", "65536");

    @Option(names = "--server", paramLabel = "NAME", description = "The server: embedded (default), apache, tomcat,"
            + " jetty or nginx.")
    String server = Server.EMBEDDED.id();

    @Option(names = "--clients", paramLabel = "N", description = "The client count each size is measured at (default 8).")
    int clients = 8;

    @Option(names = "--warm-up", paramLabel = "S", description = "bench's --warm-up at each size (default: bench's).")
    Double warmUp;

    @Option(names = "--duration", paramLabel = "S", description = "bench's --duration: the window at each size.")
    Double duration;

    @Option(names = "--repeat", paramLabel = "N", description = "bench's --repeat: windows per size, for tighter intervals.")
    Integer repeat;

    @Option(names = "--cpu-time", paramLabel = "S", description = "bench's --cpu-time at each size: how long its CPU"
            + " rounds may last (default: bench's; 0: the CPU figure from the window).")
    Double cpuTime;

    @Option(names = "--pin", description = "bench's --pin: server on CPU 0, client on CPU 1.")
    boolean pin;

    @Option(names = "--work", paramLabel = "DIR", description = "Where the builds at each size go (default run/sweep;"
            + " kept, so the next sweep rebuilds only what changed).")
    Path work;

    @Option(names = "--out", paramLabel = "DIR", description = "Where the sweep goes (default results/sweep-TIME): a"
            + " folder per size with its bench's results, then sweep.json and sweep.png.")
    Path outDir;

    @Override
    public Integer call() throws Exception {
        Cli.Checks check = new Cli.Checks(spec);
        Server named = PlanCommands.server(check, server);
        List<Probe> list = probes(check, named);
        List<Integer> byteSizes = sizes(check);
        Path root = PlanCommands.projectRoot();
        Path dir = outDir != null ? outDir : Path.of("results", "sweep-" + Recorder.stamp());
        Path builds = work != null ? work : root.resolve("run/sweep");
        Map<Integer, Path> measured = new LinkedHashMap<>();
        List<String> failed = new ArrayList<>();
        for (int bytes : byteSizes) {
            Path results = measure(root, builds, named, list, bytes, dir.resolve("size-" + bytes));
            if (results == null) {
                failed.add(bytes + " B");
            } else {
                measured.put(bytes, results);
            }
        }
        if (measured.size() < 2) {
            err.println("spice sweep: fewer than two sizes were measured (" + String.join(", ", failed)
                    + " failed): no line to fit");
            return 1;
        }
        Sweep sweep = Sweeps.of(named.id(), clients, measured);
        sweep.write(dir);
        SweepReport.writeChart(sweep, dir);
        out.print(SweepReport.table(sweep));
        Path nearest = nearestToDefault(measured).getParent();
        sweep.write(nearest);
        ReportWriter.write(nearest, ResultsFiles.read(nearest.resolve(ResultsJson.FILE)));
        out.println("sweep: " + dir.resolve(Sweep.FILE).toAbsolutePath() + "; in the report of "
                + nearest.resolve("report.html").toAbsolutePath());
        if (!failed.isEmpty()) {
            err.println("spice sweep: partial: not measured at " + String.join(", ", failed) + " (see above)");
            return 1;
        }
        return 0;
    }

    /** The probes to sweep, the server's own; every other option checked as well, before anything is built. */
    private List<Probe> probes(Cli.Checks check, Server named) {
        List<Probe> list = probes == null ? named.benchProbes() : check.probes(probes);
        for (Probe probe : list) {
            if (!named.probes().contains(probe)) {
                throw check.fail("--probes: " + named.id() + " has no " + probe.id() + " probe (it has "
                        + String.join(",", named.probes().stream().map(Probe::id).toList()) + ")");
            }
        }
        if (clients < 1 || clients > 4096) {
            throw check.fail("--clients takes a whole number from 1 to 4096, not " + clients);
        }
        if (repeat != null && repeat < 1) {
            throw check.fail("--repeat takes a whole number above 0, not " + repeat);
        }
        PlanCommands.seconds(check, "--warm-up", warmUp, 0, true);
        PlanCommands.seconds(check, "--duration", duration, 0, false);
        return list;
    }

    /** The sizes, checked: whole numbers from the page's minimum to 1 MiB, at least two different ones, ascending. */
    private List<Integer> sizes(Cli.Checks check) {
        TreeSet<Integer> set = new TreeSet<>();
        int minimum = CanonicalPage.minimumBytes();
        for (String size : sizes) {
            set.add((int) check.whole("--sizes", size, minimum, MAX_BYTES));
        }
        if (set.size() < 2) {
            throw check.fail("--sizes: give at least two different page sizes, e.g. 1024,6250,16384,65536");
        }
        return List.copyOf(set);
    }

    /**
     * One size: the build at that size (the checkout itself when it is built at that size), then that build's bench
     * of the probes on a server it starts and stops. Returns its results.json, or null when the size failed.
     */
    private Path measure(Path root, Path builds, Server named, List<Probe> list, int bytes, Path dir) {
        try {
            Path tree = root;
            Path jar = null;   // this harness's own, where the checkout is built at this size
            if (bytes != CanonicalPage.builtBytes() || !Files.exists(HarnessProcess.jarOf(root))) {
                SizedTree sized = new SizedTree(root, builds, bytes);
                sized.prepare(named, err);
                tree = sized.root();
                jar = HarnessProcess.jarOf(tree);
            }
            List<String> args = new ArrayList<>(List.of("bench", "--server", named.id(), "--probes",
                    String.join(",", list.stream().map(Probe::id).toList()), "--clients", Integer.toString(clients),
                    "--out", dir.toAbsolutePath().toString()));
            if (warmUp != null) {
                args.addAll(List.of("--warm-up", warmUp.toString()));
            }
            if (duration != null) {
                args.addAll(List.of("--duration", duration.toString()));
            }
            if (repeat != null) {
                args.addAll(List.of("--repeat", repeat.toString()));
            }
            if (cpuTime != null) {
                args.addAll(List.of("--cpu-time", cpuTime.toString()));
            }
            if (pin) {
                args.add("--pin");
            }
            err.println("spice sweep: " + bytes + " bytes: bench " + String.join(" ", args.subList(1, args.size()))
                    + (jar == null ? "" : " (the harness built at " + bytes + " bytes, in " + tree + ")"));
            int status = HarnessProcess.run(new ProcessBuilder(HarnessProcess.command(tree, jar, args)), err);
            Path results = resultsIn(dir);
            if (status != 0 || results == null) {
                err.println("spice sweep: the bench at " + bytes + " bytes failed (exit " + status + ")");
                return null;
            }
            Results read = ResultsJson.read(results);
            if (read.bodyBytes() != bytes) {
                err.println("spice sweep: the bench at " + bytes + " bytes measured " + read.bodyBytes() + " bytes");
                return null;
            }
            return results;
        } catch (IOException e) {
            err.println("spice sweep: " + bytes + " bytes: " + Cli.why(e));
            return null;
        }
    }

    /** The results.json a bench wrote under {@code dir} (in its results/TIME folder), or null. */
    private static Path resultsIn(Path dir) throws IOException {
        List<Path> files = ResultsFiles.all(dir);
        return files.isEmpty() ? null : files.get(0);
    }

    private static Path nearestToDefault(Map<Integer, Path> measured) {
        return measured.entrySet().stream()
                .min((a, b) -> Integer.compare(Math.abs(a.getKey() - CanonicalPage.DEFAULT_BYTES),
                        Math.abs(b.getKey() - CanonicalPage.DEFAULT_BYTES)))
                .orElseThrow().getValue();
    }
}
