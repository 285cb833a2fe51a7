package org.spice.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.proc.Cgroup;

import io.prometheus.metrics.exporter.httpserver.HTTPServer;

/** The cgroup exporter serves the cgroup's counter as the kernel has it at each scrape, not as it was at start. */
@Tag("unit")
class CgroupExporterTest {

    @TempDir
    Path dir;

    @Test
    void eachScrapeReadsTheCgroupAgain() throws Exception {
        Files.writeString(dir.resolve("cpu.stat"), "usage_usec 1500000\nuser_usec 1000000\nsystem_usec 500000\n");
        try (HTTPServer server = CgroupExporter.serve("127.0.0.1", 0, Cgroup.at(dir))) {
            URI url = URI.create("http://127.0.0.1:" + server.getPort() + "/metrics");
            assertTrue(scrape(url).contains("spice_cgroup_cpu_seconds_total{cgroup=\"" + dir + "\"} 1.5\n"),
                    scrape(url));
            Files.writeString(dir.resolve("cpu.stat"), "usage_usec 2250000\n");
            String again = scrape(url);
            assertTrue(again.contains("spice_cgroup_cpu_seconds_total{cgroup=\"" + dir + "\"} 2.25\n"), again);
            assertEquals(1, again.lines().filter(l -> l.startsWith("spice_cgroup_cpu_seconds_total")).count(), again);
        }
    }

    private static String scrape(URI url) throws Exception {
        try (var in = url.toURL().openStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
