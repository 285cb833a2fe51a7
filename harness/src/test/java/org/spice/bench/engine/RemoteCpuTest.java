package org.spice.bench.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.spice.bench.model.Cpu;
import org.spice.bench.proc.ServerCpu;

import com.sun.net.httpserver.HttpServer;

/**
 * For a server on another machine the machine's CPU is not read here: it would be the client's machine, and the
 * figure that counts would fall back to it. With --server-metrics it is read from the exporters on the server's
 * machine, less the exporters' own, and the client's own CPU is not taken off a machine it does not run on.
 */
@Tag("unit")
class RemoteCpuTest {

    @Test
    void theMachinesCpuIsReadOnlyWhenTheServerIsHere() throws Exception {
        ServerCpu elsewhere = new ServerCpu(List.of(), false, List.of(), null);
        CpuReading before = CpuReading.now(elsewhere);
        Thread.sleep(20);
        Cpu remote = CpuReading.now(elsewhere).since(before);
        assertTrue(Double.isNaN(remote.machineS()), "no machine figure for a server elsewhere: " + remote);
        assertTrue(Double.isNaN(remote.serverS()), "no server figure without its processes: " + remote);
        assertFalse(Double.isNaN(remote.clientS()), "the client's own CPU is still this process's");

        ServerCpu here = new ServerCpu(List.of(), true, List.of(), null);
        CpuReading start = CpuReading.now(here);
        Thread.sleep(20);
        assertFalse(Double.isNaN(CpuReading.now(here).since(start).machineS()));
    }

    /** Two scrapes of an exporter whose counters a test sets: the differences are the figures. */
    @Test
    void theExportersOnTheServersMachineGiveBothFigures() throws Exception {
        AtomicReference<String> exposed = new AtomicReference<>(exposition(100, 40, 2));
        HttpServer exporter = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        exporter.createContext("/metrics", exchange -> {
            byte[] body = exposed.get().getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        exporter.start();
        try {
            URI url = URI.create("http://127.0.0.1:" + exporter.getAddress().getPort() + "/metrics");
            ServerCpu there = new ServerCpu(List.of(), false, List.of(url), null);
            assertTrue(there.fromExporters());
            assertNull(there.check());
            CpuReading before = CpuReading.now(there);
            // the machine 3.5 s busier (idle and iowait do not count), the server 2.25 s, the exporters 0.25 s
            exposed.set(exposition(103.5, 42.25, 2.25));
            Cpu cpu = CpuReading.now(there).since(before);
            assertEquals(2.25, cpu.serverS(), 1e-9);
            assertEquals(3.5 - 0.25, cpu.machineS(), 1e-9, "the machine less the exporters, and not less this client");

            ServerCpu sameMachine = new ServerCpu(List.of(), true, List.of(url), null);
            CpuReading start = CpuReading.now(sameMachine);
            exposed.set(exposition(110, 43, 2.5));
            Cpu shared = CpuReading.now(sameMachine).since(start);
            assertEquals(6.5 - 0.25 - shared.clientS(), shared.machineS(), 1e-9, "a client on the server's machine is in its figure");

            exposed.set("# nothing SPICE reads\nup 1\n");
            assertTrue(there.check().contains("expose neither node_cpu_seconds_total nor the process group"), there.check());
        } finally {
            exporter.stop(0);
        }
        ServerCpu gone = new ServerCpu(List.of(), false, List.of(URI.create("http://127.0.0.1:1/metrics")), null);
        assertTrue(gone.check().startsWith("cannot read"), gone.check());
        assertTrue(Double.isNaN(gone.read().serverS()), "a scrape that fails is a missing figure, never a zero");
    }

    /** node_exporter's and process-exporter's lines, as they print them, with the given totals. */
    private static String exposition(double busy, double server, double exporters) {
        return "# HELP node_cpu_seconds_total Seconds the CPUs spent in each mode.\n"
                + "# TYPE node_cpu_seconds_total counter\n"
                + "node_cpu_seconds_total{cpu=\"0\",mode=\"idle\"} 1405.44\n"
                + "node_cpu_seconds_total{cpu=\"0\",mode=\"iowait\"} 9.5\n"
                + "node_cpu_seconds_total{cpu=\"0\",mode=\"system\"} " + (busy * 0.25) + "\n"
                + "node_cpu_seconds_total{cpu=\"1\",mode=\"user\"} " + (busy * 0.75) + "\n"
                + "namedprocess_namegroup_cpu_seconds_total{groupname=\"spice\",mode=\"system\"} " + (server / 2) + "\n"
                + "namedprocess_namegroup_cpu_seconds_total{groupname=\"spice\",mode=\"user\"} " + (server / 2) + "\n"
                + "namedprocess_namegroup_cpu_seconds_total{groupname=\"spice-exporters\",mode=\"user\"} " + exporters + "\n"
                + "namedprocess_namegroup_cpu_seconds_total{groupname=\"other\",mode=\"user\"} 77\n"
                + "namedprocess_namegroup_num_procs{groupname=\"spice\"} 67\n";
    }
}
