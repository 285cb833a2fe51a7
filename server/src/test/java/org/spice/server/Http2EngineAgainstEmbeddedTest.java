package org.spice.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.sun.net.httpserver.HttpServer;

import org.junit.jupiter.api.Test;
import org.spice.bench.engine.EventLoopEngine;
import org.spice.bench.mix.Mix;
import org.spice.bench.mix.MixEntry;
import org.spice.bench.model.BenchSettings;
import org.spice.bench.model.CpuSlice;
import org.spice.bench.model.LoadEngine;
import org.spice.bench.model.Stop;
import org.spice.bench.net.Endpoint;
import org.spice.bench.proc.ServerCpu;
import org.spice.commands.BenchCommand;
import org.spice.page.CanonicalPage;
import org.spice.page.Probe;

/**
 * The engine's HTTP/2 arms against the embedded server (h2c with prior knowledge on its HTTP port, as Tomcat's
 * Http2Protocol takes it): in one round beside an HTTP/1.1 keep-alive arm, closed loop and open loop, every request of
 * an HTTP/2 arm goes as a stream and is answered with the whole page; a stream whose body is not the size the request
 * expects, and a port nobody listens on, count as failures and end the round on time.
 */
class Http2EngineAgainstEmbeddedTest extends StartedEmbeddedTomcat {

    private static final String KEPT = "embedded:keepalive";
    private static final String H2C = "embedded:h2c";

    @Test
    void everyRequestOfAnHttp2ArmIsAStreamAnsweredWithThePage() throws Exception {
        Endpoint base = Endpoint.parse(server.baseUrl());
        EventLoopEngine engine = engine(base, List.of(KEPT, H2C));
        List<Mix> order = List.of(Mix.of(Probe.STATIC).on(KEPT, base, true), Mix.of(Probe.STATIC).onHttp2(H2C, base),
                Mix.of(Probe.SERVLET).onHttp2(H2C, base));
        engine.warmUp(order.get(1), 8, 3);
        LoadEngine.Round closed = engine.round(order, 8, 0.5, false);
        for (CpuSlice slice : closed.slices()) {
            assertEquals(0, slice.errors(), slice + "\n" + closed.whole());
            assertTrue(slice.requests() > 100, "closed loop, 8 clients, a second: " + slice);
        }
        LoadEngine.Round open = engine.openRound(order, 1000, 0.5, false);
        for (CpuSlice slice : open.slices()) {
            assertEquals(0, slice.errors(), slice.toString());
            // the requests due in the slice, all answered (the slice's edges are read to a millisecond or two)
            assertEquals(1000, slice.requests(), 2, "open loop at 1,000 req/s, a second: " + slice);
        }
    }

    /**
     * A body of another size than the request expects, a port nobody listens on, and a server that speaks HTTP/1 only
     * (the JDK's, serving the same page): every request due fails, at once. The last shows the arm's requests go as
     * HTTP/2, not HTTP/1, which that server would have answered.
     */
    @Test
    void aWrongBodyNoServerOrHttp1OnlyIsAFailureNotAHang() throws Exception {
        Endpoint base = Endpoint.parse(server.baseUrl());
        Mix tooShort = new Mix("short", "a test", List.of(new MixEntry(1, Probe.STATIC.path(), false, 7_000)));
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        Endpoint nobody = Endpoint.parse("http://127.0.0.1:" + closedPort);
        HttpServer http1 = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        byte[] page = CanonicalPage.built().fixed().getBytes(StandardCharsets.UTF_8);
        http1.createContext(Probe.STATIC.path(), exchange -> {
            exchange.sendResponseHeaders(200, page.length);
            exchange.getResponseBody().write(page);
            exchange.close();
        });
        http1.start();
        try {
            Endpoint http1Only = Endpoint.parse("http://127.0.0.1:" + http1.getAddress().getPort());
            EventLoopEngine engine = engine(base, List.of(H2C, "nobody:h2c", "http1:h2c", "http1:keepalive"));
            long began = System.nanoTime();
            LoadEngine.Round open = engine.openRound(List.of(tooShort.onHttp2(H2C, base),
                    Mix.of(Probe.STATIC).onHttp2("nobody:h2c", nobody), Mix.of(Probe.STATIC).onHttp2("http1:h2c",
                    http1Only), Mix.of(Probe.STATIC).on("http1:keepalive", http1Only, true)), 200, 0.5, false);
            double tookS = (System.nanoTime() - began) / 1e9;
            List<CpuSlice> slices = open.slices();
            for (CpuSlice slice : slices.subList(0, 3)) {
                assertEquals(0, slice.requests(), slice.toString());
                assertEquals(200, slice.errors(), 2, "every request due failed: " + slice);
            }
            assertEquals(200, slices.get(3).requests(), 2, "HTTP/1 to the HTTP/1 server: " + slices.get(3));
            // a lead-in, four slices and the tail: some 5 s, and no request left waiting for a timeout (10 s)
            assertTrue(tookS < 8, "the round took " + tookS + " s");
        } finally {
            http1.stop(0);
        }
    }

    private static EventLoopEngine engine(Endpoint base, List<String> arms) {
        BenchSettings settings = BenchCommand.settings("--target", base.toString(), "--no-verify");
        ServerCpu cpu = new ServerCpu(List.of(ProcessHandle.current().pid()), true, List.of(), null);
        Map<String, ServerCpu> residents = new LinkedHashMap<>();
        arms.forEach(arm -> residents.put(arm, cpu));
        return new EventLoopEngine(settings, null, new Stop(), cpu, residents);
    }
}
