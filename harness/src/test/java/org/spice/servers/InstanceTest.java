package org.spice.servers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.model.Server;

/**
 * What the life cycle reads of an instance without starting anything: its run directory (a variant's is its base's),
 * the ports it listens on, its PID files in the order a stop takes them, the row its options make it.
 */
@Tag("unit")
class InstanceTest {

    @TempDir
    Path run;

    @Test
    void aVariantRunsFromItsBasesRunDirectory() {
        Instance prefork = Instance.of(Path.of("/r"), Server.APACHE_PREFORK, 19081);
        assertEquals(Server.APACHE, prefork.server());
        assertEquals(Path.of("/r/apache-19081"), prefork.run());
        assertEquals("apache", prefork.name());
    }

    @Test
    void anInstanceListensOnItsPortsAndItsCompanions() {
        assertEquals(List.of(18080, 18440), Instance.of(run, Server.EMBEDDED, 18080).ports());
        // nginx: HTTPS, its Tomcat backend (HTTP and HTTPS), its FastCGI probe, HTTP/2 in clear on a port of its own
        assertEquals(List.of(18084, 18444, 19084, 19444, 20084, 18804), Instance.of(run, Server.NGINX, 18084).ports());
    }

    @Test
    void theServerStopsFirstThenWhatRunsBesideItThenWhatRunsBelow() throws Exception {
        for (String file : List.of("uwsgi.pid", "fcgiwrap.pid", "server.pid", "php-fpm.pid", "listen")) {
            Files.writeString(run.resolve(file), "1\n");
        }
        Files.createDirectories(run.resolve("tomcat-backend/logs"));
        Files.writeString(run.resolve("tomcat-backend/server.pid"), "2\n");
        Instance instance = new Instance(Server.NGINX, 18084, run);
        assertEquals(List.of("server.pid", "fcgiwrap.pid", "php-fpm.pid", "uwsgi.pid", "tomcat-backend/server.pid"),
                instance.pidFiles().stream().map(p -> run.relativize(p).toString()).toList());
    }

    @Test
    void aPidFileNamesItsDigitsOrNothing() throws Exception {
        Files.writeString(run.resolve("a.pid"), "4242\n");
        Files.writeString(run.resolve("b.pid"), "\n");
        assertEquals(OptionalLong.of(4242), Processes.pidIn(run.resolve("a.pid")));
        assertEquals(OptionalLong.empty(), Processes.pidIn(run.resolve("b.pid")));
        assertEquals(OptionalLong.empty(), Processes.pidIn(run.resolve("none.pid")));
        assertTrue(Processes.running(ProcessHandle.current().pid()), "this JVM runs");
    }

    @Test
    void aStartsOptionsMakeItsRow() {
        Options platform = new Options("127.0.0.1", false, "event", "platform", "auto");
        assertEquals(Server.APACHE, platform.row(Server.APACHE));
        Options prefork = platform.forServer(Server.APACHE_PREFORK);
        assertEquals("prefork", prefork.mpm());
        assertEquals(Server.APACHE_PREFORK, prefork.row(Server.APACHE));
        assertEquals(Server.TOMCAT_VT, platform.forServer(Server.TOMCAT_VT).row(Server.TOMCAT));
        assertEquals(Server.NGINX, platform.forServer(Server.NGINX).row(Server.NGINX));
        assertEquals("127.0.0.1", new Options("0.0.0.0", false, "event", "platform", "auto").localAddress());
    }
}
