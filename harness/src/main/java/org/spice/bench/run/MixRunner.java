package org.spice.bench.run;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.spice.bench.mix.Mix;
import org.spice.bench.mix.MixEntry;
import org.spice.bench.net.HttpExchange;
import org.spice.bench.net.Request;
import org.spice.bench.net.TlsConfig;
import org.spice.bench.stats.ClientStats;
import org.spice.bench.stats.CpuMeter;
import org.spice.bench.stats.RunMetrics;
import org.spice.bench.stats.RunRecord;

/**
 * Runs one mix: N clients (on a few event-loop threads, or a thread each for mixes with TLS), a ramp-up that is not measured, the measured window, a ramp-down that
 * is not measured. All clients start together, as in WebBench. While the mix runs, the runner thread
 * watches for a dead server, so a crashed server costs seconds rather than a whole window.
 */
public final class MixRunner {

    /** With no success for this long while connections are refused, the server is taken for dead. */
    private static final long DEAD_AFTER_NANOS = TimeUnit.SECONDS.toNanos(2);
    private static final long POLL_MILLIS = 100;

    /** The phase boundaries on the System.nanoTime clock. */
    public record Schedule(long windowStart, long windowEnd, long stopAt) {
    }

    /** What the clients of one mix share: the start signal with the schedule, and the stop flag. */
    static final class Control {
        private final CountDownLatch go = new CountDownLatch(1);
        private volatile Schedule schedule;
        private volatile boolean stop;

        void start(Schedule s) {
            schedule = s;
            go.countDown();
        }

        /** Blocks until the mix starts; null if the thread was interrupted first. */
        Schedule awaitStart() {
            try {
                go.await();
                return schedule;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }

        boolean stopped() {
            return stop;
        }

        void stop() {
            stop = true;
            go.countDown();
        }
    }

    private final BenchOptions options;
    private final TlsConfig tls;
    private final AtomicBoolean interrupted;

    /** @param interrupted set by the Ctrl-C hook: the mix ends at once and is marked failed */
    public MixRunner(BenchOptions options, TlsConfig tls, AtomicBoolean interrupted) {
        this.options = options;
        this.tls = tls;
        this.interrupted = interrupted;
    }

    /** Runs {@code mix} with {@code clients} clients and returns what its window measured. */
    public RunRecord run(Mix mix, int clients, int repeat) throws InterruptedException {
        return run(mix, clients, repeat, options.rampUpS, options.durationS, options.rampDownS);
    }

    /**
     * Runs {@code mix} unmeasured for {@code seconds}: the client's hot paths are compiled by the JIT before
     * the first measured window, which would otherwise time a cold client against a warm server.
     */
    public void warmUp(Mix mix, int clients, double seconds) throws InterruptedException {
        run(mix, clients, 0, 0, seconds, 0);
    }

    private RunRecord run(Mix mix, int clients, int repeat, double rampUpS, double windowS, double rampDownS)
            throws InterruptedException {
        Request[] requests = requests(mix);
        Control control = new Control();
        List<ClientStats> stats = new ArrayList<>(clients);
        for (int i = 0; i < clients; i++) {
            stats.add(new ClientStats(options.timeoutMillis));
        }
        boolean eventLoop = EVENT_LOOP.equals(engine(options, mix));
        CountDownLatch ready = new CountDownLatch(eventLoop ? loopCount(clients) : clients);
        List<Thread> threads = eventLoop
                ? loopThreads(mix, requests, stats, control, ready)
                : clientThreads(mix, requests, stats, control, ready);
        threads.forEach(Thread::start);
        ready.await();

        long now = System.nanoTime();
        long windowStart = now + nanos(rampUpS);
        long windowEnd = windowStart + nanos(windowS);
        Schedule schedule = new Schedule(windowStart, windowEnd, windowEnd + nanos(rampDownS));
        Watch watch = new Watch(stats);
        control.start(schedule);

        String reason = watch.until(windowStart);
        double clientCpu0 = CpuMeter.processCpuNanos() / 1e9;
        double serverCpu0 = CpuMeter.treeCpuSeconds(options.serverPids);
        double machineCpu0 = CpuMeter.machineBusySeconds();
        long measuredUntil = windowStart;
        double clientCpuS = Double.NaN;
        double serverCpuS = Double.NaN;
        double machineCpuS = Double.NaN;
        if (reason == null) {
            reason = watch.until(windowEnd);
            measuredUntil = Math.min(System.nanoTime(), windowEnd);
            clientCpuS = CpuMeter.processCpuNanos() / 1e9 - clientCpu0;
            serverCpuS = CpuMeter.treeCpuSeconds(options.serverPids) - serverCpu0;
            machineCpuS = CpuMeter.machineBusySeconds() - machineCpu0 - clientCpuS;
        }
        if (reason == null) {
            reason = watch.until(schedule.stopAt());
            // the window is complete; a failure in the ramp-down does not spoil it
            if (reason != null && !interrupted.get()) {
                reason = null;
            }
        }
        control.stop();
        for (Thread thread : threads) {
            thread.join(options.timeoutMillis + 5_000L);
        }
        double durationS = (measuredUntil - windowStart) / 1e9;
        RunRecord record = RunMetrics.build(mix.name(), repeat, stats, durationS, expectedBytes(mix),
                clientCpuS, serverCpuS, machineCpuS, false, null);
        if (reason == null && record.requests() == 0) {
            reason = "no request succeeded in the window (" + record.errorTotal() + " errors)";
        }
        if (reason == null) {
            return record;
        }
        return RunMetrics.build(mix.name(), repeat, stats, durationS, expectedBytes(mix), clientCpuS, serverCpuS,
                machineCpuS, true, reason);
    }

