package org.spice.bench.run;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.spice.bench.figures.Counts;
import org.spice.bench.mix.Mix;
import org.spice.bench.model.BenchSettings;
import org.spice.bench.model.Failure;
import org.spice.bench.model.IdleCpu;
import org.spice.bench.model.LoadEngine;
import org.spice.bench.model.RunRecord;
import org.spice.bench.model.SteadyState;
import org.spice.bench.model.Stop;
import org.spice.bench.proc.CpuMeter;
import org.spice.bench.proc.ServerCpu;

/**
 * The warm-up phase, what comes before the ladder, so that it measures the interface and not a server still warming up: every
 * workload is run unmeasured, one-second slice after slice, until the server's CPU per request settles
 * ({@link SteadyState#RULE}) or the bound is reached (a JIT compiles what runs hot, and would otherwise be
 * charged to whichever probe came first); then the server's CPU at idle is measured, to say how much of each
 * figure is background work.
 */
final class WarmUp {

    /** Seconds of idle measurement. */
    static final double IDLE_S = 2;
    private static final double SLICE_S = 1;
    /**
     * Most clients of the warm-up: the ladder's largest count up to this, so that a server's thread pools have
     * grown to what the ladder needs (Tomcat warmed at 8 clients still spent twice its steady CPU in its first
     * window at 64).
     */
    private static final int MAX_CLIENTS = 64;
    /**
     * A Java server's warm-up lasts at least this many times {@code --warm-up} in all (1 min by default) when the
     * ladder's windows give the CPU figures: measured with single windows at 64 clients, Tomcat's CPU per request kept
     * falling by some 20 % over its first two minutes of load although its JIT had compiled what runs hot within 15 s.
     * With the CPU rounds to follow, at the warm-up's own load, the minimum is {@code --warm-up} once: what ends the
     * warm-up then is each workload's rule, its JIT quiet included ({@link SteadyState#RULE}).
     */
    static final double JVM_WARM_UP_FACTOR = 2;
    /**
     * On a JVM, a workload of JSP pages warms until each page has served this many requests times the server's
     * scale of its thresholds for the pages ({@link org.spice.bench.proc.JspCompileScale}): HotSpot's
     * Tier4InvocationThreshold, the calls after which a method is compiled by C2. Each page is a class of its own, so
     * at HotSpot's own thresholds the 100 JSP pages need 500,000 requests; before this rule, the JSP workload looked
     * steady after 100,000, and its pages' C2 compilations came in the CPU rounds, for 50 s and more (JSP at twice its
     * steady CPU in those rounds).
     */
    static final long C2_INVOCATIONS = 5_000;
    /** JMeter starts a JVM per run, so it warms the first workload for a fixed time instead, at most this. */
    private static final double FIXED_WARM_UP_S = 5;

    private final LoadEngine engine;
    private final Stop stop;
    private final PrintStream err;

    WarmUp(LoadEngine engine, Stop stop, PrintStream err) {
        this.engine = engine;
        this.stop = stop;
        this.err = err;
    }

    /**
     * The idle measurement, then every workload to steady state (an engine that runs no slices: the first workload
     * for a fixed time). Idle first, so that the ladder follows the warm-up with no gap: after 2 s of idle between
     * them, Jetty's first window cost up to 1.5 × what the warm-up's last slices had. Null, or why the run stops.
     */
    Failure run(BenchSettings settings, ServerCpu serverCpu, Recorder recorder) throws InterruptedException {
        if (settings.timing().warmUpS() <= 0) {
            return null;
        }
        // Closed loop at the CPU rounds' client count when they follow (they then run open loop at an offered rate, most
        // often lower: the warm-up settles the JIT and the pools, its CPU per request is not the rounds', docs/method.md),
        // with no gap before them (the first ladder window after a warm-up at the same count once cost Jetty 106 µs
        // against the warm-up's 64-77); else at the ladder's largest count, so that the server's pools have grown to it.
        int clients = clients(settings);
        IdleCpu idle = idle(IDLE_S, serverCpu);
        if (engine instanceof LoadEngine.Windowed windowed) {
            recorder.warmedUp(idle, steady(windowed, settings.load().mixes(), clients, settings.timing().warmUpS(), minimumS(settings),
                    serverCpu));
        } else {
            double seconds = Math.min(settings.timing().warmUpS(), FIXED_WARM_UP_S);
            err.printf(Locale.ROOT, "warm-up: %s, %d clients, %.1f s, not measured (this engine is not checked for a"
                    + " steady state)%n", settings.load().mixes().get(0).name(), clients, seconds);
            recorder.warmedUp(idle, List.of());
            engine.warmUp(settings.load().mixes().get(0), clients, seconds);
        }
        return stop.requested() ? stop.failure() : null;
    }

