package org.spice.bench.model;

import java.util.List;
import java.util.Map;

import org.spice.bench.figures.Intervals;
import org.spice.bench.figures.LatencySummary;
import org.spice.bench.figures.SpiceFigures;
import org.spice.bench.proc.KernelCounters;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * One mix of one probe: the counts measured in its window, from which every rate, ratio and per-request
 * cost is computed (the methods below), never stored separately and never typed in. results.json holds
 * both these counts and the computed figures; reading it back recomputes the figures from the counts.
 *
 * @param probe            the probe id or mix name
 * @param durationS        the measured window in seconds
 * @param requests         requests that started in the window and succeeded
 * @param errors           failed requests that started in the window, by {@code ErrorClass.id()}
 * @param statusCodes      non-200 status codes seen, by code
 * @param clientRequests   successful requests per client
 * @param clientMeanMs     mean latency per client (NaN for a client with no success)
 * @param clientErrors     failed requests per client
 * @param clientCpuS       CPU seconds used by the client process during the window
 * @param serverCpuS       CPU seconds used by the server's process tree during the window, NaN if not measured
 * @param machineCpuS      CPU seconds the whole machine was busy during the window, less the client's own: the
 *                         server's CPU on a machine that runs nothing else, including children the process tree
 *                         loses (httpd's mod_cgid ignores SIGCHLD, so the kernel drops its CGI children's times)
 * @param completedAfterWindow requests started in the window and finished in the ramp-down (counted)
 * @param serverKeptOpen   HTTP/1.0 responses after which the server did not close the connection
 * @param reconnects       keep-alive connections the server closed that had to be opened again
 * @param rampUpS          the unmeasured load before the window, seconds (the ladder's first mix at a new highest client
 *                         count has a longer one); NaN where unknown (imports, results from before it was kept)
 * @param slices           the window second by second (empty where the engine or tool does not give them, and in
 *                         results from before slices): the intervals ({@code *_ci}) come from them
 *
 * <p>In results.json (through Jackson, names in snake case) a run holds these counts and, written only,
 * the figures computed from them; {@link #fromJson} reads the counts back and ignores the figures.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"probe", "clients", "repeat", "failed", "reason", "failure_kind", "requests", "errors", "errors_by_class",
    "status_codes", "ramp_up_s", "duration_s", "rate_rps", "throughput_bytes_s", "bytes_per_response", "expected_body_bytes",
    "header_bytes_per_response", "body_bytes", "header_bytes", "latency_ms", "fairness_jain", "client_latency_spread",
    "little_ratio", "client_cpu_s", "client_cpu_cores", "client_cpu_us_per_req", "client_saturated", "server_cpu_s",
    "machine_cpu_s", "machine_cpu_us_per_req", "server_cpu_cores", "server_cpu_us_per_req", "completed_after_window",
    "server_kept_open", "reconnects", "rate_rps_ci", "mean_latency_ms_ci", "server_cpu_us_per_req_ci",
    "machine_cpu_us_per_req_ci", "server_ctx_switches_per_req", "server_page_faults_per_req", "processes_per_req",
    "server_read_bytes_per_req", "server_written_bytes_per_req", "kernel", "per_client", "slices"})
