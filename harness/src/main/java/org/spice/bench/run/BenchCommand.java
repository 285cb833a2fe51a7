package org.spice.bench.run;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.spice.bench.mix.Mix;
import org.spice.bench.net.Endpoint;
import org.spice.bench.net.TlsConfig;
import org.spice.bench.report.ReportWriter;
import org.spice.bench.report.Results;
import org.spice.bench.report.ResultsJson;
import org.spice.bench.stats.CpuMeter;
import org.spice.bench.stats.RunRecord;
import org.spice.harness.UsageException;

/**
 * {@code spice bench}: checks the server answers, runs the ladder of every workload, writes
 * results/TIMESTAMP/results.json after every mix (so a crash loses at most the mix in progress), and at
 * the end runs.csv, report.html and the summary table. Exit 0 only if every mix succeeded.
 */
public final class BenchCommand {

    /** Clients of the warm-up: enough to run the client's code paths hot, few enough not to tire the server. */
    private static final int WARM_UP_CLIENTS = 8;

    private final BenchOptions options;
    private final PrintStream out;
    private final PrintStream err;
    private final AtomicBoolean interrupted = new AtomicBoolean();
    private final CountDownLatch written = new CountDownLatch(1);
    private final List<RunRecord> runs = Collections.synchronizedList(new ArrayList<>());
    private final List<String> notes = new ArrayList<>();
    private Map<String, Object> settings;
    private String startedAt;
    private Path dir;

    private BenchCommand(BenchOptions options, PrintStream out, PrintStream err) {
        this.options = options;
        this.out = out;
        this.err = err;
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        return new BenchCommand(BenchOptions.parse(args), out, err).run();
    }