    /** The warm-up's clients: the CPU rounds' when they follow, else the ladder's largest count, 64 at most. */
    static int clients(BenchSettings settings) {
        return settings.cpuRoundsRun() ? settings.cpu().clients() : Math.min(MAX_CLIENTS, settings.load().maxClients());
    }

    /** The least the warm-up lasts in all: a Java server's JIT and pools need time under load whatever the rule says. */
    static double minimumS(BenchSettings settings) {
        if (!CpuMeter.anyJava(settings.server().pids())) {
            return 0;
        }
        return (settings.cpuRoundsRun() ? 1 : JVM_WARM_UP_FACTOR) * settings.timing().warmUpS();
    }

    /**
     * Every workload warmed until steady, in rounds of one slice each in the ladder's order (a server's shared code
     * paths see every workload before any is measured: warmed one after the other, Jetty's static file still cost
     * 1.8 × its steady CPU in its first window, the JIT recompiling what the other probes had changed), until
     * every workload has been steady ({@link SteadyState#RULE}) once, at most {@code boundS} seconds per workload in
     * all, and for at least {@code minS} seconds in all. A workload steady once leaves the rounds (while the minimum
     * lasts, every one runs), so that what still warms gets the load: the 100 JSP classes reach their final tier
     * only after several hundred thousand JSP requests, and shared with another probe that took JSP two minutes.
     */
    List<SteadyState> steady(LoadEngine.Windowed engine, List<Mix> mixes, int clients, double boundS, double minS,
            ServerCpu serverCpu) throws InterruptedException {
        List<List<Double>> cpu = new ArrayList<>();
        List<List<Double>> jit = new ArrayList<>();
        mixes.forEach(m -> {
            cpu.add(new ArrayList<>());
            jit.add(new ArrayList<>());
        });
        boolean readsJit = serverCpu.readsJit();
        double jspScale = readsJit ? serverCpu.jspCompileScale() : 1;
        long began = System.nanoTime();
        double budget = Math.max(boundS * mixes.size(), minS);
        boolean[] settled = new boolean[mixes.size()];
        long[] served = new long[mixes.size()];
        while (!stop.requested()) {
            double elapsed = (System.nanoTime() - began) / 1e9;
            List<Integer> warming = new ArrayList<>();
            for (int i = 0; i < mixes.size(); i++) {
                if (!settled[i] || elapsed < minS) {
                    warming.add(i);
                }
            }
            if (warming.isEmpty() || elapsed + SLICE_S * warming.size() > budget + 1e-9) {
                break;
            }
            for (int i : warming) {
                JitSlice taken = JitSlice.run(engine, serverCpu, readsJit, mixes.get(i), clients, SLICE_S);
                RunRecord slice = taken.slice();
                cpu.get(i).add(cpuUsPerReq(slice));
                jit.get(i).add(readsJit ? SteadyState.share(taken.jitS(), slice.serverCpuS()) : Double.NaN);
                served[i] += slice.requests();
                settled[i] |= SteadyState.settled(cpu.get(i)) && SteadyState.jitQuiet(jit.get(i))
                        && (!readsJit || served[i] >= jspCalls(jspScale) * mixes.get(i).jspPages());
            }
        }
        double seconds = (System.nanoTime() - began) / 1e9;
        List<SteadyState> warmed = new ArrayList<>();
        for (int i = 0; i < mixes.size(); i++) {
            warmed.add(new SteadyState(mixes.get(i).name(), seconds, settled[i], cpu.get(i), readsJit ? jit.get(i) : List.of()));
        }
        say(warmed, clients, seconds, budget, boundS);
        if (readsJit && mixes.stream().anyMatch(m -> m.jspPages() > 0)) {
            err.printf(Locale.ROOT, "warm-up: a JSP workload waits for %.0f calls a page (C2's %d × the server's"
                    + " CompileThresholdScaling for the pages, %s)%n", jspCalls(jspScale), C2_INVOCATIONS, jspScale);
        }
        return warmed;
    }

