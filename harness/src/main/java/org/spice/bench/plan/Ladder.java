package org.spice.bench.plan;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicReference;

import org.spice.bench.engine.EventLoopEngine;
import org.spice.bench.figures.Counts;
import org.spice.bench.mix.Mix;
import org.spice.bench.model.BenchSettings;
import org.spice.bench.model.IdleCpu;
import org.spice.bench.model.LoadEngine;
import org.spice.bench.model.Overload;
import org.spice.bench.model.Results;
import org.spice.bench.model.ResultsJson;
import org.spice.bench.model.RunRecord;
import org.spice.bench.model.Settings;
import org.spice.bench.model.SteadyState;
import org.spice.bench.net.TlsConfig;
import org.spice.bench.proc.CpuMeter;
import org.spice.bench.proc.Exporters;
import org.spice.bench.proc.ServerCpu;
import org.spice.bench.proc.Pinning;
import org.spice.bench.report.ReportWriter;

import sun.misc.Signal;

/**
 * One bench run: checks the server answers, runs the ladder of every workload, writes
 * results/TIMESTAMP/results.json after every mix (so a crash loses at most the mix in progress), and at
 * the end runs.csv, report.html and the summary table. Exit 0 only if every mix succeeded; SIGINT and
 * SIGTERM end the mix under way, write what was measured, marked partial, and exit 130 or 143.
 */
public final class Ladder {

    /**
     * Most clients of the warm-up: the ladder's largest count up to this, so that a server's thread pools have
     * grown to what the ladder needs (Tomcat warmed at 8 clients still spent twice its steady CPU in its first
     * window at 64).
     */
    private static final int WARM_UP_CLIENTS = 64;
    /**
     * A Java server's warm-up lasts at least this many times {@code --warm-up} in all (2 min by default): Tomcat's
     * CPU per request kept falling by some 20 % over its first two minutes of load although its JIT had compiled
     * what runs hot within 15 s and its collector ran a young GC every few seconds (jstat), so that every
     * probe's first window cost more than its later ones; after two minutes it had settled.
     */
    static final double JVM_WARM_UP_FACTOR = 4;
    /** JMeter starts a JVM per run, so it warms the first workload for a fixed time instead, at most this. */
    private static final double JMETER_WARM_UP_S = 5;

    /** Exit statuses of a ladder ended by SIGINT and SIGTERM, as a shell would report them. */
    static final int INTERRUPTED = 130;
    static final int TERMINATED = 143;

    private final BenchSettings settings;
    private final PrintStream out;
    private final PrintStream err;
    private final AtomicReference<String> interrupted = new AtomicReference<>();
    private final List<RunRecord> runs = Collections.synchronizedList(new ArrayList<>());
    private final List<String> notes = new ArrayList<>();
    private LoadEngine runner;
    private ServerCpu serverCpu;
    private Settings recorded;
    private List<SteadyState> steadyState = List.of();
    private List<Overload> overload = List.of();
    private IdleCpu idle;
    private String startedAt;
    private Path dir;
    private int signalled;

    public Ladder(BenchSettings settings, PrintStream out, PrintStream err) {
        this.settings = settings;
        this.out = out;
        this.err = err;
    }

    /** The results directory, once the run has made it (null before, or if it could not). */
    public Path dir() {
        return dir;
    }

