package org.spice.servers;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.model.Server;

/**
 * As root, where the servers cannot drop to the service user they run as root, and PHP-FPM's pool must start beside
 * them: as root too (php-fpm -R), its socket the service user's, whom httpd's and nginx's workers run as. Before, php-fpm
 * refused to start ("user has not been defined"). Runs the real php-fpm.
 */
@Tag("process")
class PhpFpmAsRootTest {

    @TempDir
    Path run;

    @Test
    void phpFpmBesideServersRunningAsRoot() throws Exception {
        Assumptions.assumeTrue(Programs.root() && Runtimes.phpFpm() != null, "php-fpm as root: needs root and php-fpm");
        String name = Options.env("SPICE_SERVICE_USER", "www-data");
        Assumptions.assumeTrue(Programs.output(java.util.List.of("id", name)).ok(), "the service user " + name + " exists");
        Files.createDirectories(run.resolve("logs"));
        Files.setPosixFilePermissions(run, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        ByteArrayOutputStream said = new ByteArrayOutputStream();
        // root, and no user to drop to: the servers' fallback
        Site site = new Site(Path.of("..").toAbsolutePath().normalize(), run, new ServiceUser(name, true, false),
                new PrintStream(said, true));
        Start start = new Start(site, Instance.of(run, Server.NGINX, 18084), Options.fromEnvironment(), null);
        try {
            Runtimes.startPhpFpm(start, run);
            assertEquals(name, Files.getOwner(run.resolve("php-fpm.sock")).getName(), "php-fpm's socket's owner");
        } finally {
            OptionalLong pid = Processes.pidIn(run.resolve("php-fpm.pid"));
            if (pid.isPresent()) {
                Processes.signalGroup("KILL", pid.getAsLong());
                Processes.await(5, () -> !Processes.running(pid.getAsLong()));
            }
        }
    }
}
