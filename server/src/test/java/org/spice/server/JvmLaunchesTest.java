package org.spice.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A one-server bench starts the JVMs it needs and no more: its own, and at most one to learn the java's version where
 * its JDK has no release file to read it from (a java that is a script, as here), besides the embedded server's. The
 * server's life cycle runs in the bench's JVM (org.spice.servers), each server's launcher included: before 2026-12-06 a bench started twelve (a version check and a parse for each of start, urls,
 * pids, cgroup and stop). A {@code java} first on the PATH writes a line per start, then runs this JVM's java.
 */
class JvmLaunchesTest {

    @TempDir
    Path dir;

    @Test
    void aOneServerBenchStartsAtMostTwoJvmsBesidesTheServers() throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path log = dir.resolve("launches.log");
        Path java = bin.resolve("java");
        Files.writeString(java, "#!/bin/sh\necho \"$*\" >> '" + log + "'\nexec '"
                + Path.of(System.getProperty("java.home"), "bin", "java") + "' \"$@\"\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        Exec ran = Exec.run(null, Map.of("PATH", bin + ":" + System.getenv("PATH")), 300, List.of("bash",
                Exec.SPICE.toString(), "bench", "--probes", "static", "--clients", "2", "--warm-up", "1", "--cpu-time", "4",
                "--duration", "0.5", "--ramp-up", "0.2", "--ramp-down", "0.1", "--out", dir.resolve("out").toString()));
        assertEquals(0, ran.status(), ran.out());
        List<String> launches = Files.readAllLines(log).stream().filter(l -> !l.contains("spice-server.jar")).toList();
        System.out.println("JVMs a one-server bench started: " + launches.size() + " " + launches);
        assertTrue(launches.stream().anyMatch(l -> l.contains(" bench ")), "the bench's own: " + launches);
        assertTrue(launches.size() <= 2, "a one-server bench started " + launches.size() + " JVMs: " + launches);
    }
}
