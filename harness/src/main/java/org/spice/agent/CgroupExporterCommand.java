package org.spice.agent;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

import org.spice.bench.proc.Cgroup;
import org.spice.cli.Cli;

import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code cgroup-exporter --listen ADDR:PORT --cgroup PATH}: the CPU of one cgroup, every process in it counted once
 * (CGI programs reaped by anyone included), in Prometheus' text format at {@code /metrics}, read from the kernel at
 * each scrape ({@code spice_cgroup_cpu_seconds_total{cgroup="PATH"}}): what {@code scripts/spice metrics-agent}
 * runs beside node_exporter and process-exporter on a server's machine, so that bench reads a server elsewhere at
 * its slices' edges as it reads a local server's cgroup. No well-kept exporter reads a cgroup when scraped (cAdvisor
 * reads on its own housekeeping interval), so this one is Prometheus' Java client with a collector of one counter.
 */
@Command(name = "cgroup-exporter", hidden = true, description = "Serves one cgroup's CPU seconds for Prometheus, read"
        + " at every scrape (scripts/spice metrics-agent runs it).")
public final class CgroupExporterCommand extends Cli.Printing implements Callable<Integer> {

    /** The metric's name; the text format adds {@code _total} to a counter's. */
    public static final String METRIC = "spice_cgroup_cpu_seconds";

    @Spec
    CommandSpec spec;

    @Option(names = "--listen", required = true, paramLabel = "ADDR:PORT", description = "Where to serve /metrics.")
    String listen;

    @Option(names = "--cgroup", required = true, paramLabel = "PATH", description = "The cgroup's directory (cgroup v2,"
            + " or v1's cpuacct).")
    Path cgroupDir;

    @Override
    public Integer call() throws IOException, InterruptedException {
        int colon = listen.lastIndexOf(':');
        int port = colon > 0 ? parsePort(listen.substring(colon + 1)) : -1;
        if (port < 1) {
            throw new ParameterException(spec.commandLine(), "--listen takes ADDR:PORT, not \"" + listen + "\"");
        }
        Cgroup cgroup;
        try {
            cgroup = Cgroup.at(cgroupDir);
        } catch (IOException e) {
            err.println("spice cgroup-exporter: " + e.getMessage());
            return 1;
        }
        HTTPServer server = serve(listen.substring(0, colon), port, cgroup);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }));
        out.println("cgroup-exporter: " + cgroup + " on http://" + listen + "/metrics");
        stopped.await();
        return 0;
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

    private static int parsePort(String text) {
        try {
            int port = Integer.parseInt(text);
            return port >= 1 && port <= 65535 ? port : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
