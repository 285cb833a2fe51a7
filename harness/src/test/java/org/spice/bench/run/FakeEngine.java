package org.spice.bench.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.spice.bench.mix.Mix;
import org.spice.bench.model.Cpu;
import org.spice.bench.model.CpuSlice;
import org.spice.bench.model.Failure;
import org.spice.bench.model.LoadEngine;
import org.spice.bench.model.RunRecord;

/**
 * An engine that runs nothing: each slice's counts and CPU come from a model of a server whose CPU per request falls
 * as its rate rises, as a real one's does (wake-ups shared by fewer requests): a probe costs {@code factor} × (100 +
 * 50,000 / rate) µs a request, its factor by probe name times its server's, and closed loop each probe runs at its
 * capacity. Every round it ran is kept, for the tests to read, and every call in order ({@link #calls}: "slice static",
 * "round", "open 500", "run static 2"); a warm-up slice and a ladder step are one second at the probe's capacity.
 */
final class FakeEngine implements LoadEngine.Windowed {

    private final Map<String, Double> factor;
    private final Map<String, Double> serverFactor;
    private final Map<String, Double> capacity;
    /** Each round's parts as run: the offered rate (NaN closed loop) and the slices' arms. */
    final List<String> parts = new ArrayList<>();
    /** The open-loop part (counted from 1, over every round) whose slices the hypervisor takes 80 % of a CPU from; 0 none. */
    int stolenRound;
    /** The open-loop part (counted from 1) that ends the rounds, as a server that stopped answering would; 0 none. */
    int endingRound;
    /** Every call the phases made, in order. */
    final List<String> calls = new ArrayList<>();
    private int openCalls;

    FakeEngine(Map<String, Double> factor, Map<String, Double> serverFactor, Map<String, Double> capacity) {
        this.factor = factor;
        this.serverFactor = serverFactor;
        this.capacity = capacity;
    }

    /** The model's CPU per request of {@code mix} at {@code rps}, µs. */
    double costUs(Mix mix, double rps) {
        return factor.get(mix.name()) * serverFactor.getOrDefault(String.valueOf(mix.server()), 1.0)
                * (100 + 50_000 / rps);
    }

    @Override
    public Round round(List<Mix> order, int clients, double leadInS, boolean readsJit) {
        calls.add("round");
        parts.add("closed " + arms(order));
        return new Round(null, order.stream().map(m -> slice(m, capacity.get(m.name()), 0)).toList(), null, null);
    }

    @Override
    public Round openRound(List<Mix> order, double rate, double leadInS, boolean readsJit) {
        parts.add(String.format(java.util.Locale.ROOT, "%.0f %s", rate, arms(order)));
        calls.add(String.format(java.util.Locale.ROOT, "open %.0f", rate));
        openCalls++;
        if (openCalls == endingRound) {
            return new Round(null, List.of(), Failure.of(Failure.Kind.SERVER_DOWN, "the server stopped answering"), null);
        }
        List<CpuSlice> slices = new ArrayList<>();
        for (int i = 0; i < order.size(); i++) {
            // a jitter that differs from slice to slice and round to round, so that intervals are not zero
            slices.add(slice(order.get(i), rate, 0.002 * ((openCalls * 7 + i * 3) % 5)));
        }
        return new Round(null, slices, null, null);
    }

    /** A slice of {@code mix} at {@code rps}, the steal of the part {@link #stolenRound} names. */
    private CpuSlice slice(Mix mix, double rps, double jitter) {
        double cpuS = costUs(mix, rps) * (1 + jitter) * rps / 1e6;
        boolean stolen = stolenRound > 0 && openCalls == stolenRound;
        return new CpuSlice(mix.server(), mix.name(), Math.round(rps), 0, 1, stolen ? cpuS * 4 : cpuS,
                Double.NaN, 0.05, Double.NaN, 0.0, stolen ? 0.8 : 0.01);
    }

    private static String arms(List<Mix> order) {
        return String.join(",", order.stream().map(m -> CpuSlice.arm(m.server(), m.name())).toList());
    }

