package org.spice.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.spice.page.Probe;
import org.spice.bench.model.Server;
import org.spice.bench.net.Endpoint;
import org.spice.commands.VerifyCommand;
import org.spice.servers.Jdks;
import org.spice.testkit.CommandRun;

/**
 * Every real server, started from conf/ by {@code scripts/spice server start}, and its variants (apache-prefork,
 * tomcat-vt, jetty-vt): verify on all its probes, what a server must refuse (verify --bad-input) and exact
 * afterwards; the base servers over HTTPS too, and every probe over HTTP/2 (h2c with its bad input, and h2 where the
 * certificate names the address). The variants and nginx once more start with --listen 127.0.0.2,
 * another address of this machine: they answer there, and nothing of theirs on 127.0.0.1 (their HTTPS is not
 * verified there: the certificate names 127.0.0.1). A -vt variant needs a JDK 21 or later: where the machine has
 * none, it is skipped and the reason said.
 */
class RealServersIT {

    /** The certificate the servers' HTTPS listeners present (the harness's Tls: made once, under run/). */
    private static final String TLS_CERT = Exec.lib("eval", "echo \"$SPICE_RUN/tls/server.pem\"").out().strip();

    /** A server started once: its row of the table, and the address it listens on. */
    record Start(Server server, String address) {
        String name() {
            return server.id() + ("127.0.0.1".equals(address) ? "" : "@" + address);
        }
    }

    static List<Start> starts() {
        List<Start> starts = new ArrayList<>();
        for (Server server : Server.values()) {
            if (server != Server.EMBEDDED) {
                starts.add(new Start(server, server.startOption().isPresent() ? "127.0.0.2" : "127.0.0.1"));
            }
        }
        starts.add(new Start(Server.NGINX, "127.0.0.2"));
        return starts;
    }

    /**
     * The starts in waves checked at once, none holding two instances of one server (they take the same ports and run
     * directory): the base servers together, as bench runs them side by side, then their variants. A check is mostly
     * waiting (a body never sent waits out the server's read timeout: httpd's 10 s, Tomcat's 20 s), so a wave takes
     * about its slowest check: 174 s one by one on 2026-12-04.
     */
    static List<List<Start>> waves(List<Start> starts) {
        List<List<Start>> waves = new ArrayList<>();
        for (Start start : starts) {
            List<Start> wave = waves.stream().filter(w -> w.stream().noneMatch(s -> s.server().base() == start.server()
                    .base())).findFirst().orElse(null);
            if (wave == null) {
                wave = new ArrayList<>();
                waves.add(wave);
            }
            wave.add(start);
        }
        return waves;
    }

    @TestFactory
    Stream<DynamicTest> everyServerFromConf() {
        List<DynamicTest> tests = new ArrayList<>();
        for (List<Start> starts : waves(starts())) {
            Wave wave = new Wave(starts);
            starts.forEach(start -> tests.add(DynamicTest.dynamicTest(start.name(), () -> wave.await(start))));
        }
        return tests.stream();
    }

    /** Starts and stops one at a time: a start copies shared files (the war, the certificate) where servers read them. */
    private static final Object STARTING = new Object();

    /** One wave's checks, all begun when the first is awaited (once the wave before has ended), each its own test. */
    private static final class Wave {
        private static ExecutorService before;
        private final List<Start> starts;
        private final Map<Start, Future<?>> running = new LinkedHashMap<>();

        Wave(List<Start> starts) {
            this.starts = starts;
        }

        void await(Start start) throws Exception {
            synchronized (Wave.class) {
                if (running.isEmpty()) {
                    if (before != null && !before.awaitTermination(10, TimeUnit.MINUTES)) {
                        throw new AssertionError("the wave before this one did not end in 10 minutes");
                    }
                    before = Executors.newFixedThreadPool(starts.size());
                    starts.forEach(s -> running.put(s, before.submit(() -> {
                        check(s);
                        return null;
                    })));
                    before.shutdown();
                }
            }
            try {
                running.get(start).get();
            } catch (ExecutionException e) {
                if (e.getCause() instanceof Exception cause) {
                    throw cause;
                }
                if (e.getCause() instanceof Error error) {
                    throw error;
                }
                throw e;
            }
        }
    }