    /** @return the exit status */
    public int run() {
        TlsConfig tls;
        try {
            tls = tls();
        } catch (IOException | GeneralSecurityException e) {
            err.println("spice bench: --trust-cert: " + e.getMessage());
            return 2;
        }
        String down = EventLoopEngine.stoppedAnswering(settings, settings.mixes());
        if (down != null) {
            err.println("spice bench: cannot reach " + down + " (start a server first, e.g. scripts/spice serve)");
            return 1;
        }
        boolean local = settings.target().isLocal();
        for (long pid : settings.serverPids()) {
            if (!CpuMeter.processExists(pid)) {
                err.println("spice bench: --server-pid: no process " + pid + " on this machine");
                return 2;
            }
        }
        serverCpu = settings.serverCpu();
        String unreadable = serverCpu.check();
        if (unreadable != null) {
            err.println("spice bench: --server-metrics: " + unreadable);
            return 1;
        }
        if (serverCpu.fromExporters()) {
            notes.add("The server's CPU was read where it runs, from its exporters " + settings.serverMetrics() + ": srv is"
                    + " process-exporter's group \"" + Exporters.GROUP + "\" (the server's processes; a CGI program born"
                    + " and reaped between two scrapes is not seen, so for CGI the machine figure counts), mach is"
                    + " node_exporter's busy time less the exporters' own" + (local ? " and less this client's (the server"
                    + " runs on this machine)" : " (the client is not on that machine)"));
        } else if (settings.serverPids().isEmpty() && !local) {
            notes.add("The server is not on this machine (" + settings.target() + "): SPICE reads CPU where it runs, and"
                    + " this machine's CPU would be the client's, so there is no server CPU figure: pass --server-metrics"
                    + " (scripts/spice metrics-agent start on the server's machine)");
        }
        if (!settings.serverPids().isEmpty() && !local) {
            notes.add("--server-pid given but the target is not local: the server CPU is of processes "
                    + settings.serverPids() + " on this machine, check that they are the server");
        }
        Settings.Builder record = settings.recorded().toBuilder().machine(Runtime.getRuntime().availableProcessors(),
                CpuMeter.clockTicks(), System.getProperty("java.vm.name") + " " + System.getProperty("java.version"),
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"));
        if (settings.pin()) {
            String pinning = Pinning.apply(local, settings.serverPids());
            record.pinning(pinning);
            err.println(pinning);
        }
        recorded = record.order(ORDER).steadyStateRule(settings.warmUpS() > 0 ? "warm each workload until " + SteadyState.RULE
                + ", at most " + settings.warmUpS() + " s each" + (CpuMeter.anyJava(settings.serverPids())
                ? "; a Java server at least " + JVM_WARM_UP_FACTOR * settings.warmUpS() + " s in all" : "")
                : "none (--warm-up 0)").build();
        startedAt = OffsetDateTime.now().withNano(0).toString();
        try {
            dir = resultsDir();
        } catch (IOException e) {
            err.println("spice bench: --out: cannot create a results directory in " + settings.outDir() + ": " + e.getMessage());
            return 1;
        }
        sun.misc.SignalHandler intHandler = Signal.handle(new Signal("INT"), s -> onSignal("interrupted (Ctrl-C)", INTERRUPTED));
        sun.misc.SignalHandler termHandler = Signal.handle(new Signal("TERM"), s -> onSignal("stopped by SIGTERM", TERMINATED));
        try {
            String cut;
            try {
                cut = ladder(tls);
                if (cut == null && settings.flood() != null) {
                    cut = flood();
                }
            } catch (OutOfMemoryError e) {
                cut = "out of memory in the client (" + e.getMessage() + "): give the JVM more heap"
                        + " (JAVA_TOOL_OPTIONS=-Xmx...) or run fewer clients";
            }
            int status = finish(cut);
            return signalled != 0 ? signalled : status;
        } finally {
            Signal.handle(new Signal("INT"), intHandler);
            Signal.handle(new Signal("TERM"), termHandler);
        }
    }

    private void onSignal(String why, int status) {
        if (interrupted.compareAndSet(null, why)) {
            signalled = status;
            err.println("spice bench: " + why + "; finishing the results");
        }
    }

    /** Runs every mix; returns null if the ladder completed, else why it was cut short. */
    private String ladder(TlsConfig tls) {
        runner = settings.engine() == BenchSettings.Engine.JMETER
                ? new org.spice.bench.jmeter.JMeterEngine(settings, dir.resolve("jmeter"), interrupted, err)
                : new EventLoopEngine(settings, tls, interrupted);
        try {
            prepare();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
        List<Step> steps = order(settings);
        int index = 0;
        for (Step step : steps) {
            try {
                if (index > 0) {
                    pause();
                }
                if (interrupted.get() != null) {
                    return interrupted.get();
                }
                String down = EventLoopEngine.stoppedAnswering(settings, List.of(step.mix()));
                if (down != null) {
                    return "the server stopped answering before " + step.mix().name() + " at "
                            + Counts.clients(step.clients()) + ": " + down;
                }
                RunRecord record = runner.run(step.mix(), step.clients(), step.repeat());
                runs.add(record);
                progress(String.format(Locale.ROOT, "[%d/%d]", ++index, steps.size()), record);
                save(true, "run in progress");
                if (record.failed() && interrupted.get() != null) {
                    return interrupted.get();
                }
                if (record.failed() && record.reason().startsWith("the server")) {
                    return record.reason();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return "interrupted";
            } catch (IOException e) {
                return "cannot write " + dir.resolve(ResultsJson.FILE) + ": " + e.getMessage();
            }
        }
        return null;
    }

    /** One mix of the ladder: a workload at a client count, in a repeat. */
    record Step(int repeat, int clients, Mix mix) {
    }

    /** How the ladder's steps are ordered, as results.json records it. */
    static final String ORDER = "interleaved: every workload at a client count, then the next count; each repeat"
            + " a round of its own, the workloads' order rotated by one per round";

    /**
     * The ladder in an order that cannot favour a workload: round by round (repeat), client count by client count,
     * every workload at that count, the first workload of round r being the r-th, so that drift over the run hits
     * them all alike and no workload always goes first.
     */
    static List<Step> order(BenchSettings settings) {
        List<Step> steps = new ArrayList<>();
        List<Mix> mixes = settings.mixes();
        for (int repeat = 1; repeat <= settings.repeat(); repeat++) {
            for (int clients : settings.clients()) {
                for (int i = 0; i < mixes.size(); i++) {
                    steps.add(new Step(repeat, clients, mixes.get((i + repeat - 1) % mixes.size())));
                }
            }
        }
        return steps;
    }

    /**
     * The idle measurement, then every workload to steady state (or, on JMeter, the first for a fixed time). Idle
     * first, so that the ladder follows the warm-up with no gap: after 2 s of idle between them, Jetty's first window
     * cost up to 1.5 × what the warm-up's last slices had.
     */
    private void prepare() throws InterruptedException {
        if (settings.warmUpS() <= 0) {
            return;
        }
        int clients = Math.min(WARM_UP_CLIENTS, settings.maxClients());
        WarmUp warmUp = new WarmUp(runner, interrupted, err);
        idle = warmUp.idle(WarmUp.IDLE_S, serverCpu);
        double minS = CpuMeter.anyJava(settings.serverPids()) ? JVM_WARM_UP_FACTOR * settings.warmUpS() : 0;
        steadyState = warmUp.steady(settings.mixes(), clients, settings.warmUpS(), minS);
        if (steadyState.isEmpty()) {
            double seconds = Math.min(settings.warmUpS(), JMETER_WARM_UP_S);
            err.printf(Locale.ROOT, "warm-up: %s, %d clients, %.1f s, not measured (this engine is not checked for a"
                    + " steady state)%n", settings.mixes().get(0).name(), clients, seconds);
            runner.warmUp(settings.mixes().get(0), clients, seconds);
        }
    }

    private int finish(String cut) {
        boolean failed = runs.stream().anyMatch(RunRecord::failed);
        try {
            Results results = save(cut != null, cut);
            out.print(ReportWriter.write(dir, results));
            out.println("results: " + dir.toAbsolutePath());
        } catch (IOException | RuntimeException e) {
            err.println("spice bench: cannot write the results in " + dir + ": " + e);
            return 1;
        }
        if (cut != null) {
            err.println("spice bench: run cut short: " + cut);
        }
        return cut != null || failed ? 1 : 0;
    }

    private Results save(boolean partial, String reason) throws IOException {
        Results results;
        synchronized (runs) {
            results = new Results(settings.target().toString(), settings.serverName(), settings.bytes(), recorded,
                    startedAt, OffsetDateTime.now().withNano(0).toString(), partial, partial ? reason : null,
                    engineNotes(), steadyState, idle, List.copyOf(runs), overload);
        }
        ResultsJson.write(dir, results);
        return results;
    }

    private List<String> engineNotes() {
        List<String> all = new ArrayList<>(notes);
        if (runner != null) {
            all.addAll(runner.notes());
        }
        return all;
    }

    /**
     * The overload profile's flood past each workload's peak, after the ladder; results.json is rewritten after each
     * of its steps, as after each mix of the ladder.
     */
    private String flood() {
        notes.add(String.format(Locale.ROOT, "overload: each workload at its peak's client count, then at %s times it"
                + " (capped by this machine's limits), each step %.1f s of ramp-up, a %.1f s window and %.1f s of ramp-down;"
                + " retention is a step's rate over the 1 × step's, left out where the engine or this client's own limits set the"
                + " pace; recovery is the"
                + " time from the end of the largest step until a %.0f s window at the peak's clients runs within %.0f %% of"
                + " the 1 × rate with no failure and a GET answers the page byte for byte (watched for %.0f s at most)",
                settings.flood().multiples(), settings.flood().rampUpS(), settings.flood().windowS(),
                settings.flood().rampDownS(), Flood.CHECK_S,
                100 * Overload.RECOVERED_WITHIN, Flood.RECOVERY_LIMIT_S));
        Flood flood = new Flood(settings, runner, interrupted, err, notes);
        try {
            return flood.run(List.copyOf(runs), (step, soFar) -> {
                overload = soFar;
                if (step != null) {
                    progress("[overload " + step.multiple() + " ×]", step.run());
                }
                save(true, "run in progress");
            });
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        } catch (IOException e) {
            return "cannot write " + dir.resolve(ResultsJson.FILE) + ": " + e.getMessage();
        }
    }

    private void progress(String at, RunRecord r) {
        String line = String.format(Locale.ROOT, "%s %s %s%s: %.1f req/s, mean %.3f ms,"
                + " p99 %.3f ms, %d errors, Jain %.3f, Little %.2f, client %.2f cores, %s us/req client, %s us/req server",
                at, r.probe(), Counts.clients(r.clients()), r.repeat() > 0 ? ", repeat " + r.repeat() : "", r.rateRps(), r.latency().meanMs(), r.latency().p99Ms(),
                r.errorTotal(), r.fairnessJain(), r.littleRatio(), r.clientCpuCores(), fmt(r.clientCpuUsPerReq()),
                fmt(r.serverCpuUsPerReq()));
        err.println(line + (r.failed() ? "  FAILED: " + r.reason() : ""));
        if (r.clientSaturated()) {
            String warning = String.format(Locale.ROOT, "warning: the client used %.2f cores during %s at %s:"
                    + " the client, not the server, may be the limit there", r.clientCpuCores(), r.probe(), Counts.clients(r.clients()));
            err.println(warning);
            notes.add(warning);
        }
        if (r.expectedBodyBytes() >= 0 && r.requests() > 0 && r.bytesPerResponse() != r.expectedBodyBytes()) {
            notes.add("check failed: " + r.probe() + " at " + Counts.clients(r.clients()) + ": bytes per response "
                    + r.bytesPerResponse() + " is not the body size " + r.expectedBodyBytes());
        }
    }

    private void pause() throws InterruptedException {
        rest(settings.pauseS(), interrupted);
    }

    /** Sleeps {@code seconds}, or less if a signal sets {@code interrupted} meanwhile (it is looked at every 0.1 s). */
    static void rest(double seconds, AtomicReference<String> interrupted) throws InterruptedException {
        long end = System.nanoTime() + (long) (seconds * 1e9);
        while (interrupted.get() == null && System.nanoTime() < end) {
            Thread.sleep(Math.max(1, Math.min(100, (end - System.nanoTime()) / 1_000_000)));
        }
    }

    private TlsConfig tls() throws IOException, GeneralSecurityException {
        boolean needed = settings.tlsTarget() != null && settings.mixes().stream()
                .anyMatch(mix -> mix.hasTls() || settings.target().tls());
        return needed ? TlsConfig.create(settings.trustCert(), settings.tlsResume()) : null;
    }

    private Path resultsDir() throws IOException {
        String stamp = PlanCommands.stamp();
        Path candidate = settings.outDir().resolve(stamp);
        for (int i = 2; Files.exists(candidate); i++) {
            candidate = settings.outDir().resolve(stamp + "-" + i);
        }
        return Files.createDirectories(candidate);
    }

    private static String fmt(double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.1f", value);
    }
}
