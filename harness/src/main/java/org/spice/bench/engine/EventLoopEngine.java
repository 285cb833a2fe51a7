package org.spice.bench.engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.spice.bench.figures.SpiceFigures;
import org.spice.bench.mix.Mix;
import org.spice.bench.mix.MixEntry;
import org.spice.bench.model.BenchSettings;
import org.spice.bench.model.Cpu;
import org.spice.bench.model.Failure;
import org.spice.bench.model.LoadEngine;
import org.spice.bench.model.RunRecord;
import org.spice.bench.model.Runner;
import org.spice.bench.model.Stop;
import org.spice.bench.net.Endpoint;
import org.spice.bench.net.Request;
import org.spice.bench.net.TlsConfig;
import org.spice.bench.proc.KernelCounters;
import org.spice.bench.proc.ServerCpu;

/**
 * Runs one mix: N clients spread over a few event-loop threads, a ramp-up that is not measured, the
 * measured window, a ramp-down that is not measured. All clients start together, as in WebBench. While
 * the mix runs, the runner thread watches for a dead server, so a crashed server costs seconds rather
 * than a whole window.
 */
public final class EventLoopEngine implements LoadEngine.Windowed {

    /**
     * Below this share of clients busy on average (Little's law) with the client's CPU saturated, the
     * engine, not the server, set the pace: the mix is marked rather than given a rate.
     */
    static final double ENGINE_BOUND_LITTLE = 0.75;
    /** The event loops' busy share from which they, not the server, may set the pace. */
    static final double ENGINE_BUSY = 0.9;

    /**
     * The load kept on after a CPU round's last slice, at most, seconds: that slice's last requests end under the load
     * they started in, as the ladder's do.
     */
    static final double ROUND_RAMP_DOWN_S = 0.5;

    /** The length of a window's slices: a second. */
    public static final long SLICE_NANOS = TimeUnit.SECONDS.toNanos(1);

    /** The phase boundaries on the System.nanoTime clock. */
    public record Schedule(long windowStart, long windowEnd, long stopAt) {
    }

    private final BenchSettings settings;
    private final TlsConfig tls;
    private final Stop stop;
    /** Whether the server is on this machine: only then is the machine's CPU (less the client) about the server. */
    private final boolean local;
    private final ServerCpu serverCpu;
    /** The arms' servers side by side, by the names their mixes carry ({@link Mix#server}). */
    private final List<String> armNames;
    /** Each server side by side once (two arms may be one server under two protocols): read at every edge. */
    private final List<ServerCpu> residents = new ArrayList<>();
    /** Arm i's server: residents' index. */
    private final int[] residentOf;

    /**
     * @param stop set by a signal: the mix ends at once and is marked failed
     * @param serverCpu where the server's CPU is read, at every window's edges and slices
     */
    public EventLoopEngine(BenchSettings settings, TlsConfig tls, Stop stop, ServerCpu serverCpu) {
        this(settings, tls, stop, serverCpu, Map.of());
    }

    /**
     * An engine over servers side by side: the mixes of a round name their arm ({@link Mix#on}), and a slice's
     * CPU is its arm's server's, read from {@code residents} (by arm; a server under two protocols is two arms) at
     * the slice's edges; {@code serverCpu} reads them all (the window's figures, the JIT).
     */
    public EventLoopEngine(BenchSettings settings, TlsConfig tls, Stop stop, ServerCpu serverCpu,
            Map<String, ServerCpu> residents) {
        this.settings = settings;
        this.tls = tls;
        this.stop = stop;
        this.local = settings.target().http().isLocal();
        this.serverCpu = serverCpu;
        this.armNames = List.copyOf(residents.keySet());
        this.residentOf = new int[armNames.size()];
        for (int i = 0; i < armNames.size(); i++) {
            ServerCpu cpu = residents.get(armNames.get(i));
            if (!this.residents.contains(cpu)) {
                this.residents.add(cpu);
            }
            residentOf[i] = this.residents.indexOf(cpu);
        }
    }

    @Override
    public RunRecord run(Mix mix, int clients, int repeat) throws InterruptedException {
        return run(mix, clients, repeat, settings.timing().rampUpS(), settings.timing().durationS(), settings.timing().rampDownS());
    }