    private static void check(Start start) throws Exception {
        Server server = start.server();
        String base = server.base().id();
        String port = Integer.toString(server.defaultPort());
        if (server.startOption().orElse("").equals("--threads=virtual")) {
            Assumptions.assumeTrue(Jdks.java21Home() != null, start.name()
                    + ": virtual threads need a JDK 21 or later, and this machine has none");
        }
        List<String> command = new ArrayList<>(List.of("server", "start", base, "--port", port, "--listen", start.address()));
        server.startOption().ifPresent(command::add);
        System.err.println("  " + start.name() + ": scripts/spice " + String.join(" ", command));
        try {
            synchronized (STARTING) {
                Exec.spice(command.toArray(String[]::new)).ok("scripts/spice " + String.join(" ", command));
            }
            String probes = server.probes().stream().map(Probe::id).collect(Collectors.joining(","));
            CommandRun verified = CommandRun.of(new VerifyCommand(), "http://" + start.address() + ":" + port, "--probes",
                    probes, "--bad-input");
            assertEquals(0, verified.status(), start.name() + ": verify --bad-input\n" + verified.console());
            Server.Ports ports = server.ports(server.defaultPort());
            int https = ports.https();
            http2(start, probes, ports);
            if (!"127.0.0.1".equals(start.address())) {
                int[] own = IntStream.of(ports.http(), https, ports.h2c()).filter(p -> p > 0).distinct().toArray();
                for (int each : own) {
                    assertTrue(listens(start.address(), each), "nothing listens on " + start.address() + ":" + each);
                    assertTrue(!listens("127.0.0.1", each), "127.0.0.1:" + each + " answers, though " + start.name()
                            + " was to listen on " + start.address() + " only");
                }
            } else {
                CommandRun secure = CommandRun.of(new VerifyCommand(), "https://127.0.0.1:" + https, "--trust-cert",
                        TLS_CERT, "--probes", "static,servlet,cgi");
                assertEquals(0, secure.status(), start.name() + ": verify over HTTPS\n" + secure.console());
            }
        } finally {
            synchronized (STARTING) {
                Exec.spice("server", "stop", base, "--port", port).ok("scripts/spice server stop " + base);
            }
        }
    }

    /**
     * Every probe over HTTP/2 in clear (h2c, prior knowledge) where the server takes it, and over h2 (TLS, ALPN) where
     * its certificate names the address; httpd on prefork, which mod_http2 cannot run on, says so.
     */
    private static void http2(Start start, String probes, Server.Ports ports) {
        String http = "http://" + start.address() + ":";
        if (ports.h2c() < 0) {
            CommandRun none = CommandRun.of(new VerifyCommand(), http + ports.http(), "--http2", "--probes", "static");
            assertEquals(1, none.status(), start.name() + ": verify --http2 where there is none\n" + none.console());
            assertTrue(none.console().contains("no HTTP/2 here"), start.name() + ": " + none.console());
            return;
        }
        CommandRun h2c = CommandRun.of(new VerifyCommand(), http + ports.h2c(), "--http2", "--probes", probes,
                "--bad-input");
        assertEquals(0, h2c.status(), start.name() + ": verify --bad-input over h2c\n" + h2c.console());
        if ("127.0.0.1".equals(start.address())) {
            CommandRun h2 = CommandRun.of(new VerifyCommand(), "https://127.0.0.1:" + ports.https(), "--trust-cert",
                    TLS_CERT, "--http2", "--probes", probes);
            assertEquals(0, h2.status(), start.name() + ": verify over h2\n" + h2.console());
        }
    }

    private static boolean listens(String address, int port) {
        return Endpoint.unreachable(new InetSocketAddress(address, port), 1000) == null;
    }
}