    /** {@code mix} for a second at its capacity, its CPU the model's there. */
    private RunRecord atCapacity(Mix mix, int clients, int repeat) {
        double rps = capacity.get(mix.name());
        long requests = Math.round(rps);
        return RunRecord.builder(mix.name(), clients, repeat).durationS(1).requests(requests)
                .bytes(requests * 200, requests * 6250).expectedBodyBytes(6250)
                .cpu(new Cpu(0.1, costUs(mix, rps) * requests / 1e6, Double.NaN)).build();
    }

    @Override
    public RunRecord run(Mix mix, int clients, int repeat) {
        calls.add("run " + mix.name() + " " + clients);
        return atCapacity(mix, clients, repeat);
    }

    @Override
    public void warmUp(Mix mix, int clients, double seconds) {
        throw new UnsupportedOperationException();
    }

    /** The clients past which a flood's step loses rate, as a server that turns requests away: rate × limit / clients. */
    int floodLimit = Integer.MAX_VALUE;

    /** A flood's step ("flood static 16"): {@code mix} at {@code clients} for the window, its rate past {@link #floodLimit}. */
    @Override
    public RunRecord run(Mix mix, int clients, int repeat, double rampUpS, double windowS, double rampDownS) {
        calls.add("flood " + mix.name() + " " + clients);
        double rps = capacity.get(mix.name()) * Math.min(1, (double) floodLimit / clients);
        long requests = Math.round(rps * windowS);
        return RunRecord.builder(mix.name(), clients, repeat).durationS(windowS).requests(requests)
                .bytes(requests * 200, requests * 6250).expectedBodyBytes(6250)
                .cpu(new Cpu(0.1, costUs(mix, rps) * requests / 1e6, Double.NaN)).build();
    }

    @Override
    public RunRecord slice(Mix mix, int clients, double seconds) {
        calls.add("slice " + mix.name());
        return atCapacity(mix, clients, 0);
    }

    /**
     * {@code mix} offered {@code rate} for {@code seconds}, open loop: it achieves the rate up to its capacity, and past
     * it less the further past (capacity² / rate), as an overloaded server loses time to what it cannot finish; each
     * request waits {@link #waitMs} (the p99 twice that), and the server's CPU is the model's at the rate achieved.
     */
    @Override
    public Open open(Mix mix, double rate, int maxInFlight, double seconds) {
        calls.add(String.format(java.util.Locale.ROOT, "open %s %.0f", mix.name(), rate));
        double most = capacity.get(mix.name());
        double achieved = rate <= most ? rate : most * most / rate;
        long succeeded = Math.round(achieved * seconds);
        double cpuS = costUs(mix, achieved) * achieved * seconds / 1e6;
        org.HdrHistogram.Histogram latencies = new org.HdrHistogram.Histogram(3);
        long nanos = Math.round(waitMs(mix, rate) * 1e6);
        latencies.recordValueWithCount(nanos, succeeded - succeeded / 50);
        latencies.recordValueWithCount(2 * nanos, Math.max(1, succeeded / 50));
        org.HdrHistogram.Histogram lag = new org.HdrHistogram.Histogram(3);
        lag.recordValueWithCount(100_000, Math.max(1, succeeded));   // the generator on time: 0.1 ms late
        org.spice.bench.model.OpenLoopRun run = org.spice.bench.model.OpenLoopRun.builder(mix.name(), rate, seconds)
                .requests(Math.round(rate * seconds), Math.round(rate * seconds))
                .outcomes(achieved, succeeded, 0, 0, Math.round(rate * seconds) - succeeded).latency(latencies).lag(lag, 0)
                .serverCpuS(cpuS).build();
        return new Open(run, cpuS, latencies, null);
    }

    /** The model's wait for a request of {@code mix} offered {@code rate}: its CPU per request, stretched as it nears capacity. */
    double waitMs(Mix mix, double rate) {
        double load = Math.min(0.9, rate / capacity.get(mix.name()));
        return costUs(mix, rate) / 1e3 / (1 - load);
    }
}