    /**
     * Runs {@code mix} unmeasured for {@code seconds}: the client's hot paths are compiled by the JIT before
     * the first measured window, which would otherwise time a cold client against a warm server.
     */
    @Override
    public void warmUp(Mix mix, int clients, double seconds) throws InterruptedException {
        run(mix, clients, 0, 0, seconds, 0);
    }

    @Override
    public RunRecord slice(Mix mix, int clients, double seconds) throws InterruptedException {
        return run(mix, clients, 0, 0, seconds, 0);
    }

    @Override
    public RunRecord run(Mix mix, int clients, int repeat, double rampUpS, double windowS, double rampDownS)
            throws InterruptedException {
        Measured measured;
        try (H2Client h2 = H2Client.of(tls, settings.target())) {
            measured = run(List.of(mix), new MixControl(tls, h2, clients), clients, rampUpS, windowS, rampDownS, false);
        }
        return record(mix.name(), expectedBytes(mix), List.of(mix), repeat, measured).toBuilder().rampUpS(rampUpS).build();
    }

    /**
     * The mixes of {@code order} one after the other, a one-second slice each, under a load that does not stop between
     * them: each client draws its next request from the mix whose slice it starts in, so that the server goes from one
     * probe to the next as it would from one request to the next, and no slice begins with a server that has just been
     * idle (Jetty's first second after the load starts cost 10-20 % more than the next two, on every probe). The first
     * mix runs {@code leadInS} unmeasured before its slice.
     */
    @Override
    public LoadEngine.Round round(List<Mix> order, int clients, double leadInS, boolean readsJit)
            throws InterruptedException {
        Measured measured;
        try (H2Client h2 = H2Client.of(tls, settings.target())) {
            List<Request[]> courses = order.stream().map(this::requests).toList();
            h2.open(courses.stream().flatMap(Arrays::stream).toList());
            MixControl control = new MixControl(tls, h2, clients, order, courses);
            measured = run(order, control, clients, leadInS, order.size() * SLICE_NANOS / 1e9, ROUND_RAMP_DOWN_S,
                    readsJit);
        }
        RunRecord whole = record("round", -1, order, 0, measured);
        return new LoadEngine.Round(whole, RunMetrics.taken(order, whole.slices(), measured.window().edges(),
                armNames, residentOf));
    }

    @Override
    public Open open(Mix mix, double rate, int maxInFlight, double seconds) throws InterruptedException {
        double before = serverCpu.read().serverS();
        OpenStats stats = OpenLoop.run(OpenPlan.of(mix, settings, rate, maxInFlight, seconds), tls, stop);
        double cpuS = serverCpu.read().serverS() - before;
        return new Open(stats.figures(mix.name(), cpuS), cpuS, stats.latencyCopy(), null);
    }

    @Override
    public LoadEngine.Round openRound(List<Mix> order, double rate, double leadInS, boolean readsJit)
            throws InterruptedException {
        int[] copy = residentOf.clone();
        return new OpenRound(settings, tls, stop, serverCpu, List.copyOf(residents), armNames, copy)
                .run(order, rate, leadInS, readsJit);
    }

    /** What one run measured: its loops and their counts, the watch over it and the window's edges. */
    private record Measured(Loops loops, MixWatch watch, Window window) {
    }

    private Measured run(List<Mix> mixes, MixControl control, int clients, double rampUpS, double windowS,
            double rampDownS, boolean readsJit) throws InterruptedException {
        Loops loops = startLoops(mixes.get(0), clients, control);
        long windowStart = System.nanoTime() + nanos(rampUpS);
        long windowEnd = windowStart + nanos(windowS);
        Schedule schedule = new Schedule(windowStart, windowEnd, windowEnd + nanos(rampDownS));
        MixWatch watch = new MixWatch(loops.stats(), stop, settings.server().pids());
        control.start(schedule);
        Window window = measure(watch, schedule, control, readsJit);
        control.stop();
        for (Thread thread : loops.threads()) {
            thread.join(settings.target().timeoutMillis() + 5_000L);
        }
        return new Measured(loops, watch, window);
    }

    /** The loops of one mix, their threads (started, each loop ready) and the clients' counters. */
    private record Loops(List<EventLoop> loops, List<Thread> threads, List<ClientCounts> counts, List<LoopStats> stats) {
    }

