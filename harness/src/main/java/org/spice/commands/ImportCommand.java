package org.spice.commands;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.spice.bench.analysis.ResultsFiles;
import org.spice.bench.model.OpenLoopRun;
import org.spice.bench.model.Results;
import org.spice.bench.model.ResultsJson;
import org.spice.bench.model.RunRecord;
import org.spice.bench.model.RecordedSettings;
import org.spice.bench.report.ReportWriter;
import org.spice.bench.samples.ImportException;
import org.spice.cli.Cli;
import org.spice.cli.Options;
import org.spice.imports.Claim;
import org.spice.imports.Imported;
import org.spice.imports.OpenImported;
import org.spice.imports.Tools;
import org.spice.page.Probe;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code spice import TOOL --probe P --clients N (--out DIR | --into DIR) FILE...}: another load tool's
 * output as a SPICE mix, in results.json and the usual report; several imports into one directory (one
 * per probe and client count) give the efficiency table against static, as bench does.
 */
@Command(name = "import", sortOptions = false, mixinStandardHelpOptions = true,
        description = "Another load tool's output (ab, h2load, wrk with harness/wrk/wrk-spice.lua, JMeter's JTL, oha's JSON)"
                + " as one SPICE mix in results.json and the report; or, open loop, vegeta's results (vegeta encode --to"
                + " json) or oha's JSON of -q R --latency-correction with --rate R, as one probe at a rate (open_loop).")
