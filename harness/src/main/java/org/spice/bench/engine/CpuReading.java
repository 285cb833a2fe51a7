package org.spice.bench.engine;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.spice.bench.model.Cpu;
import org.spice.bench.proc.CpuMeter;
import org.spice.bench.proc.JitCpu;
import org.spice.bench.proc.ServerCpu;

/**
 * The CPU counters at one instant: this process's, the server's processes', the server's machine's busy time, as
 * {@link ServerCpu} reads them (from /proc here, or from the exporters on the server's machine; never this
 * machine's for a server elsewhere), and the CPU of the server's JIT compiler threads where asked (else null).
 */
record CpuReading(long at, double clientS, double serverS, double machineS, boolean machineHasClient,
        JitCpu.Reading jit, double[] residentsS, double stealS) {

    /** The threads that scrape residents' exporters at an edge, all at once. */
    private static final ExecutorService SCRAPES = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "spice-scrape");
        thread.setDaemon(true);
        return thread;
    });

    /** The counters now, the JIT's not read. */
    static CpuReading now(ServerCpu cpu) {
        return now(cpu, false);
    }

    /** The counters now, the server's JIT compiler threads too when {@code readsJit}. */
    static CpuReading now(ServerCpu cpu, boolean readsJit) {
        return now(cpu, readsJit, List.of());
    }

    /**
     * The counters now, the server's JIT compiler threads too when {@code readsJit}, and each of the servers
     * side by side ({@code residents}, in order: their CPU seconds in {@link #residentsS}). This machine's steal time
     * is read where its CPU is the server's too: a JVM read here ({@code readsJit}), or residents on this machine.
     */
    static CpuReading now(ServerCpu cpu, boolean readsJit, Collection<ServerCpu> residents) {
        long at = System.nanoTime();
        double client = CpuMeter.processCpuNanos() / 1e9;
        ServerCpu.Reading server = cpu.read();
        // a resident read from its exporters waits for their slowest scrape (30-100 ms): read each such on its own
        // thread, so that every resident's counter is of the same instant, the edge's, not one after another's scrape
        List<CompletableFuture<Double>> reads = residents.stream().map(r -> r.fromExporters()
                ? CompletableFuture.supplyAsync(() -> r.read().serverS(), SCRAPES)
                : CompletableFuture.completedFuture(r.read().serverS())).toList();
        double[] each = reads.stream().mapToDouble(CompletableFuture::join).toArray();
        // this machine's steal is the servers' only where they run here (deployments elsewhere: not read, not theirs)
        boolean stealIsTheirs = readsJit || !residents.isEmpty() && cpu.machineHasClient();
        return new CpuReading(at, client, server.serverS(), server.machineS(), cpu.machineHasClient(),
                readsJit ? cpu.jit() : null, each, stealIsTheirs ? CpuMeter.machineStealSeconds() : Double.NaN);
    }

    /** Resident server {@code i}'s CPU seconds from {@code earlier}: NaN where not read, or where it went down. */
    double residentSince(CpuReading earlier, int i) {
        double s = i < residentsS.length && i < earlier.residentsS.length ? residentsS[i] - earlier.residentsS[i]
                : Double.NaN;
        return s < 0 ? Double.NaN : s;
    }

    /** This machine's steal time from {@code earlier}, seconds; NaN where not read. */
    double stealSince(CpuReading earlier) {
        return stealS - earlier.stealS;
    }

    /** The JIT compiler threads' CPU seconds from {@code earlier}; NaN where they were not read. */
    double jitSince(CpuReading earlier) {
        return jit == null || earlier.jit == null ? Double.NaN : jit.secondsSince(earlier.jit);
    }

    /**
     * The CPU from {@code earlier} to this reading; the machine's less the client's own where it is in it. A
     * server's time that went down (a process of its tree left it unreaped by any process counted: httpd's
     * children stopped in a flood) is no figure at all, NaN, never a negative one.
     */
    Cpu since(CpuReading earlier) {
        double client = clientS - earlier.clientS;
        double server = serverS - earlier.serverS;
        return new Cpu(client, server < 0 ? Double.NaN : server,
                machineS - earlier.machineS - (machineHasClient ? client : 0));
    }
}