    private Loops startLoops(Mix mix, int clients, MixControl control) throws InterruptedException {
        Request[] requests = requests(mix);
        int loopCount = loopCount(clients);
        CountDownLatch ready = new CountDownLatch(loopCount);
        List<EventLoop> loops = new ArrayList<>(loopCount);
        List<Thread> threads = new ArrayList<>(loopCount);
        for (int k = 0; k < loopCount; k++) {
            EventLoop loop = new EventLoop(control, ready, settings.target().timeoutMillis());
            loops.add(loop);
            Thread thread = new Thread(loop, "spice-loop-" + k);
            thread.setDaemon(true);   // a stuck loop must not keep the JVM alive after the results are written
            threads.add(thread);
        }
        List<ClientCounts> counts = new ArrayList<>(clients);
        for (int i = 0; i < clients; i++) {
            ClientCounts c = new ClientCounts();
            counts.add(c);
            EventLoop loop = loops.get(i % loopCount);
            loop.add(new LoopClient(mix, requests, c, settings.runner().seed() + i, control, loop, settings));
        }
        threads.forEach(Thread::start);
        ready.await();
        return new Loops(loops, threads, counts, loops.stream().map(EventLoop::stats).toList());
    }

    /** What the window gave: why it ended early (null if it did not), until when it was measured, the CPU at its edges. */
    private record Window(Failure reason, long start, long measuredUntil, List<CpuReading> edges, KernelCounters kernel) {
    }

    /**
     * Waits out the ramp-up, the window (reading the CPU at each slice's edges) and the ramp-down: the load stays on
     * until every client has ended the last request it started in the window, so that each ends under the load it
     * started in, and no longer (at most the ramp-down): a window at 64 clients has its last request back within some
     * 20 ms, CGI's within a few hundred.
     */
    private Window measure(MixWatch watch, Schedule schedule, MixControl control, boolean readsJit)
            throws InterruptedException {
        Failure reason = watch.until(schedule.windowStart());
        if (reason != null) {
            return new Window(reason, schedule.windowStart(), schedule.windowStart(), List.of(), KernelCounters.NONE);
        }
        List<CpuReading> edges = new ArrayList<>();
        edges.add(CpuReading.now(serverCpu, readsJit, residents));
        // The kernel's counters at the window's two edges only (a scan of every thread's status: too slow per slice).
        KernelCounters kernel0 = KernelCounters.read(local ? settings.server().pids() : List.of());
        for (long edge = schedule.windowStart() + SLICE_NANOS; reason == null; edge += SLICE_NANOS) {
            long until = Math.min(edge, schedule.windowEnd());
            reason = watch.until(until);
            edges.add(CpuReading.now(serverCpu, readsJit, residents));
            if (until == schedule.windowEnd()) {
                break;
            }
        }
        KernelCounters kernel = local ? KernelCounters.read(settings.server().pids()).since(kernel0) : KernelCounters.NONE;
        long measuredUntil = Math.min(System.nanoTime(), schedule.windowEnd());
        if (reason == null) {
            // the window is complete; a failure in the ramp-down does not spoil it, a signal does
            Failure late = watch.until(schedule.stopAt(), control.inWindow());
            reason = late != null && stop.requested() ? late : null;
        }
        return new Window(reason, schedule.windowStart(), measuredUntil, edges, kernel);
    }

    /** The mix's record: over the time the server answered if it died, failed if the engine set the pace. */
    private RunRecord record(String name, long expectedBytes, List<Mix> mixes, int repeat, Measured measured) {
        Loops loops = measured.loops();
        MixWatch watch = measured.watch();
        Window window = measured.window();
        Failure reason = window.reason();
        boolean gone = watch.serverGone();
        if (reason == null && loops.stats().stream().anyMatch(LoopStats::anyErrors)) {
            String down = Endpoint.firstUnreachable(settings.target().endpoints(mixes), settings.target().timeoutMillis());
            if (down != null) {
                reason = Failure.of(Failure.Kind.SERVER_DOWN, "the server stopped answering during this mix: " + down);
                gone = true;
            }
        }
        long measuredUntil = window.measuredUntil();
        if (reason != null && gone) {
            // the server died: the rate is over the time it answered, not the nominal window
            measuredUntil = Math.max(window.start(), Math.min(measuredUntil, lastSuccess(loops.stats())));
        }
        double durationS = (measuredUntil - window.start()) / 1e9;
        List<CpuReading> edges = window.edges();
        Cpu cpu = edges.size() < 2 ? Cpu.NONE : edges.get(edges.size() - 1).since(edges.get(0));
        RunRecord record = RunMetrics.build(name, repeat, loops.counts(), loops.stats(), durationS,
                expectedBytes, cpu, reason).toBuilder().slices(RunMetrics.slices(loops.stats(), edges, window.start()))
                .kernel(window.kernel()).build();
        if (reason == null && record.requests() == 0) {
            return record.withFailure(Failure.of(Failure.Kind.NO_ANSWER,
                    "no request succeeded in the window (" + record.errorTotal() + " errors)"));
        }
        double busy = loops.loops().stream().mapToDouble(EventLoop::busy).min().orElse(Double.NaN);
        Failure engineBound = engineBound(record, busy);
        return reason == null && engineBound != null ? record.withFailure(engineBound) : record;
    }

