package org.spice.bench.model;

import java.util.List;
import java.util.Map;

import org.spice.bench.figures.LatencySummary;
import org.spice.bench.proc.KernelCounters;

/** Builds a run by name: each engine and importer sets what it measured and leaves the rest unmeasured. */
public final class RunRecordBuilder {
    private final String probe;
    private final int clients;
    private final int repeat;
    private Failure failure;
    private double rampUpS = Double.NaN;
    private double durationS = Double.NaN;
    private long requests;
    private Map<String, Long> errors = Map.of();
    private Map<String, Long> statusCodes = Map.of();
    private long headerBytes;
    private long bodyBytes;
    private long expectedBodyBytes = -1;
    private LatencySummary latency = LatencySummary.NONE;
    private long[] clientRequests = new long[0];
    private double[] clientMeanMs = new double[0];
    private long[] clientErrors = new long[0];
    private Cpu cpu = Cpu.NONE;
    private long completedAfterWindow;
    private long serverKeptOpen;
    private long reconnects;
    private List<Slice> slices = List.of();
    private KernelCounters kernel = KernelCounters.NONE;

    RunRecordBuilder(String probe, int clients, int repeat) {
        this.probe = probe;
        this.clients = clients;
        this.repeat = repeat;
    }

    /** Marks the run failed: it is kept, and {@code why} says why it does not count. */
    public RunRecordBuilder failed(Failure why) { failure = why; return this; }
    public RunRecordBuilder rampUpS(double value) { rampUpS = value; return this; }
    public RunRecordBuilder durationS(double value) { durationS = value; return this; }
    public RunRecordBuilder requests(long value) { requests = value; return this; }
    public RunRecordBuilder errors(Map<String, Long> value) { errors = value; return this; }
    public RunRecordBuilder statusCodes(Map<String, Long> value) { statusCodes = value; return this; }
    public RunRecordBuilder bytes(long head, long body) { headerBytes = head; bodyBytes = body; return this; }
    public RunRecordBuilder expectedBodyBytes(long value) { expectedBodyBytes = value; return this; }
    public RunRecordBuilder latency(LatencySummary value) { latency = value; return this; }
    public RunRecordBuilder cpu(Cpu value) { cpu = value; return this; }
    public RunRecordBuilder completedAfterWindow(long value) { completedAfterWindow = value; return this; }
    public RunRecordBuilder slices(List<Slice> value) { slices = value; return this; }
    public RunRecordBuilder kernel(KernelCounters value) { kernel = value; return this; }

    public RunRecordBuilder perClient(long[] successes, double[] meanMs, long[] failures) {
        clientRequests = successes;
        clientMeanMs = meanMs;
        clientErrors = failures;
        return this;
    }

    public RunRecordBuilder connections(long keptOpen, long reopened) {
        serverKeptOpen = keptOpen;
        reconnects = reopened;
        return this;
    }

    public RunRecord build() {
        return new RunRecord(probe, clients, repeat, failure != null, failure == null ? null : failure.reason(),
                failure == null ? null : failure.kind(), rampUpS, durationS, requests, errors,
                statusCodes, headerBytes, bodyBytes, expectedBodyBytes, latency, clientRequests, clientMeanMs,
                clientErrors, cpu.clientS(), cpu.serverS(), cpu.machineS(), completedAfterWindow, serverKeptOpen,
                reconnects, slices, kernel);
    }
}

