package org.spice.bench.plan;

import org.spice.bench.engine.EventLoopEngine;
import org.spice.bench.model.BenchSettings;
import org.spice.bench.model.LoadEngine;
import org.spice.bench.proc.Pinning;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicReference;

import org.spice.bench.mix.Mix;
import org.spice.bench.net.TlsConfig;
import org.spice.bench.report.ReportWriter;
import org.spice.bench.model.Results;
import org.spice.bench.model.Settings;
import org.spice.bench.model.ResultsJson;
import org.spice.bench.proc.CpuMeter;
import org.spice.bench.model.RunRecord;

import sun.misc.Signal;

/**
 * One bench run: checks the server answers, runs the ladder of every workload, writes
 * results/TIMESTAMP/results.json after every mix (so a crash loses at most the mix in progress), and at
 * the end runs.csv, report.html and the summary table. Exit 0 only if every mix succeeded; SIGINT and
 * SIGTERM end the mix under way, write what was measured, marked partial, and exit 130 or 143.
 */
public final class Ladder {

    /** Clients of the warm-up: enough to run the client's code paths hot, few enough not to tire the server. */
    private static final int WARM_UP_CLIENTS = 8;

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
    private Settings recorded;
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
        recorded = record.build();
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
        int total = settings.repeat() * settings.mixes().size() * settings.clients().size();
        int index = 0;
        if (settings.warmUpS() > 0) {
            try {
                int clients = Math.min(WARM_UP_CLIENTS, settings.maxClients());
                err.printf(Locale.ROOT, "warm-up: %s, %d clients, %.1f s, not measured%n", settings.mixes().get(0).name(),
                        clients, settings.warmUpS());
                runner.warmUp(settings.mixes().get(0), clients, settings.warmUpS());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return "interrupted";
            }
        }
        for (int repeat = 1; repeat <= settings.repeat(); repeat++) {
            for (Mix mix : settings.mixes()) {
                for (int clients : settings.clients()) {
                    try {
                        if (index > 0) {
                            pause();
                        }
                        if (interrupted.get() != null) {
                            return interrupted.get();
                        }
                        String down = EventLoopEngine.stoppedAnswering(settings, List.of(mix));
                        if (down != null) {
                            return "the server stopped answering before " + mix.name() + " at " + clients
                                    + " clients: " + down;
                        }
                        RunRecord record = runner.run(mix, clients, repeat);
                        runs.add(record);
                        progress(++index, total, record);
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
            }
        }
        return null;
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
                    engineNotes(), List.copyOf(runs));
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

    private void progress(int index, int total, RunRecord r) {
        String line = String.format(Locale.ROOT, "[%d/%d] %s %d clients, repeat %d: %.1f req/s, mean %.3f ms,"
                + " p99 %.3f ms, %d errors, Jain %.3f, Little %.2f, client %.2f cores, %s us/req client, %s us/req server",
                index, total, r.probe(), r.clients(), r.repeat(), r.rateRps(), r.latency().meanMs(), r.latency().p99Ms(),
                r.errorTotal(), r.fairnessJain(), r.littleRatio(), r.clientCpuCores(), fmt(r.clientCpuUsPerReq()),
                fmt(r.serverCpuUsPerReq()));
        err.println(line + (r.failed() ? "  FAILED: " + r.reason() : ""));
        if (r.clientSaturated()) {
            String warning = String.format(Locale.ROOT, "warning: the client used %.2f cores during %s at %d clients:"
                    + " the client, not the server, may be the limit there", r.clientCpuCores(), r.probe(), r.clients());
            err.println(warning);
            notes.add(warning);
        }
        if (r.expectedBodyBytes() >= 0 && r.requests() > 0 && r.bytesPerResponse() != r.expectedBodyBytes()) {
            notes.add("check failed: " + r.probe() + " at " + r.clients() + " clients: bytes per response "
                    + r.bytesPerResponse() + " is not the body size " + r.expectedBodyBytes());
        }
    }

    private void pause() throws InterruptedException {
        long end = System.nanoTime() + (long) (settings.pauseS() * 1e9);
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
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT));
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
