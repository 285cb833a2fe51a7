package org.spice.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.spice.commands.CgiFloorCommand;
import org.spice.testkit.CommandRun;

/**
 * {@code spice cgi-floor} with no tool named times the checkout's: it makes cgi-c/spawn-cost and the CGI probe linked
 * statically where they are missing (make, as the build does), then starts the probe both ways, dynamic and static,
 * by fork+exec and posix_spawn. A few spawns each: this checks that it runs, not what a spawn costs.
 */
class CgiFloorTest {

    @Test
    void theCheckoutsProgramsAreMadeAndTimed() throws Exception {
        Path target = Exec.ROOT.resolve("cgi-c/target");
        assertTrue(Files.isExecutable(target.resolve("spice")), "the build made the CGI probe");
        // what cgi-floor makes itself, removed first so that it is made here (build output, made again below)
        Files.deleteIfExists(target.resolve("static/spice"));
        Files.deleteIfExists(target.resolve("spawn-cost"));
        CommandRun ran = CommandRun.of(new CgiFloorCommand(), "--spawns", "20");
        assertEquals(0, ran.status(), ran.console());
        assertTrue(Files.isExecutable(target.resolve("static/spice")) && Files.isExecutable(target.resolve("spawn-cost")),
                "made where missing: " + ran.console());
        assertTrue(ran.out().contains("spice (dynamic)") && ran.out().contains("spice (static)"), ran.out());
    }
}
