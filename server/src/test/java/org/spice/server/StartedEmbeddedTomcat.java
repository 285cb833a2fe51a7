package org.spice.server;

import java.nio.file.Path;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/** Test classes that talk HTTP to the embedded default server, really started on a free port of 127.0.0.1. */
abstract class StartedEmbeddedTomcat {

    static final Path WAR = Path.of(System.getProperty("spice.war", "target/webapps/spice.war"));

    @TempDir
    static Path base;

    static EmbeddedTomcat server;

    @BeforeAll
    static void start() throws Exception {
        server = EmbeddedTomcat.start("127.0.0.1", 0, WAR, base.resolve("tomcat"));
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }
}