    /** The name of the event-loop engine in results.json. */
    public static final String EVENT_LOOP = "event-loop";
    /** The name of the thread-per-client engine in results.json. */
    public static final String THREADS = "threads";

    /**
     * The engine that runs {@code mix}: the event loop unless a request of the mix goes over TLS (TLS over
     * non-blocking channels is not implemented, so those mixes keep the blocking clients) or
     * {@code --engine threads} asks for the blocking clients.
     */
    public static String engine(BenchOptions options, Mix mix) {
        boolean tls = mix.entries().stream().anyMatch(e -> e.tls() || options.target.tls());
        return tls || THREADS.equals(options.engine) ? THREADS : EVENT_LOOP;
    }

    /**
     * How many selector threads: one per two cores, at most two, since each serves many clients and the
     * server under test usually shares the machine (wrk's usual -t1 or -t2).
     */
    static int loopCount(int clients) {
        int cores = Runtime.getRuntime().availableProcessors();
        return Math.max(1, Math.min(clients, Math.min(2, cores / 2)));
    }

    private List<Thread> loopThreads(Mix mix, Request[] requests, List<ClientStats> stats, Control control,
            CountDownLatch ready) {
        int count = (int) ready.getCount();
        List<EventLoop> loops = new ArrayList<>(count);
        List<Thread> threads = new ArrayList<>(count);
        for (int k = 0; k < count; k++) {
            EventLoop loop = new EventLoop(control, ready);
            loops.add(loop);
            Thread thread = new Thread(loop, "spice-loop-" + k);
            thread.setDaemon(true);
            threads.add(thread);
        }
        for (int i = 0; i < stats.size(); i++) {
            EventLoop loop = loops.get(i % count);
            loop.add(new LoopClient(mix, requests, stats.get(i), options.seed + i, control, options, loop.selector()));
        }
        return threads;
    }

    private List<Thread> clientThreads(Mix mix, Request[] requests, List<ClientStats> stats, Control control,
            CountDownLatch ready) {
        List<Thread> threads = new ArrayList<>(stats.size());
        for (int i = 0; i < stats.size(); i++) {
            HttpExchange exchange = new HttpExchange(options.target, tls, options.timeoutMillis, options.keepAlive);
            Thread thread = new Thread(new ClientLoop(mix, requests, exchange, stats.get(i), options.seed + i, control,
                    ready), "spice-client-" + i);
            thread.setDaemon(true);   // a client stuck in a read must not keep the JVM alive after the results are written
            threads.add(thread);
        }
        return threads;
    }

    /** The size every response of the mix must have, or -1 if its entries differ. */
    long expectedBytes(Mix mix) {
        long[] sizes = mix.entries().stream().mapToLong(e -> e.bytes() >= 0 ? e.bytes() : options.bytes)
                .distinct().toArray();
        return sizes.length == 1 ? sizes[0] : -1;
    }

    private Request[] requests(Mix mix) {
        Request[] requests = new Request[mix.entries().size()];
        for (int i = 0; i < requests.length; i++) {
            MixEntry entry = mix.entries().get(i);
            requests[i] = Request.get(entry.tls() ? options.tlsTarget : options.target, entry.path(), options.keepAlive,
                    entry.bytes() >= 0 ? entry.bytes() : options.bytes);
        }
        return requests;
    }

    private static long nanos(double seconds) {
        return (long) (seconds * 1e9);
    }

    /** The runner's watch over a running mix: Ctrl-C, the server process gone, or every connection refused. */
    private final class Watch {
        private final List<ClientStats> stats;
        private long lastSuccesses = -1;
        private long lastProgress = System.nanoTime();
        private long refusalsAtProgress;

        Watch(List<ClientStats> stats) {
            this.stats = stats;
        }

        /** Sleeps until {@code deadline}; returns null, or why the mix must end now. */
        String until(long deadline) throws InterruptedException {
            while (true) {
                String reason = check();
                long left = deadline - System.nanoTime();
                if (reason != null || left <= 0) {
                    return reason;
                }
                Thread.sleep(Math.max(1, Math.min(POLL_MILLIS, TimeUnit.NANOSECONDS.toMillis(left))));
            }
        }

        private String check() {
            if (interrupted.get()) {
                return "interrupted (Ctrl-C)";
            }
            for (long pid : options.serverPids) {
                if (!CpuMeter.processExists(pid)) {
                    return "the server process " + pid + " is gone";
                }
            }
            long successes = 0;
            long refusals = 0;
            for (ClientStats s : stats) {
                successes += s.liveSuccesses();
                refusals += s.liveRefusals();
            }
            long now = System.nanoTime();
            if (successes != lastSuccesses) {
                lastSuccesses = successes;
                lastProgress = now;
                refusalsAtProgress = refusals;
                return null;
            }
            if (now - lastProgress > DEAD_AFTER_NANOS && refusals > refusalsAtProgress) {
                return "the server refused connections and answered none for "
                        + TimeUnit.NANOSECONDS.toSeconds(DEAD_AFTER_NANOS) + " s: it has stopped";
            }
            return null;
        }
    }
}
