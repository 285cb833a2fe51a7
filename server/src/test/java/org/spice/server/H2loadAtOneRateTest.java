package org.spice.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.engine.EventLoopEngine;
import org.spice.bench.mix.Mix;
import org.spice.bench.model.BenchSettings;
import org.spice.bench.model.CpuSlice;
import org.spice.bench.model.Multiplex;
import org.spice.bench.model.Stop;
import org.spice.bench.net.Endpoint;
import org.spice.bench.proc.ServerCpu;
import org.spice.commands.BenchCommand;
import org.spice.page.Probe;
import org.spice.testkit.Bound;

/**
 * h2load as the independent check of SPICE's HTTP/2 arms: the embedded server (Tomcat, a process of its own, its CPU
 * from /proc) takes h2c at one offered rate over the same 30 connections from SPICE's open loop and from h2load, in
 * runs that alternate round by round, and each probe's server CPU per request from the two clients must agree.
 *
 * <p>h2load's {@code --rps} sends a client's requests on a timer of at least 10 ms, every client's timer in step: at
 * 3,000 req/s over 4 connections, bursts of some 30 requests every 10 ms, which the server took in a few reads and
 * wake-ups (strace: 0.13 epoll_wait a request against SPICE's 1.26), and its CPU per request read 0.57-0.71 × SPICE's,
 * evenly spaced (2026-11-29). At 100 req/s a client it sends one request a tick; ten h2load processes of three clients
 * each, started {@link #STAGGER_NANOS} apart, then offer three requests a millisecond, close to SPICE's one every third
 * of one, and read 0.89-1.10 × SPICE's. That is the check here: the same pattern, two clients, each one's CPU read
 * over its run after half a second's lead-in (h2load's --warm-up-time; read around the whole of h2load's processes,
 * their connections' setup and ending in it, the ratio read 0.86-0.95 over 3 s runs).
 */
class H2loadAtOneRateTest {

    /** Well under the embedded server's h2c peak here (some 14,000 req/s at 8 streams), its CPU a third of a core. */
    private static final int RATE = 3000;
    private static final int RUN_S = 3;
    /** Unmeasured before a run, either client's: its connections opened, its pace taken. */
    private static final double LEAD_IN_S = 0.5;
    private static final int ROUNDS = 5;
    /**
     * How far the medians may stand from 1: a round's ratio spread 0.75-1.49 over 3 s runs here (log sd about 0.15),
     * a median of five some 0.08, so ±20 % is 2.5 of those; it catches h2load's own bursts (0.57-0.71), not the ±10 %
     * issue 63 asks, which would take some four times the rounds.
     */
    private static final double AGREE = 0.20;
    /** h2load's timer fires every 10 ms at the least: 100 req/s a client is one request a tick. */
    private static final int PER_CLIENT = 100;
    private static final int CLIENTS_EACH = 3;
    private static final int PROCESSES = RATE / (PER_CLIENT * CLIENTS_EACH);
    private static final long STAGGER_NANOS = 10_000_000L / PROCESSES;
    private static final Multiplex LANES = new Multiplex(PROCESSES * CLIENTS_EACH, 8);

    /** h2load's count of the requests that succeeded. */
    private static final Pattern DONE = Pattern.compile("requests: \\d+ total, \\d+ started, \\d+ done,"
            + " (\\d+) succeeded");

    @TempDir
    static Path base;

