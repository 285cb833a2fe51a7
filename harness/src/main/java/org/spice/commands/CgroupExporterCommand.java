package org.spice.commands;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

import org.spice.agent.CgroupExporter;
import org.spice.bench.proc.Cgroup;
import org.spice.cli.Cli;

import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code cgroup-exporter --listen ADDR:PORT --cgroup PATH}: the CPU of one cgroup, every process in it counted once
 * (CGI programs reaped by anyone included), in Prometheus' text format at {@code /metrics}, read from the kernel at
 * each scrape ({@code spice_cgroup_cpu_seconds_total{cgroup="PATH"}}): what {@code scripts/spice metrics-agent}
 * runs beside node_exporter and process-exporter on a server's machine ({@link CgroupExporter}).
 */
@Command(name = "cgroup-exporter", hidden = true, description = "Serves one cgroup's CPU seconds for Prometheus, read"
        + " at every scrape (scripts/spice metrics-agent runs it).")
public final class CgroupExporterCommand extends Cli.Printing implements Callable<Integer> {

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
        HTTPServer server = CgroupExporter.serve(listen.substring(0, colon), port, cgroup);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }));
        out.println("cgroup-exporter: " + cgroup + " on http://" + listen + "/metrics");
        stopped.await();
        return 0;
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