    /** The calls a JSP page waits for: C2's threshold at the server's scale, one at least. */
    static double jspCalls(double scale) {
        return Math.max(1, Math.ceil(C2_INVOCATIONS * scale));
    }

    /** Each workload's warm-up slice by slice, then the warm-up's time and whether its bound cut it short. */
    private void say(List<SteadyState> warmed, int clients, double seconds, double budget, double boundS) {
        for (SteadyState w : warmed) {
            err.printf(Locale.ROOT, "warm-up: %s at %s: %s after %d slices (server µs/request by slice: %s)%s%n",
                    w.workload(), Counts.clients(clients), w.settled() ? "steady" : "NOT steady", w.cpuUsPerReq().size(),
                    numbers(w.cpuUsPerReq(), 1, "%.0f"), w.jitShare().isEmpty() ? ""
                            : "; JIT % of the server's CPU: " + numbers(w.jitShare(), 100, "%.0f"));
        }
        boolean every = warmed.stream().allMatch(SteadyState::settled);
        err.printf(Locale.ROOT, "warm-up: %.0f s in all%s%n", seconds,
                every || stop.requested() ? "" : String.format(Locale.ROOT, ", its bound (%.0f s: --warm-up's %.0f s a"
                        + " workload) reached before every workload was steady", budget, boundS));
    }

    private static String numbers(List<Double> values, double scale, String format) {
        return String.join(" ", values.stream().map(v -> String.format(Locale.ROOT, format, scale * v)).toList());
    }

    /** The server's CPU over {@code seconds} with no load, where {@code cpu} reads it. */
    IdleCpu idle(double seconds, ServerCpu cpu) throws InterruptedException {
        double client0 = CpuMeter.processCpuNanos() / 1e9;
        ServerCpu.Reading before = cpu.read();
        double steal0 = CpuMeter.machineStealSeconds();
        long began = System.nanoTime();
        Thread.sleep((long) (seconds * 1000));
        double elapsed = (System.nanoTime() - began) / 1e9;
        double client = CpuMeter.processCpuNanos() / 1e9 - client0;
        double steal = CpuMeter.machineStealSeconds() - steal0;
        ServerCpu.Reading after = cpu.read();
        IdleCpu idle = new IdleCpu(elapsed, (after.serverS() - before.serverS()) / elapsed,
                (after.machineS() - before.machineS() - (cpu.machineHasClient() ? client : 0)) / elapsed,
                steal / elapsed);
        err.printf(Locale.ROOT, "idle: the server used %s cores (the machine less the client %s) with no load%n",
                cores(idle.serverCpuCores()), cores(idle.machineCpuCores()));
        return idle;
    }

    /** Cores to three decimals, or "not read" (no server PIDs; the machine of a server elsewhere). */
    private static String cores(double value) {
        return Double.isNaN(value) ? "not read" : String.format(Locale.ROOT, "%.3f", value);
    }

    /**
     * The server's CPU per request of a slice, or the machine's when the server's processes are not known; for a
     * server on another machine, whose CPU is not read here, the wall time per request (1 / rate): it settles as
     * the server warms.
     */
    private static double cpuUsPerReq(RunRecord slice) {
        double server = slice.serverCpuUsPerReq();
        double cpu = Double.isNaN(server) ? slice.machineCpuUsPerReq() : server;
        return Double.isNaN(cpu) && slice.rateRps() > 0 ? 1e6 / slice.rateRps() : cpu;
    }
}
