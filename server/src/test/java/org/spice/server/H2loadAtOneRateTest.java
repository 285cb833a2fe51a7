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
import org.spice.bench.model.Server;
import org.spice.bench.model.Stop;
import org.spice.bench.net.Endpoint;
import org.spice.servers.Servers;
import org.spice.bench.proc.ServerCpu;
import org.spice.commands.BenchCommand;
import org.spice.page.Probe;
import org.spice.testkit.Bound;

/**
 * h2load as the independent check of SPICE's HTTP/2 arms: a server takes h2c at one offered rate over the same 30
 * connections from SPICE's open loop and from h2load, in runs that alternate round by round, and each probe's server
 * CPU per request from the two clients must agree: on the embedded Tomcat (a process of its own) its servlet, on nginx
 * from conf/ its static file, each server's CPU from /proc. Each probe more is some 46 s, and the suite's 30 minutes
 * leave no room: Tomcat's static file read as its servlet did (medians of five 0.98-1.06 against 0.98-1.03,
 * 2026-12-04), nginx's module as its static file (1.01, 1.10 and 1.00 against 0.98, 1.00 and 1.10, 2026-12-05).
 *
 * <p>The two must send alike, and what matters is how the requests arrive. h2load's {@code --rps} sends a client's
 * requests on a timer of at least 10 ms, every client of a process in step: one process of 4 clients sent bursts of
 * some 30 requests every 10 ms, which Tomcat took in a few reads and wake-ups, and its CPU per request read 0.57-0.71 ×
 * SPICE's (2026-11-29); ten processes of three clients, three requests at once every millisecond, still 0.75-0.95 ×
 * (18 rounds, 2026-12-04). Here each of {@link #PROCESSES} processes runs one client at 100 req/s, one request a tick,
 * the processes started {@link #SPACING_NANOS} apart: they start interleaved, and as each one's timer runs on its own
 * clock their requests then fall at independent phases, as thirty independent clients' do, some together. SPICE's
 * open loop sends them the same way, at random ({@code --arrivals poisson}): its even schedule, a request exactly every
 * third of a millisecond, cost nginx, whose request costs a third of Tomcat's, 1.18-1.31 × h2load's where the random
 * one read 1.02-1.14 × (six rounds, 2026-12-05; docs/measurements.md, "SPICE against h2load"). Each client's CPU is
 * read over its run after half a second's lead-in (h2load's --warm-up-time).
 */
class H2loadAtOneRateTest {

    /** Well under the embedded server's h2c peak here (some 14,000 req/s at 8 streams), its CPU a third of a core. */
    private static final int RATE = 3000;
    private static final int RUN_S = 3;
    /** Unmeasured before a run, either client's: its connections opened, its pace taken. */
    private static final double LEAD_IN_S = 0.5;
    private static final int ROUNDS = 5;
    /**
     * How far the medians may stand from 1: a round's ratio spread 0.75-1.49 over 3 s runs here (log sd about 0.15;
     * 0.86-1.38 against thirty processes), a median of five some 0.08, so ±20 % is 2.5 of those; it catches h2load's
     * own bursts (0.57-0.71) and the even schedule on nginx (1.18-1.31), not the ±10 % issue 63 asks, which would take
     * some four times the rounds.
     */
    private static final double AGREE = 0.20;
    /** h2load's timer fires every 10 ms at the least: 100 req/s a client is one request a tick. */
    private static final int PER_CLIENT = 100;
    private static final long TICK_NANOS = 10_000_000L;
    /** A process a client, one connection each: SPICE's 30 connections. */
    private static final int PROCESSES = RATE / PER_CLIENT;
    /**
     * Between two h2load starts: a tick and a thirtieth of one, so that the processes start interleaved whatever a
     * start itself takes (a process start here is one to two milliseconds; each is timed from the first).
     */
    private static final long SPACING_NANOS = TICK_NANOS + TICK_NANOS / PROCESSES;
    private static final Multiplex LANES = new Multiplex(PROCESSES, 8);
    /**
     * SPICE's closed loop before a Java server's rounds: its JIT has compiled the request's path by then. One open round
     * follows, unmeasured: the first after the closed loop read the embedded servlet at 171-176 µs a request from SPICE
     * in two suites of three, 113-134 in the rounds after it (2026-12-05; the client's JIT compiling its open loop is a
     * likely cause, not measured); with the unmeasured round first, the first measured one read 120 and 121 in two runs.
     */
    private static final int JIT_WARM_UP_S = 6;

    /** h2load's count of the requests that succeeded. */
    private static final Pattern DONE = Pattern.compile("requests: \\d+ total, \\d+ started, \\d+ done,"
            + " (\\d+) succeeded");

    @TempDir
    static Path base;

    @Test
    void onTheEmbeddedTomcatSpiceAndH2loadGiveTheSameCpuPerRequestOverH2c() throws Exception {
        try (EmbeddedProcess server = EmbeddedProcess.start(base)) {
            compare("embedded", server.baseUrl(), new ServerCpu(List.of(server.process.pid()), true, List.of(), null),
                    List.of(Probe.SERVLET), JIT_WARM_UP_S);
        }
    }

