package org.spice.bench.proc;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;

/** The programs on this machine a command runs beside itself (strace, the load tools), found as a shell finds them. */
public final class Programs {

    private Programs() {
    }

    /** True when {@code program} is an executable file in one of PATH's folders (/usr/bin:/bin where PATH is unset). */
    public static boolean onPath(String program) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }
}