    private int run() {
        TlsConfig tls = tls();
        for (Endpoint endpoint : endpoints()) {
            String down = unreachable(endpoint, options.timeoutMillis);
            if (down != null) {
                out.println("cannot reach " + endpoint + ": " + down + " (start a server first, e.g. scripts/spice serve)");
                return 1;
            }
        }
        boolean local = options.target.isLocal();
        for (long pid : options.serverPids) {
            if (!CpuMeter.processExists(pid)) {
                throw new UsageException("--server-pid: no process " + pid + " on this machine");
            }
        }
        if (!options.serverPids.isEmpty() && !local) {
            notes.add("--server-pid given but the target is not local: the server CPU is of processes "
                    + options.serverPids + " on this machine, check that they are the server");
        }
        settings = options.settings();
        settings.put("client_cpus", Runtime.getRuntime().availableProcessors());
        settings.put("clock_ticks_per_s", CpuMeter.clockTicks());
        settings.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
        settings.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch"));
        if (options.pin) {
            String pinning = Pinning.apply(local, options.serverPids);
            settings.put("pinning", pinning);
            err.println(pinning);
        }
        startedAt = OffsetDateTime.now().withNano(0).toString();
        try {
            dir = resultsDir();
        } catch (IOException e) {
            out.println("--out: cannot create a results directory in " + options.outDir + ": " + e.getMessage());
            return 1;
        }
        ReportWriter.warmUp();
        Thread hook = new Thread(this::onInterrupt, "spice-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            String cut = ladder(tls);
            return finish(cut);
        } finally {
            written.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // the JVM is already shutting down (Ctrl-C): the hook is running and has been released above
            }
        }
    }

    /** Runs every mix; returns null if the ladder completed, else why it was cut short. */
    private String ladder(TlsConfig tls) {
        MixRunner runner = new MixRunner(options, tls, interrupted);
        int total = options.repeat * options.mixes.size() * options.clients.length;
        int index = 0;
        if (options.warmUpS > 0) {
            try {
                int clients = Math.min(WARM_UP_CLIENTS, Arrays.stream(options.clients).max().orElse(1));
                err.printf(Locale.ROOT, "warm-up: %s, %d clients, %.1f s, not measured%n", options.mixes.get(0).name(),
                        clients, options.warmUpS);
                runner.warmUp(options.mixes.get(0), clients, options.warmUpS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return "interrupted";
            }
        }
        for (int repeat = 1; repeat <= options.repeat; repeat++) {
            for (Mix mix : options.mixes) {
                for (int clients : options.clients) {
                    try {
                        if (index > 0) {
                            pause();
                        }
                        if (interrupted.get()) {
                            return "interrupted (Ctrl-C)";
                        }
                        String down = stoppedAnswering();
                        if (down != null) {
                            return "the server stopped answering before " + mix.name() + " at " + clients
                                    + " clients: " + down;
                        }
                        RunRecord record = runner.run(mix, clients, repeat);
                        String gone = record.failed() || record.errorTotal() == 0 ? null : stoppedAnswering();
                        if (gone != null) {
                            record = record.withFailure("the server stopped answering during this mix: " + gone);
                        }
                        runs.add(record);
                        progress(++index, total, record);
                        save(true, "run in progress");
                        if (record.failed() && interrupted.get()) {
                            return "interrupted (Ctrl-C)";
                        }
                        if (gone != null) {
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
            out.println("cannot write the results in " + dir + ": " + e);
            return 1;
        }
        if (cut != null) {
            err.println("run cut short: " + cut);
        }
        return cut != null || failed ? 1 : 0;
    }

    private Results save(boolean partial, String reason) throws IOException {
        Results results;
        synchronized (runs) {
            results = new Results(options.target.toString(), options.serverName, options.bytes, settings, startedAt,
                    OffsetDateTime.now().withNano(0).toString(), partial, partial ? reason : null, List.copyOf(notes),
                    List.copyOf(runs));
        }
        ResultsJson.write(dir, results);
        return results;
    }

    /** The shutdown hook: tell the ladder to stop and wait until it has written what it measured. */
    private void onInterrupt() {
        interrupted.set(true);
        try {
            if (!written.await(options.timeoutMillis + 15_000L, TimeUnit.MILLISECONDS)) {
                System.err.println("spice bench: gave up waiting for the results to be written");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
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
        long end = System.nanoTime() + (long) (options.pauseS * 1e9);
        while (!interrupted.get() && System.nanoTime() < end) {
            Thread.sleep(Math.max(1, Math.min(100, (end - System.nanoTime()) / 1_000_000)));
        }
    }

    private TlsConfig tls() {
        boolean needed = options.tlsTarget != null && options.mixes.stream()
                .anyMatch(mix -> mix.hasTls() || options.target.tls());
        if (!needed) {
            return null;
        }
        try {
            return TlsConfig.create(options.trustCert, options.tlsResume);
        } catch (IOException | GeneralSecurityException e) {
            throw new UsageException("--trust-cert: " + e.getMessage());
        }
    }

    /** The endpoints the workloads use: the target, and the TLS target if a mix sends TLS requests. */
    private List<Endpoint> endpoints() {
        List<Endpoint> endpoints = new ArrayList<>();
        if (options.mixes.stream().anyMatch(Mix::hasPlain)) {
            endpoints.add(options.target);
        }
        if (options.tlsTarget != null && options.tlsTarget != options.target
                && options.mixes.stream().anyMatch(Mix::hasTls)) {
            endpoints.add(options.tlsTarget);
        }
        return endpoints;
    }

    /** Null if every endpoint in use accepts a connection, else which one does not and why. */
    private String stoppedAnswering() {
        for (Endpoint endpoint : endpoints()) {
            String down = unreachable(endpoint, options.timeoutMillis);
            if (down != null) {
                return endpoint + ": " + down;
            }
        }
        return null;
    }

    /** Null if a TCP connection to the endpoint opens, else the reason. */
    static String unreachable(Endpoint endpoint, int timeoutMillis) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(endpoint.address().getAddress(), endpoint.port()), timeoutMillis);
            return null;
        } catch (IOException e) {
            return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        }
    }

    private Path resultsDir() throws IOException {
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT));
        Path candidate = options.outDir.resolve(stamp);
        for (int i = 2; Files.exists(candidate); i++) {
            candidate = options.outDir.resolve(stamp + "-" + i);
        }
        return Files.createDirectories(candidate);
    }

    private static String fmt(double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.1f", value);
    }
}
