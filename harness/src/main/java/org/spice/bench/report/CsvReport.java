package org.spice.bench.report;

import java.util.StringJoiner;

import org.spice.bench.model.Results;
import org.spice.bench.model.RunRecord;
import org.spice.bench.net.ErrorClass;

/** runs.csv: one row per mix, the figures of results.json flattened for a spreadsheet. */
final class CsvReport {

    private CsvReport() {
    }

    static String of(Results results) {
        StringBuilder out = new StringBuilder();
        StringJoiner head = new StringJoiner(",");
        for (String column : new String[] {"probe", "clients", "repeat", "failed", "requests", "errors", "duration_s",
            "rate_rps", "throughput_bytes_s", "bytes_per_response", "latency_mean_ms", "latency_p50_ms",
            "latency_p90_ms", "latency_p99_ms", "latency_p999_ms", "latency_max_ms", "fairness_jain",
            "client_latency_cv", "little_ratio", "client_cpu_cores", "client_cpu_us_per_req",
            "server_cpu_us_per_req", "machine_cpu_us_per_req", "server_ctx_switches_per_req", "server_page_faults_per_req",
            "processes_per_req", "server_read_bytes_per_req", "server_written_bytes_per_req"}) {
            head.add(column);
        }
        for (ErrorClass error : ErrorClass.values()) {
            head.add("errors_" + error.id());
        }
        head.add("reason");
        out.append(head).append('\n');
        for (RunRecord r : results.runs()) {
            StringJoiner row = new StringJoiner(",");
            row.add(quote(r.probe())).add(Integer.toString(r.clients())).add(Integer.toString(r.repeat()))
                    .add(Boolean.toString(r.failed())).add(Long.toString(r.requests()))
                    .add(Long.toString(r.errorTotal()));
            for (double value : new double[] {r.durationS(), r.rateRps(), r.throughputBytesS(), r.bytesPerResponse(),
                r.latency().meanMs(), r.latency().p50Ms(), r.latency().p90Ms(), r.latency().p99Ms(),
                r.latency().p999Ms(), r.latency().maxMs(), r.fairnessJain(), r.clientLatencyCv(), r.littleRatio(),
                r.clientCpuCores(), r.clientCpuUsPerReq(), r.serverCpuUsPerReq(), r.machineCpuUsPerReq(),
                r.serverCtxSwitchesPerReq(), r.serverPageFaultsPerReq(), r.processesPerReq(), r.serverReadBytesPerReq(),
                r.serverWrittenBytesPerReq()}) {
                row.add(Format.csv(value));
            }
            for (ErrorClass error : ErrorClass.values()) {
                row.add(Long.toString(r.errors().getOrDefault(error.id(), 0L)));
            }
            row.add(r.reason() == null ? "" : quote(r.reason()));
            out.append(row).append('\n');
        }
        return out.toString();
    }

    private static String quote(String text) {
        return text.contains(",") || text.contains("\"") || text.contains("\n")
                ? "\"" + text.replace("\"", "\"\"") + "\"" : text;
    }
}
