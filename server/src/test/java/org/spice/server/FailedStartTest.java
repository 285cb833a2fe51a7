package org.spice.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.spice.servers.Processes;
import org.spice.bench.model.Server;

/**
 * A server whose start fails stops what it started and says why. The server's port is taken by a socket bound and not
 * listening: the start's own check (a connection) finds the port free, everything beside the server starts (httpd's
 * and nginx's FastCGI program, PHP-FPM, uWSGI, fcgiwrap, their Tomcat backend), and then the server's own listen fails,
 * as with any other taker of the port. The start exits 1 with the server's own words for it ("Address already in
 * use"), and no process born during the start outlives it. Each server on its default port + {@value #SHIFT}: the
 * default ports carry the other tests' TIME_WAIT connections, to which a bind without SO_REUSEADDR (the taker's)
 * loses.
 */
class FailedStartTest {

    static final int SHIFT = 50;
    private static final Path SPICE = Path.of("../scripts/spice").toAbsolutePath().normalize();
    /** What a start of SPICE's runs, by command name: whatever of these outlives a failed start was left behind. */
    private static final Pattern STARTED = Pattern.compile(
            ".*/(apache2|httpd|nginx|java|php-fpm[0-9.]*|uwsgi(-core)?|fcgiwrap|spice-fcgi|setsid)$");

    @ParameterizedTest
    @ValueSource(strings = {"apache", "nginx", "tomcat", "jetty", "embedded"})
    void aServerThatCannotListenStopsWhatItStarted(String name) throws Exception {
        int port = Server.valueOf(name.toUpperCase(Locale.ROOT)).defaultPort() + SHIFT;
        failsLeavingNothing(name, port, port);
    }

    /**
     * What starts beside a server fails the same way: httpd's FastCGI program, nginx's Tomcat backend, each with its
     * port taken; what had started before it (PHP-FPM, uWSGI, fcgiwrap) is stopped too.
     */
    @ParameterizedTest
    @ValueSource(strings = {"apache:" + Server.FASTCGI_OFFSET, "nginx:" + Server.BACKEND_OFFSET})
    void aCompanionThatCannotListenStopsTheStart(String nameAndOffset) throws Exception {
        String name = nameAndOffset.split(":")[0];
        int port = Server.valueOf(name.toUpperCase(Locale.ROOT)).defaultPort() + SHIFT;
        failsLeavingNothing(name, port, port + Integer.parseInt(nameAndOffset.split(":")[1]));
    }

    private static void failsLeavingNothing(String name, int port, int taken) throws Exception {
        Set<Long> before = ProcessHandle.allProcesses().map(ProcessHandle::pid).collect(Collectors.toSet());
        String out;
        int status;
        long took = System.nanoTime();
        try (Socket taker = new Socket()) {
            taker.bind(new InetSocketAddress("127.0.0.1", taken));
            Process start = new ProcessBuilder("bash", SPICE.toString(), "server", "start", name, "--port",
                    Integer.toString(port)).redirectErrorStream(true).start();
            out = new String(start.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            status = start.waitFor();
        }
        took = System.nanoTime() - took;
        System.out.printf("a failed start of %s, port %d taken: exit %d in %.1f s%n", name, taken, status, took / 1e9);
        assertEquals(1, status, out);
        assertTrue(out.toLowerCase(Locale.ROOT).contains("address already in use"), "the server's own cause: " + out);
        String last = out.strip().lines().reduce((a, b) -> b).orElse("");
        assertTrue(last.startsWith("spice: " + name + " did not"), "the last line says which server: " + last);
        List<String> left = ProcessHandle.allProcesses()
                .filter(p -> !before.contains(p.pid()) && Processes.running(p.pid()))
                .filter(p -> p.info().command().map(c -> STARTED.matcher(c).matches()).orElse(false))
                .map(p -> p.pid() + " " + p.info().commandLine().orElse("?")).toList();
        assertEquals(List.of(), left, "processes the failed start left running");
    }
}
