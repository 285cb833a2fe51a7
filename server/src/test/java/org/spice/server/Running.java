package org.spice.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether a process runs: a zombie does not. An orphan waits as a zombie until PID 1 reaps it, which on some machines
 * takes a second or two, and {@link ProcessHandle#isAlive()} counts it alive meanwhile.
 */
final class Running {

    private Running() {
    }

    static boolean pid(long pid) {
        String stat;
        try {
            stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        } catch (IOException e) {
            return false;
        }
        String after = stat.substring(stat.lastIndexOf(')') + 2);
        return !after.startsWith("Z");
    }
}