public final class ImportCommand extends Cli.Printing implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "TOOL", description = "ab, h2load, wrk, jmeter, oha or vegeta.")
    String tool;

    @Parameters(index = "1..*", arity = "1..*", paramLabel = "FILE", description = "The tool's files: ab's output and its"
            + " -g file; h2load's output and its --log-file; wrk's output; JMeter's JTL (CSV); oha's JSON; vegeta's results"
            + " as vegeta encode --to json writes them.")
    List<Path> files = new ArrayList<>();

    @Option(names = "--probe", paramLabel = "PROBE", description = "The probe the tool measured: checked against the URL"
            + " the tool's output states (ab, wrk, JMeter).")
    String probe;

    @Option(names = "--workload", paramLabel = "NAME", description = "Instead of --probe: a workload of your own (a mix"
            + " or another URL), recorded under this name; its URL is not checked.")
    String workload;

    @Option(names = "--clients", paramLabel = "N", description = "The tool's concurrency (ab -c, h2load -c, wrk -c, JMeter"
            + " threads, oha -c); not for an open loop.")
    String clients;

    @Option(names = "--rate", paramLabel = "R", description = "Open loop: the rate the tool offered, requests a second"
            + " (oha -q R, checked against the rate it achieved; vegeta -rate R, checked against its timestamps, which"
            + " give it when not given).")
    Double rate;

    @Option(names = "--out", paramLabel = "DIR", description = "A new results directory.")
    Path outDir;

    @Option(names = "--into", paramLabel = "DIR", description = "A results directory of earlier imports of the same tool: this"
            + " mix is added (or replaces the one of the same probe and clients).")
    Path into;

    @Option(names = "--target", paramLabel = "URL", description = "The base URL the tool measured (recorded).")
    String target = "(not given)";

    @Option(names = "--server", paramLabel = "NAME", description = "The server's name (recorded; picks its CPU figure).")
    String server;

    @Mixin
    Options.PageBytes pageBytes;

    @Override
    public Integer call() {
        Cli.Checks check = new Cli.Checks(spec);
        Tools which;
        try {
            which = Tools.valueOf(tool.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw check.fail("TOOL: ab, h2load, wrk, jmeter, oha or vegeta, not \"" + tool + "\"");
        }
        boolean open = which == Tools.VEGETA || rate != null;
        Claim claim = claim(check, clientCount(check, which, open));
        if ((outDir == null) == (into == null)) {
            throw check.fail("give --out DIR (a new results directory) or --into DIR (one with earlier imports)");
        }
        long expected = pageBytes.value();
        Path dir = into != null ? into : outDir;
        Results results;
        String said;
        try {
            Results earlier = earlier(check, dir, which, expected);
            if (open) {
                OpenImported run = which.readOpen(files, claim, rate, expected);
                results = combineOpen(earlier, run, which, expected);
                said = String.format(Locale.ROOT, "imported %s open loop: %s at %.1f req/s, %d requests (the tool's own"
                        + " total: %d)", which.id(), run.run().probe(), run.run().offeredRps(), run.run().sent(),
                        run.toolTotal());
            } else {
                Imported run = which.read(files, claim, expected);
                results = combine(earlier, run, which, expected, claim.name());
                said = String.format(Locale.ROOT, "imported %s: %d requests counted (the tool's own total: %d)",
                        which.id(), run.run().requests(), run.toolTotal());
            }
        } catch (ImportException e) {
            err.println("spice import: " + e.getMessage() + " (nothing written)");
            return 1;
        } catch (IOException e) {
            err.println("spice import: " + e.getMessage());
            return 1;
        }
        try {
            Files.createDirectories(dir);
            out.print(ReportWriter.write(dir, ResultsFiles.write(dir, results)));
        } catch (IOException e) {
            err.println("spice import: cannot write the results in " + dir + ": " + e.getMessage());
            return 1;
        }
        out.println(said);
        out.println("results: " + dir.toAbsolutePath());
        return 0;
    }

    /** The tool's concurrency (--clients), checked against the loop it ran: 1 for an open loop, which has none. */
    private int clientCount(Cli.Checks check, Tools which, boolean open) {
        if (open && !which.runsOpenLoop()) {
            throw check.fail("--rate: " + which.id() + " runs a closed loop; vegeta and oha (-q) run open loop");
        }
        if (open && clients != null) {
            throw check.fail("--clients: an open loop has no clients, only a rate (--rate)");
        }
        if (!open && clients == null) {
            throw check.fail("--clients: give the tool's concurrency");
        }
        if (rate != null && !(rate > 0 && rate <= 1_000_000)) {
            throw check.fail("--rate: requests a second above 0 and at most 1000000, not " + rate);
        }
        return open ? 1 : (int) check.whole("--clients", clients, 1, 1_000_000);
    }

    /** What the import claims to be: a probe at a client count, or a workload of the user's own. */
    private Claim claim(Cli.Checks check, int count) {
        if ((probe == null) == (workload == null)) {
            throw check.fail("give --probe PROBE (one of " + Probe.ids() + ") or --workload NAME (a workload of your own)");
        }
        if (probe != null) {
            try {
                return Claim.probe(Probe.byId(probe), count);
            } catch (IllegalArgumentException e) {
                throw check.fail("--probe: " + e.getMessage() + " (a workload of your own: --workload NAME)");
            }
        }
        if (workload.isBlank() || !workload.matches("[A-Za-z0-9_.:-]+")) {
            throw check.fail("--workload: a name of letters, digits and _.:- such as checkout, not \"" + workload + "\"");
        }
        return Claim.workload(workload, count);
    }

    /** The results --into adds to (null with --out), checked to be of the same tool and page size. */
    private Results earlier(Cli.Checks check, Path dir, Tools which, long expected) throws IOException {
        Path file = dir.resolve(ResultsJson.FILE);
        if (into == null) {
            if (Files.exists(file)) {
                throw check.fail("--out: " + file + " exists already: add to it with --into");
            }
            return null;
        }
        if (!Files.exists(file)) {
            throw check.fail("--into: " + file + " does not exist: start with --out");
        }
        Results earlier = ResultsJson.readResults(file);
        if (!which.id().equals(earlier.settings().engine())) {
            throw check.fail("--into: " + dir + " holds results of " + earlier.settings().engine() + ", not " + which.id());
        }
        if (earlier.bodyBytes() != expected) {
            throw check.fail("--into: " + dir + " was measured with " + earlier.bodyBytes() + "-byte pages, not " + expected);
        }
        return earlier;
    }

    /** The open-loop run added to the earlier ones (one of the same probe and rate replaced). */
    private Results combineOpen(Results earlier, OpenImported imported, Tools which, long expected) {
        List<OpenLoopRun> open = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        OpenLoopRun run = imported.run();
        if (earlier != null) {
            earlier.openLoop().stream().filter(r -> !(r.probe().equals(run.probe()) && r.offeredRps() == run.offeredRps()))
                    .forEach(open::add);
            notes.addAll(earlier.notes());
        }
        open.add(run);
        open.sort(java.util.Comparator.comparingInt((OpenLoopRun r) -> r.probe().equals(Probe.STATIC.id()) ? 0 : 1)
                .thenComparingDouble(OpenLoopRun::offeredRps));
        imported.notes().stream().filter(n -> !notes.contains(n)).forEach(notes::add);
        RecordedSettings settings = (earlier != null ? earlier.settings().toBuilder() : RecordedSettings.builder()).engine(which.id())
                .windowRule("the tool's whole run (imported, open loop)")
                .workloads(open.stream().map(OpenLoopRun::probe).distinct().toList(), null).build();
        String now = OffsetDateTime.now().withNano(0).toString();
        return new Results(earlier != null ? earlier.target() : target, server != null ? server
                : earlier != null ? earlier.server() : null, expected, settings,
                earlier != null ? earlier.startedAt() : now, now, false, null, notes,
                List.of(), null, earlier != null ? earlier.runs() : List.of(), List.of(), null, open, null);
    }

    private Results combine(Results earlier, Imported imported, Tools which, long expected, String name) {
        List<RunRecord> runs = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        if (earlier != null) {
            earlier.runs().stream().filter(r -> !(r.probe().equals(name) && r.clients() == imported.run().clients()))
                    .forEach(runs::add);
            notes.addAll(earlier.notes());
        }
        runs.add(imported.run());
        runs.sort(java.util.Comparator.comparingInt((RunRecord r) -> r.probe().equals(Probe.STATIC.id()) ? 0 : 1)
                .thenComparingInt(RunRecord::clients));
        for (String note : imported.notes()) {
            if (!notes.contains(note)) {
                notes.add(note);
            }
        }
        RecordedSettings.Builder builder = earlier != null ? earlier.settings().toBuilder() : RecordedSettings.builder();
        if (imported.protocol() != null) {
            builder.protocol(imported.protocol());
        }
        RecordedSettings settings = builder.engine(which.id())
                .windowRule("the tool's whole run (imported)")
                .clients(runs.stream().map(RunRecord::clients).distinct().sorted().toList())
                .workloads(runs.stream().map(RunRecord::probe).distinct().toList(), null).build();
        String now = OffsetDateTime.now().withNano(0).toString();
        return new Results(earlier != null ? earlier.target() : target, server != null ? server
                : earlier != null ? earlier.server() : null, expected, settings,
                earlier != null ? earlier.startedAt() : now, now, false, null, notes, List.of(), null, runs, List.of(),
                null, earlier != null ? earlier.openLoop() : List.of(), null);
    }
}