    /**
     * Why the engine, not the server, set the pace of a mix, or null: its event loops were on the CPU for
     * the whole window (their thread time over the window's length, the least busy loop's) and the process
     * used about a core, while Little's law over every request, failed ones too (their latency taken as
     * the successes' mean), says most clients were not in a request.
     */
    static Failure engineBound(RunRecord record, double loopBusy) {
        if (record.requests() == 0 || !record.clientSaturated() || !(loopBusy >= ENGINE_BUSY)) {
            return null;
        }
        double little = SpiceFigures.littleRatio(record.clients(),
                (record.requests() + record.errorTotal()) / record.durationS(), record.latency().meanMs());
        if (!(little < ENGINE_BOUND_LITTLE)) {
            return null;
        }
        return Failure.of(Failure.Kind.ENGINE_BOUND, String.format(Locale.ROOT, "engine-bound: the client's event loops"
                + " were busy %.0f %% of the window and kept only %.0f %% of the %d clients in a request (Little's law"
                + " %.2f); the rate measures the engine, not the server", 100 * Math.min(1, loopBusy), 100 * little,
                record.clients(), little));
    }

    /** The name of the engine in results.json. */
    public static final String EVENT_LOOP = Runner.Engine.EVENT_LOOP.toString();

    /**
     * How many selector threads: two where there are two cores, as wrk's default, each serving many clients. One per
     * two cores held the engine to 0.76 × wrk -t2's rate on Tomcat's servlet at 8 clients on 2 cores (0.89 × wrk
     * -t1's); two loops reached 1.23 × one loop's rate at the same client CPU per request (41-58 µs), 0.92 × wrk's.
     */
    static int loopCount(int clients) {
        int cores = Runtime.getRuntime().availableProcessors();
        return Math.max(1, Math.min(clients, Math.min(2, cores)));
    }

    /** The size every response of the mix must have, or -1 if its entries differ. */
    long expectedBytes(Mix mix) {
        long[] sizes = mix.entries().stream().mapToLong(e -> e.bytes() >= 0 ? e.bytes() : settings.load().bytes())
                .distinct().toArray();
        return sizes.length == 1 ? sizes[0] : -1;
    }

    private Request[] requests(Mix mix) {
        return requests(mix, settings);
    }

    /** Each entry of {@code mix} as the request it sends, to its target, as the settings say. */
    static Request[] requests(Mix mix, BenchSettings settings) {
        Request[] requests = new Request[mix.entries().size()];
        for (int i = 0; i < requests.length; i++) {
            MixEntry entry = mix.entries().get(i);
            Endpoint plain = mix.target() != null ? mix.target() : settings.target().http();
            boolean keepAlive = mix.target() != null ? mix.keepAlive() : settings.target().keepAlive();
            long bytes = entry.bytes() >= 0 ? entry.bytes() : settings.load().bytes();
            requests[i] = mix.http2() ? Request.h2(plain, entry.path(), bytes)
                    : Request.get(entry.tls() ? settings.target().https() : plain, entry.path(), keepAlive, bytes);
        }
        return requests;
    }

    private static long lastSuccess(List<LoopStats> stats) {
        return stats.stream().mapToLong(LoopStats::lastSuccessAt).filter(t -> t != 0).max().orElse(Long.MIN_VALUE);
    }

    private static long nanos(double seconds) {
        return (long) (seconds * 1e9);
    }
}
