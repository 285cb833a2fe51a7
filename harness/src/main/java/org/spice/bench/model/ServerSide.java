package org.spice.bench.model;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;

import org.spice.bench.figures.SpiceFigures;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The server's side: its name (--server), where its CPU is read (its processes, --server-pid; its cgroup here,
 * --server-cgroup; the Prometheus exporters on its machine, --server-metrics), and whether it is pinned (--pin).
 *
 * @param pids    the server's processes (e.g. httpd and the Tomcat behind it): their trees' CPU is the server's
 * @param metrics the Prometheus exporters on the server's machine, where its CPU is read instead of /proc
 * @param cgroup  the server's cgroup on this machine, whose CPU is the server's (every process it started), or null
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ServerSide(@JsonIgnore String name,
        @JsonProperty("server_pid") @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Long> pids,
        @JsonProperty("server_metrics") @JsonInclude(JsonInclude.Include.NON_EMPTY) List<URI> metrics,
        @JsonIgnore Path cgroup, @JsonIgnore boolean pin) {

    /** A server known by name only: its CPU not read. */
    public static ServerSide named(String name) {
        return new ServerSide(name, List.of(), List.of(), null, false);
    }

    public ServerSide {
        pids = List.copyOf(pids);
        metrics = List.copyOf(metrics);
    }

    /** This side with {@code value} as the server's processes. */
    public ServerSide withPids(List<Long> value) {
        return new ServerSide(name, value, metrics, cgroup, pin);
    }

    /** Where this run reads the server's CPU. */
    public CpuFrom cpuFrom() {
        return CpuFrom.of(!metrics.isEmpty(), cgroup != null);
    }

    /** The CPU figure that stands for {@code workload}'s cost in this run (see {@link CpuFrom#sourceFor}). */
    public SpiceFigures.CpuSource cpuSource(String workload) {
        return cpuFrom().sourceFor(name, workload);
    }

    @JsonProperty("server_cgroup")
    String recordedCgroup() {
        return cgroup == null ? null : cgroup.toString();
    }
}
