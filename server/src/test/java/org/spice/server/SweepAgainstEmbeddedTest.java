package org.spice.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.model.Server;
import org.spice.bench.model.Sweep;
import org.spice.commands.SweepCommand;
import org.spice.testkit.Bound;
import org.spice.testkit.CommandRun;

/**
 * scripts/spice sweep on the embedded server, small and bounded: the project built at two page sizes (copies of the
 * sources, kept in server/target so that a run after it rebuilds only what changed), each size's own server
 * started, verified, warmed and measured, then stopped; a line per probe through the points. Not among the page's
 * tests, which the suite runs at a second size: the sweep builds its own two sizes whatever the suite's is, so a
 * second pass would measure the same two builds again.
 */
class SweepAgainstEmbeddedTest {

    /** Neither is the size the suite is built at (1,000 or 6,250 bytes): both are real builds of the copies. */
    private static final int SMALL = 2048;
    private static final int LARGE = 8192;

    @TempDir
    Path dir;

    @Test
    void aSweepBuildsEachSizeMeasuresItAndFitsALinePerProbe() throws Exception {
        CommandRun ran = CommandRun.of(new SweepCommand(), "--probes", "static,cgi", "--sizes", SMALL + "," + LARGE,
                "--clients", "4", "--warm-up", "1", "--cpu-time", "0", "--duration", "2", "--work", Path.of("target/sweep-work").toAbsolutePath()
                        .toString(), "--out", dir.resolve("sweep").toString());
        int status = ran.status();
        String printed = ran.console();
        assertEquals(0, status, printed);
        assertTrue(printed.contains("SPICE size sweep: embedded, 4 clients"), printed);

        Sweep sweep = Sweep.readIn(dir.resolve("sweep"));
        assertEquals(2, sweep.sizes().size());
        for (String probe : new String[] {"static", "cgi"}) {
            Sweep.Line line = sweep.probes().get(probe);
            assertEquals(2, line.points().size(), probe + ": a point per size");
            assertTrue(line.points().stream().allMatch(p -> p.cpuUsPerReq() > 0), probe + ": " + line.points());
            assertTrue(Double.isNaN(line.perKbUsCi()), "two sizes give a line without an interval");
        }
        // A process per request costs far more than a static file, at any size: the fixed costs say so.
        Bound.atLeast("cgi's fixed cost × static's", sweep.probes().get("cgi").fixedUs()
                / sweep.probes().get("static").fixedUs(), 3, "a process a request costs 50-60 × the static file here;"
                + " 3 × is far below any noise of a two-point line");

        // Each size measured its own build: the results say the page's size.
        for (Sweep.Size size : sweep.sizes()) {
            String results = Files.readString(Path.of(size.results()).resolve("results.json"));
            assertTrue(results.contains("\"body_bytes\" : " + size.bytes()), size.bytes() + " bytes measured");
        }
        // The size nearest 6,250 bytes has the sweep in its report.
        Path report;
        try (Stream<Path> files = Files.walk(dir.resolve("sweep/size-" + LARGE))) {
            report = files.filter(p -> p.getFileName().toString().equals("report.html")).findFirst().orElseThrow();
        }
        assertTrue(Files.readString(report).contains("<table id=\"sweep\">"), "the sweep is in " + report);
        assertTrue(Files.size(dir.resolve("sweep/sweep.png")) > 1000);
        // Each bench stopped the server it started.
        assertFalse(listening(Server.EMBEDDED.defaultPort()), "the embedded server was left running");
    }

    private static boolean listening(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
            return true;
        } catch (java.io.IOException e) {
            return false;
        }
    }
}
