package org.spice.bench.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.locks.LockSupport;

import org.spice.bench.mix.Mix;
import org.spice.bench.model.BenchSettings;
import org.spice.bench.model.CpuRounds;
import org.spice.bench.model.Failure;
import org.spice.bench.model.LoadEngine;
import org.spice.bench.model.Slice;
import org.spice.bench.model.Stop;
import org.spice.bench.net.Endpoint;
import org.spice.bench.net.Request;
import org.spice.bench.net.TlsConfig;
import org.spice.bench.proc.ServerCpu;

/**
 * A CPU round open loop ({@link LoadEngine.Windowed#openRound}): one schedule at one rate runs through the round, its
 * course changing from slice to slice ({@link OpenPlan.Slicing}), on the open loop's own thread, while this thread
 * reads the CPU at the slices' edges, which it knows because it fixed the schedule's start. Every arm of a comparison
 * is then served at the same offered rate, whatever the client or the server: at a fixed client count the rate is the
 * client's speed and the server's, and a server's CPU per request falls as its rate rises (Tomcat's servlet 64 µs at
 * 8,000 req/s, 40 at 22,500, here), so that a ratio taken at one client count carried the rates' difference.
 */
final class OpenRound {

    /** The schedule starts this long after the round is set up: the loop's thread is running by then. */
    private static final long START_NANOS = 50_000_000L;
    /** Requests under way at most when neither --rate nor --max-in-flight said otherwise. */
    static final int MAX_IN_FLIGHT = 1000;

    private final BenchSettings settings;
    private final TlsConfig tls;
    private final Stop stop;
    private final ServerCpu serverCpu;
    private final List<ServerCpu> residents;
    private final List<String> arms;
    private final int[] residentOf;

    OpenRound(BenchSettings settings, TlsConfig tls, Stop stop, ServerCpu serverCpu, List<ServerCpu> residents,
            List<String> arms, int[] residentOf) {
        this.settings = settings;
        this.tls = tls;
        this.stop = stop;
        this.serverCpu = serverCpu;
        this.residents = residents;
        this.arms = arms;
        this.residentOf = residentOf;
    }

    LoadEngine.Round run(List<Mix> order, double rate, double leadInS, boolean readsJit) throws InterruptedException {
        List<List<Request>> courses = order.stream().map(m -> List.of(EventLoopEngine.requests(m, settings))).toList();
        long lead = (long) (leadInS * 1e9);
        double durationS = leadInS + order.size() * EventLoopEngine.SLICE_NANOS / 1e9 + EventLoopEngine.ROUND_RAMP_DOWN_S;
        int inFlight = settings.open() != null ? settings.open().maxInFlight() : MAX_IN_FLIGHT;
        OpenPlan plan = new OpenPlan(courses.get(0), OpenPlan.schedule(settings, rate), durationS, inFlight,
                10 * inFlight, settings.target().timeoutMillis(), new OpenPlan.Slicing(courses, lead,
                EventLoopEngine.SLICE_NANOS));
        H2Client h2 = H2Client.of(tls, settings.target());
        try {
            h2.open(courses.stream().flatMap(List::stream).toList());
        } catch (InterruptedException e) {
            h2.close();
            throw e;
        }
        long t0 = System.nanoTime() + START_NANOS;
        CompletableFuture<OpenStats> loop = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try (h2) {
                loop.complete(OpenLoop.run(plan, tls, h2, stop, t0));
            } catch (Throwable e) {
                loop.completeExceptionally(e);
            }
        }, "spice-open-round");
        thread.setDaemon(true);
        thread.start();
        List<CpuReading> edges = new ArrayList<>();
        for (int i = 0; i <= order.size() && !stop.requested() && !loop.isDone(); i++) {
            sleepUntil(t0 + lead + i * EventLoopEngine.SLICE_NANOS);
            edges.add(CpuReading.now(serverCpu, readsJit, residents));
        }
        OpenStats stats;
        try {
            stats = loop.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("the open loop failed", e.getCause());
        }
        List<Slice> slices = new ArrayList<>();
        for (int i = 0; i + 1 < edges.size(); i++) {
            CpuReading from = edges.get(i);
            CpuReading to = edges.get(i + 1);
            slices.add(new Slice(i, (to.at() - from.at()) / 1e9, stats.sliceSucceeded(i), stats.sliceFailed(i), 0, 0,
                    to.since(from).serverS(), to.since(from).machineS()));
        }
        return new LoadEngine.Round(null, RunMetrics.taken(order, slices, edges, arms, residentOf), ends(order, stats),
                note(stats, rate));
    }

    /**
     * What the round's figures carry of the generator's, or null: its lag past {@link CpuRounds#LAG_LIMIT_MS}, or
     * drops.
     */
    static String note(OpenStats stats, double rate) {
        if (stats.lagP99Ms() <= CpuRounds.LAG_LIMIT_MS && stats.droppedShare() <= OpenStats.DROP_LIMIT) {
            return null;
        }
        return String.format(Locale.ROOT, "the open loop fell behind its schedule of %,.0f req/s: lag p99 %.0f ms, %.2f %%"
                + " dropped", rate, stats.lagP99Ms(), 100 * stats.droppedShare());
    }

    /** Why the rounds end after this one: a signal, a server process gone, or no request answered and a server down. */
    private Failure ends(List<Mix> order, OpenStats stats) {
        if (stop.requested()) {
            return stop.failure();
        }
        Failure gone = MixWatch.processGone(settings.server().pids());
        if (gone != null) {
            return gone;
        }
        String down = stats.succeeded() > 0 ? null
                : Endpoint.firstUnreachable(settings.target().endpoints(order), settings.target().timeoutMillis());
        return down == null ? null : Failure.of(Failure.Kind.SERVER_DOWN, "the server stopped answering: " + down);
    }

    private static void sleepUntil(long at) throws InterruptedException {
        for (long wait = at - System.nanoTime(); wait > 0; wait = at - System.nanoTime()) {
            LockSupport.parkNanos(wait);
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
        }
    }
}