    @Test
    void spiceAndH2loadGiveTheSameCpuPerRequestOverH2c() throws Exception {
        Path h2load = Path.of("/usr/bin/h2load");
        assertTrue(Files.isExecutable(h2load), "h2load is missing: apt-get install nghttp2-client");
        try (EmbeddedProcess server = EmbeddedProcess.start(base)) {
            ServerCpu cpu = new ServerCpu(List.of(server.process.pid()), true, List.of(), null);
            Endpoint to = Endpoint.parse(server.baseUrl());
            BenchSettings settings = BenchCommand.settings("--target", server.baseUrl(), "--no-verify");
            settings = settings.with(settings.target().with(LANES));
            EventLoopEngine engine = new EventLoopEngine(settings, null, new Stop(), cpu, Map.of("embedded:h2c", cpu));
            Map<Probe, List<Double>> ratios = new LinkedHashMap<>();
            for (Probe probe : List.of(Probe.STATIC, Probe.SERVLET)) {
                Mix mix = Mix.of(probe).onHttp2("embedded:h2c", to);
                engine.warmUp(mix, 8, 6);
                h2load(h2load, cpu, server.baseUrl() + probe.path(), 3);
                for (int round = 1; round <= ROUNDS; round++) {
                    double ours = Double.NaN;
                    double theirs = Double.NaN;
                    for (int turn = 0; turn < 2; turn++) {
                        if ((turn + round) % 2 == 1) {
                            ours = spice(engine, mix);
                        } else {
                            theirs = h2load(h2load, cpu, server.baseUrl() + probe.path(), RUN_S);
                        }
                    }
                    System.out.printf(Locale.ROOT, "%s round %d: SPICE %.1f µs/req, h2load %.1f µs/req, %.3f%n",
                            probe.id(), round, ours, theirs, ours / theirs);
                    ratios.computeIfAbsent(probe, p -> new ArrayList<>()).add(ours / theirs);
                }
            }
            for (Map.Entry<Probe, List<Double>> e : ratios.entrySet()) {
                Bound.ratio(e.getKey().id() + ": server CPU per request, SPICE's h2c over h2load's (median of "
                        + ROUNDS + " rounds)", median(e.getValue()), 1.0, AGREE, "single rounds read 0.75-1.49 here,"
                        + " medians of five 0.87-0.99 (docs/measurements.md, \"SPICE against h2load\")");
            }
        }
    }

    /** SPICE's open loop over h2c for {@link #RUN_S} one-second slices: the server's CPU per request, µs. */
    private static double spice(EventLoopEngine engine, Mix mix) throws InterruptedException {
        List<CpuSlice> slices = engine.openRound(Collections.nCopies(RUN_S, mix), RATE, LEAD_IN_S, false).slices();
        long requests = slices.stream().mapToLong(CpuSlice::requests).sum();
        assertEquals(0, slices.stream().mapToLong(CpuSlice::errors).sum(), "SPICE's errors: " + slices);
        assertEquals(RATE * RUN_S, requests, RATE * RUN_S * 0.01, "SPICE's requests: " + slices);
        return 1e6 * slices.stream().mapToDouble(CpuSlice::serverCpuS).sum() / requests;
    }

    /**
     * h2load over h2c at {@link #RATE} for {@code seconds} after its {@link #LEAD_IN_S} warm-up,
     * {@link #PROCESSES} processes started a {@link #STAGGER_NANOS} apart: the server's CPU per request done in the
     * main duration, µs, its CPU read as that starts and ends (the connections' setup and ending left out, as SPICE's
     * lead-in and tail are).
     */
    private static double h2load(Path h2load, ServerCpu cpu, String url, int seconds) throws Exception {
        List<Process> processes = new ArrayList<>();
        List<Path> outs = new ArrayList<>();
        long launched = System.nanoTime();
        for (int i = 0; i < PROCESSES; i++) {
            Path out = Files.createTempFile(base, "h2load", ".txt");
            outs.add(out);
            processes.add(new ProcessBuilder(h2load.toString(), "-c", Integer.toString(CLIENTS_EACH), "-m",
                    Integer.toString(LANES.streams()), "--rps", Integer.toString(PER_CLIENT), "--warm-up-time",
                    Math.round(LEAD_IN_S * 1000) + "ms", "-D", Integer.toString(seconds), url).redirectErrorStream(true)
                    .redirectOutput(out.toFile()).start());
            LockSupport.parkNanos(STAGGER_NANOS);
        }
        long main = launched + (long) (LEAD_IN_S * 1e9) + STAGGER_NANOS * PROCESSES / 2;
        LockSupport.parkNanos(main - System.nanoTime());
        double before = cpu.read().serverS();
        LockSupport.parkNanos(main + seconds * 1_000_000_000L - System.nanoTime());
        double after = cpu.read().serverS();
        for (Process process : processes) {
            if (!process.waitFor(seconds + 30L, TimeUnit.SECONDS)) {
                processes.forEach(Process::destroyForcibly);
                throw new AssertionError("h2load did not end");
            }
        }
        long succeeded = 0;
        for (int i = 0; i < PROCESSES; i++) {
            String text = Files.readString(outs.get(i), StandardCharsets.UTF_8);
            Matcher m = DONE.matcher(text);
            assertTrue(m.find() && processes.get(i).exitValue() == 0, text);
            succeeded += Long.parseLong(m.group(1));
        }
        assertEquals(RATE * seconds, succeeded, RATE * seconds * 0.02, "h2load kept its rate");
        return 1e6 * (after - before) / succeeded;
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
