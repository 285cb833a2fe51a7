package org.spice.agent;

import java.io.IOException;

import org.spice.bench.proc.Cgroup;

import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;

/**
 * One cgroup's CPU seconds for Prometheus, read from the kernel at each scrape, so that bench reads a server on another
 * machine at its slices' edges as it reads a local server's cgroup (CGI programs reaped by anyone included). No
 * well-kept exporter reads a cgroup when scraped (cAdvisor reads on its own housekeeping interval), so this one is
 * Prometheus' Java client with a collector of one counter.
 */
public final class CgroupExporter {

    /** The metric's name; the text format adds {@code _total} to a counter's. */
    public static final String METRIC = "spice_cgroup_cpu_seconds";

    private CgroupExporter() {
    }

    /** Serves {@code cgroup}'s CPU seconds at http://HOST:PORT/metrics, read at each scrape, until closed. */
    public static HTTPServer serve(String host, int port, Cgroup cgroup) throws IOException {
        PrometheusRegistry registry = new PrometheusRegistry();
        String path = cgroup.dir().toString();
        registry.register(() -> CounterSnapshot.builder().name(METRIC)
                .help("CPU seconds of every process in the cgroup, each once, read from the kernel at this scrape")
                .dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().labels(Labels.of("cgroup", path))
                        .value(cgroup.cpuSeconds()).build())
                .build());
        return HTTPServer.builder().hostname(host).port(port).registry(registry).buildAndStart();
    }
}