    @Test
    void onNginxSpiceAndH2loadGiveTheSameCpuPerRequestOverH2c() throws Exception {
        int port = Server.NGINX.defaultPort();
        Exec.spice("server", "start", "nginx", "--port", Integer.toString(port)).ok("nginx's start");
        try {
            List<Long> pids = new Servers(Exec.ROOT, System.err, System.err).pids(Server.NGINX, port);
            compare("nginx", "http://127.0.0.1:" + Server.NGINX.ports(port).h2c(), new ServerCpu(pids, true, List.of(),
                    null), List.of(Probe.STATIC), 2);
        } finally {
            Exec.spice("server", "stop", "nginx", "--port", Integer.toString(port)).ok("nginx's stop");
        }
    }

    /**
     * {@code probes} on {@code server} at {@code h2cBase}, round by round from either client, each probe warmed by
     * SPICE's closed loop for {@code warmUpS} and the server once by h2load; the medians' bounds.
     */
    private static void compare(String server, String h2cBase, ServerCpu cpu, List<Probe> probes, int warmUpS)
            throws Exception {
        Path h2load = Path.of("/usr/bin/h2load");
        assertTrue(Files.isExecutable(h2load), "h2load is missing: apt-get install nghttp2-client");
        Endpoint to = Endpoint.parse(h2cBase);
        BenchSettings settings = BenchCommand.settings("--target", h2cBase, "--no-verify", "--arrivals", "poisson");
        settings = settings.with(settings.target().with(LANES));
        EventLoopEngine engine = new EventLoopEngine(settings, null, new Stop(), cpu, Map.of("server:h2c", cpu));
        Map<Probe, List<Double>> ratios = new LinkedHashMap<>();
        for (Probe probe : probes) {
            Mix mix = Mix.of(probe).onHttp2("server:h2c", to);
            engine.warmUp(mix, 8, warmUpS);
            if (probe == probes.get(0)) {
                h2load(h2load, cpu, h2cBase + probe.path(), 3);
            }
            spice(engine, mix);   // unmeasured (see JIT_WARM_UP_S)
            for (int round = 1; round <= ROUNDS; round++) {
                double ours = Double.NaN;
                double theirs = Double.NaN;
                for (int turn = 0; turn < 2; turn++) {
                    if ((turn + round) % 2 == 1) {
                        ours = spice(engine, mix);
                    } else {
                        theirs = h2load(h2load, cpu, h2cBase + probe.path(), RUN_S);
                    }
                }
                System.out.printf(Locale.ROOT, "%s %s round %d: SPICE %.1f µs/req, h2load %.1f µs/req, %.3f%n",
                        server, probe.id(), round, ours, theirs, ours / theirs);
                ratios.computeIfAbsent(probe, p -> new ArrayList<>()).add(ours / theirs);
            }
        }
        for (Map.Entry<Probe, List<Double>> e : ratios.entrySet()) {
            Bound.ratio(server + " " + e.getKey().id() + ": server CPU per request, SPICE's h2c over h2load's"
                    + " (median of " + ROUNDS + " rounds)", median(e.getValue()), 1.0, AGREE, "single rounds read"
                    + " 0.86-1.38 here, medians of five 0.98-1.06 on Tomcat against thirty processes; nginx's static"
                    + " file 1.02-1.14 at random arrivals (docs/measurements.md, \"SPICE against h2load\")");
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
     * h2load over h2c at {@link #RATE} for {@code seconds} after its {@link #LEAD_IN_S} warm-up, {@link #PROCESSES}
     * processes started {@link #SPACING_NANOS} apart: the server's CPU per request, µs, its CPU over the time every
     * process is in its measured part (their connections' setup and ending left out, as SPICE's lead-in and tail are)
     * over the rate h2load reports for its measured part.
     */
    private static double h2load(Path h2load, ServerCpu cpu, String url, int seconds) throws Exception {
        List<Process> processes = new ArrayList<>();
        List<Path> outs = new ArrayList<>();
        long launched = System.nanoTime();
        for (int i = 0; i < PROCESSES; i++) {
            LockSupport.parkNanos(launched + i * SPACING_NANOS - System.nanoTime());
            Path out = Files.createTempFile(base, "h2load", ".txt");
            outs.add(out);
            processes.add(new ProcessBuilder(h2load.toString(), "-c", "1", "-m", Integer.toString(LANES.streams()),
                    "--rps", Integer.toString(PER_CLIENT), "--warm-up-time", Math.round(LEAD_IN_S * 1000) + "ms", "-D",
                    Integer.toString(seconds), url).redirectErrorStream(true).redirectOutput(out.toFile()).start());
        }
        // from the last process's lead-in end to the first one's run end: every process in its measured part
        long allMeasured = launched + (PROCESSES - 1) * SPACING_NANOS + (long) (LEAD_IN_S * 1e9);
        long firstEnds = launched + (long) (LEAD_IN_S * 1e9) + seconds * 1_000_000_000L;
        LockSupport.parkNanos(allMeasured - System.nanoTime());
        double before = cpu.read().serverS();
        long from = System.nanoTime();
        LockSupport.parkNanos(firstEnds - from);
        double after = cpu.read().serverS();
        double cpuPerS = (after - before) / ((System.nanoTime() - from) / 1e9);
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
        return 1e6 * cpuPerS / ((double) succeeded / seconds);
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