public record RunRecord(String probe, int clients, int repeat, boolean failed,
        @JsonInclude(JsonInclude.Include.NON_NULL) String reason,
        @JsonInclude(JsonInclude.Include.NON_NULL) Failure.Kind failureKind, double rampUpS, double durationS, long requests,
        @JsonProperty("errors_by_class") Map<String, Long> errors, Map<String, Long> statusCodes, long headerBytes,
        long bodyBytes, @JsonIgnore long expectedBodyBytes, @JsonProperty("latency_ms") LatencySummary latency,
        @JsonIgnore long[] clientRequests, @JsonIgnore double[] clientMeanMs, @JsonIgnore long[] clientErrors,
        double clientCpuS, double serverCpuS, double machineCpuS, long completedAfterWindow, long serverKeptOpen,
        long reconnects, List<Slice> slices, KernelCounters kernel) {

    public RunRecord {
        slices = slices == null ? List.of() : List.copyOf(slices);
        kernel = kernel == null ? KernelCounters.NONE : kernel;
    }

    /** The per-client counts and figures, as results.json nests them. */
    @JsonPropertyOrder({"requests", "errors", "rate_rps", "mean_latency_ms"})
    public record PerClient(long[] requests, long[] errors, @JsonProperty("rate_rps") double[] rateRps,
            @JsonProperty("mean_latency_ms") double[] meanLatencyMs) {
    }

    /** The spread of the clients' mean latencies, as results.json nests it. */
    public record Spread(double minMs, double maxMs, double cv) {
    }

    /** A run read from results.json: the counts by name; absent or null figures read as NaN. */
    @JsonCreator
    static RunRecord fromJson(@JsonProperty("probe") String probe, @JsonProperty("clients") int clients,
            @JsonProperty("repeat") int repeat, @JsonProperty("failed") boolean failed,
            @JsonProperty("reason") String reason, @JsonProperty("failure_kind") Failure.Kind failureKind,
            @JsonProperty("ramp_up_s") Double rampUpS, @JsonProperty("duration_s") Double durationS,
            @JsonProperty("requests") long requests, @JsonProperty("errors_by_class") Map<String, Long> errors,
            @JsonProperty("status_codes") Map<String, Long> statusCodes, @JsonProperty("header_bytes") long headerBytes,
            @JsonProperty("body_bytes") long bodyBytes, @JsonProperty("expected_body_bytes") Long expectedBodyBytes,
            @JsonProperty("latency_ms") LatencySummary latency, @JsonProperty("per_client") PerClient perClient,
            @JsonProperty("client_cpu_s") Double clientCpuS, @JsonProperty("server_cpu_s") Double serverCpuS,
            @JsonProperty("machine_cpu_s") Double machineCpuS,
            @JsonProperty("completed_after_window") long completedAfterWindow,
            @JsonProperty("server_kept_open") long serverKeptOpen, @JsonProperty("reconnects") long reconnects,
            @JsonProperty("slices") List<Slice> slices, @JsonProperty("kernel") KernelCounters kernel) {
        if (probe == null || perClient == null || latency == null) {
            throw new IllegalArgumentException("a run needs probe, latency_ms and per_client");
        }
        RunRecordBuilder b = builder(probe, clients, repeat).rampUpS(nan(rampUpS)).durationS(nan(durationS)).requests(requests)
                .errors(errors == null ? Map.of() : errors).statusCodes(statusCodes == null ? Map.of() : statusCodes)
                .bytes(headerBytes, bodyBytes).expectedBodyBytes(expectedBodyBytes == null ? -1 : expectedBodyBytes)
                .latency(latency).perClient(perClient.requests(), perClient.meanLatencyMs(), perClient.errors())
                .cpu(new Cpu(nan(clientCpuS), nan(serverCpuS), nan(machineCpuS)))
                .completedAfterWindow(completedAfterWindow).connections(serverKeptOpen, reconnects)
                .slices(slices == null ? List.of() : slices).kernel(kernel);
        return (failed ? b.failed(new Failure(failureKind != null ? failureKind : Failure.Kind.OTHER,
                reason != null ? reason : "failed")) : b).build();
    }

    private static double nan(Double value) {
        return value == null ? Double.NaN : value;
    }

    @JsonProperty("per_client")
    PerClient perClient() {
        return new PerClient(clientRequests, clientErrors, clientRates(), clientMeanMs);
    }

    @JsonProperty("expected_body_bytes")
    Long expectedBodyBytesOrNull() {
        return expectedBodyBytes >= 0 ? expectedBodyBytes : null;
    }

    @JsonProperty("client_latency_spread")
    Spread clientLatencySpread() {
        return new Spread(clientLatencyMinMs(), clientLatencyMaxMs(), clientLatencyCv());
    }

    /** Client CPU (in cores) from which the engine warns that it may be the bottleneck. */
    public static final double SATURATED_CORES = 0.9;

    @JsonProperty("errors")
    public long errorTotal() {
        return errors.values().stream().mapToLong(Long::longValue).sum();
    }

    @JsonProperty
    public double rateRps() {
        return durationS > 0 ? requests / durationS : Double.NaN;
    }

    /** Body bytes per second: the throughput of the white paper, which carried no headers. */
    @JsonProperty
    public double throughputBytesS() {
        return durationS > 0 ? bodyBytes / durationS : Double.NaN;
    }

    /** Mean body bytes per counted response; a wrong size is an error, so this must equal the expected size. */
    @JsonProperty
    public double bytesPerResponse() {
        return requests > 0 ? bodyBytes / (double) requests : Double.NaN;
    }

    @JsonProperty
    public double headerBytesPerResponse() {
        return requests > 0 ? headerBytes / (double) requests : Double.NaN;
    }

    public double[] clientRates() {
        double[] rates = new double[clientRequests.length];
        for (int i = 0; i < rates.length; i++) {
            rates[i] = durationS > 0 ? clientRequests[i] / durationS : Double.NaN;
        }
        return rates;
    }

    @JsonProperty
    public double fairnessJain() {
        return SpiceFigures.jain(clientRates());
    }

    public double clientLatencyMinMs() {
        return extreme(clientMeanMs, true);
    }

    public double clientLatencyMaxMs() {
        return extreme(clientMeanMs, false);
    }

    /** Spread of the clients' mean latencies: coefficient of variation. */
    public double clientLatencyCv() {
        return SpiceFigures.coefficientOfVariation(clientMeanMs);
    }

    @JsonProperty
    public double littleRatio() {
        return SpiceFigures.littleRatio(clients, rateRps(), latency.meanMs());
    }

    @JsonProperty
    public double clientCpuUsPerReq() {
        return requests > 0 ? clientCpuS * 1e6 / requests : Double.NaN;
    }

    /** Client CPU as cores busy over the window: about 1 or more means the client, not the server, may be the limit. */
    @JsonProperty
    public double clientCpuCores() {
        return durationS > 0 ? clientCpuS / durationS : Double.NaN;
    }

    /** True when the client used about a core or more: its numbers may show the client's limit, not the server's. */
    @JsonProperty
    public boolean clientSaturated() {
        return clientCpuCores() >= SATURATED_CORES;
    }

    @JsonProperty
    public double serverCpuUsPerReq() {
        return requests > 0 && !Double.isNaN(serverCpuS) ? serverCpuS * 1e6 / requests : Double.NaN;
    }

    @JsonProperty
    public double machineCpuUsPerReq() {
        return requests > 0 && !Double.isNaN(machineCpuS) ? machineCpuS * 1e6 / requests : Double.NaN;
    }

    @JsonProperty
    public double serverCpuCores() {
        return durationS > 0 && !Double.isNaN(serverCpuS) ? serverCpuS / durationS : Double.NaN;
    }

    /**
     * The 95 % interval's half-width of the rate, from the slices (batch means) and the drift between windows
     * ({@link Intervals#ofWindows}); NaN without two whole slices.
     */
    @JsonProperty
    public double rateRpsCi() {
        return Intervals.ofWindows(batches(Slice::rateRps));
    }

    @JsonProperty
    public double meanLatencyMsCi() {
        return Intervals.ofWindows(batches(Slice::meanLatencyMs));
    }

    @JsonProperty
    public double serverCpuUsPerReqCi() {
        return Intervals.ofWindows(batches(Slice::serverCpuUsPerReq));
    }

    @JsonProperty
    public double machineCpuUsPerReqCi() {
        return Intervals.ofWindows(batches(Slice::machineCpuUsPerReq));
    }

    /** A figure of each slice long enough to be a batch. */
    private double[] batches(java.util.function.ToDoubleFunction<Slice> figure) {
        return batches(List.of(this), figure);
    }

    private static double[] batches(List<RunRecord> runs, java.util.function.ToDoubleFunction<Slice> figure) {
        return runs.stream().flatMap(r -> r.slices.stream()).filter(s -> s.durationS() >= Slice.MIN_BATCH_S)
                .mapToDouble(figure).toArray();
    }

    /**
     * The intervals of a mix measured in a few repeats (too few to be batches themselves): every slice of every
     * repeat taken as one batch.
     */
    public static SpiceFigures.Noise pooledNoise(List<RunRecord> repeats) {
        return new SpiceFigures.Noise(Intervals.ofWindows(batches(repeats, Slice::rateRps)),
                Intervals.ofWindows(batches(repeats, Slice::meanLatencyMs)),
                Intervals.ofWindows(batches(repeats, Slice::serverCpuUsPerReq)),
                Intervals.ofWindows(batches(repeats, Slice::machineCpuUsPerReq)));
    }

    /** The same measurement, marked failed: what was measured is kept, the reason says why it does not count. */
    public RunRecord withFailure(Failure why) {
        return toBuilder().failed(why).build();
    }

    /** Why the run does not count, or null if it does. */
    public Failure failure() {
        return failed ? new Failure(failureKind, reason) : null;
    }

    /** Context switches of the server's threads per counted request (voluntary and involuntary); NaN if not read. */
    @JsonProperty
    public double serverCtxSwitchesPerReq() {
        return perRequest(kernel.voluntarySwitches() < 0 || kernel.involuntarySwitches() < 0 ? -1
                : kernel.voluntarySwitches() + kernel.involuntarySwitches());
    }

    /** Page faults of the server's processes and the children they reaped per request (minor and major). */
    @JsonProperty
    public double serverPageFaultsPerReq() {
        return perRequest(kernel.minorFaults() < 0 || kernel.majorFaults() < 0 ? -1 : kernel.minorFaults() + kernel.majorFaults());
    }

    /**
     * Processes (and threads) the machine started per request: about 0 for anything resident, one or more for a CGI
     * program (a Java server's spawn helper adds one). The client starts none during a window.
     */
    @JsonProperty
    public double processesPerReq() {
        return perRequest(kernel.forks());
    }

    /** Bytes the server's processes passed to read-like system calls per request. */
    @JsonProperty
    public double serverReadBytesPerReq() {
        return perRequest(kernel.readBytes());
    }

    /** Bytes the server's processes passed to write-like system calls per request. */
    @JsonProperty
    public double serverWrittenBytesPerReq() {
        return perRequest(kernel.writtenBytes());
    }

    private double perRequest(long count) {
        return count >= 0 && requests > 0 ? count / (double) requests : Double.NaN;
    }

    /** The CPU the window measured. */
    public Cpu cpu() {
        return new Cpu(clientCpuS, serverCpuS, machineCpuS);
    }

    /** A run of {@code probe} at {@code clients} clients: counts start at zero, CPU and figures at "not measured". */
    public static RunRecordBuilder builder(String probe, int clients, int repeat) {
        return new RunRecordBuilder(probe, clients, repeat);
    }

    public RunRecordBuilder toBuilder() {
        RunRecordBuilder b = builder(probe, clients, repeat).rampUpS(rampUpS).durationS(durationS).requests(requests).errors(errors)
                .statusCodes(statusCodes).bytes(headerBytes, bodyBytes).expectedBodyBytes(expectedBodyBytes)
                .latency(latency).perClient(clientRequests, clientMeanMs, clientErrors).cpu(cpu())
                .completedAfterWindow(completedAfterWindow).connections(serverKeptOpen, reconnects).slices(slices)
                .kernel(kernel);
        return failed ? b.failed(failure()) : b;
    }

    /** The point the SPICE figures need. */
    public SpiceFigures.Point point() {
        return point(new SpiceFigures.Noise(rateRpsCi(), meanLatencyMsCi(), serverCpuUsPerReqCi(), machineCpuUsPerReqCi()));
    }

    /** The point with the intervals given (those of several repeats' slices pooled). */
    public SpiceFigures.Point point(SpiceFigures.Noise noise) {
        return new SpiceFigures.Point(clients, rateRps(), latency.meanMs(), fairnessJain(), serverCpuUsPerReq(),
                machineCpuUsPerReq(), failed || requests == 0, noise);
    }

    private static double extreme(double[] values, boolean min) {
        double result = Double.NaN;
        for (double v : values) {
            if (!Double.isNaN(v) && (Double.isNaN(result) || (min ? v < result : v > result))) {
                result = v;
            }
        }
        return result;
    }
}
