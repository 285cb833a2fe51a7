package org.spice.bench.stats;

import java.util.Map;

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
 */
public record RunRecord(String probe, int clients, int repeat, boolean failed, String reason, double durationS,
        long requests, Map<String, Long> errors, Map<String, Long> statusCodes, long headerBytes, long bodyBytes,
        long expectedBodyBytes, LatencySummary latency, long[] clientRequests, double[] clientMeanMs,
        long[] clientErrors, double clientCpuS, double serverCpuS, double machineCpuS, long completedAfterWindow,
        long serverKeptOpen,
        long reconnects) {

    /** Client CPU (in cores) from which the engine warns that it may be the bottleneck. */
    public static final double SATURATED_CORES = 0.9;

    public long errorTotal() {
        return errors.values().stream().mapToLong(Long::longValue).sum();
    }

    public double rateRps() {
        return durationS > 0 ? requests / durationS : Double.NaN;
    }

    /** Body bytes per second: the throughput of the white paper, which carried no headers. */
    public double throughputBytesS() {
        return durationS > 0 ? bodyBytes / durationS : Double.NaN;
    }

    /** Mean body bytes per counted response; a wrong size is an error, so this must equal the expected size. */
    public double bytesPerResponse() {
        return requests > 0 ? bodyBytes / (double) requests : Double.NaN;
    }

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

    public double littleRatio() {
        return SpiceFigures.littleRatio(clients, rateRps(), latency.meanMs());
    }

    public double clientCpuUsPerReq() {
        return requests > 0 ? clientCpuS * 1e6 / requests : Double.NaN;
    }

    /** Client CPU as cores busy over the window: about 1 or more means the client, not the server, may be the limit. */
    public double clientCpuCores() {
        return durationS > 0 ? clientCpuS / durationS : Double.NaN;
    }

    /** True when the client used about a core or more: its numbers may show the client's limit, not the server's. */
    public boolean clientSaturated() {
        return clientCpuCores() >= SATURATED_CORES;
    }

    public double serverCpuUsPerReq() {
        return requests > 0 && !Double.isNaN(serverCpuS) ? serverCpuS * 1e6 / requests : Double.NaN;
    }

    public double machineCpuUsPerReq() {
        return requests > 0 && !Double.isNaN(machineCpuS) ? machineCpuS * 1e6 / requests : Double.NaN;
    }

    public double serverCpuCores() {
        return durationS > 0 && !Double.isNaN(serverCpuS) ? serverCpuS / durationS : Double.NaN;
    }

    /** The same measurement, marked failed: what was measured is kept, the reason says why it does not count. */
    public RunRecord withFailure(String why) {
        return new RunRecord(probe, clients, repeat, true, why, durationS, requests, errors, statusCodes, headerBytes,
                bodyBytes, expectedBodyBytes, latency, clientRequests, clientMeanMs, clientErrors, clientCpuS, serverCpuS, machineCpuS,
                completedAfterWindow, serverKeptOpen, reconnects);
    }

    /** The point the SPICE figures need. */
    public SpiceFigures.Point point() {
        return new SpiceFigures.Point(clients, rateRps(), latency.meanMs(), fairnessJain(), serverCpuUsPerReq(),
                machineCpuUsPerReq(), failed || requests == 0);
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
