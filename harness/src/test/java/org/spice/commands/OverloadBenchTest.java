package org.spice.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.model.Overload;
import org.spice.bench.model.Results;
import org.spice.bench.model.ResultsJson;
import org.spice.bench.net.TestServer;
import org.spice.page.CanonicalPage;
import org.spice.testkit.Bound;
import org.spice.testkit.Text;

/**
 * {@code bench --profile overload} end to end against a server that answers the page but refuses with 503 whatever
 * comes beyond four requests at once: the flood's failures are the server's 503s, its retention is its rate over the
 * 1 × rate, and once the flood is over the server is back, byte for byte.
 */
@Tag("load")
class OverloadBenchTest {

    private static final int SIZE = ShortBench.SIZE;
    private static final int CAPACITY = 4;

    @AutoClose
    private TestServer server;

    @Test
    void aServerThatRefusesPastItsCapacityLosesRateAndComesBack(@TempDir Path dir) throws Exception {
        byte[] page = CanonicalPage.of(SIZE).render(CanonicalPage.FIXED_SLOT).getBytes(StandardCharsets.US_ASCII);
        AtomicInteger busy = new AtomicInteger();
        server = new TestServer((head, socket, o) -> {
            try {
                if (busy.incrementAndGet() > CAPACITY) {
                    write(o, "503 Service Unavailable", new byte[0], false);
                } else {
                    Thread.sleep(1);   // a request takes a while, so that concurrent ones overlap
                    write(o, "200 OK", page, head.startsWith("HEAD"));
                }
            } finally {
                busy.decrementAndGet();
            }
            return false;
        });
        ShortBench bench = new ShortBench();
        int status = bench.run(server, dir, "--server", "test server", "--probes", "static", "--profile", "overload",
                "--peak-clients", "2", "--multiples", "8", "--flood-timing", "0.3,1,0.1,0");
        assertEquals(0, status, bench.out() + bench.err());
        Path results;
        try (Stream<Path> files = Files.list(dir)) {
            results = files.findFirst().orElseThrow();
        }
        Results read = ResultsJson.read(results.resolve(ResultsJson.FILE));
        assertEquals(1, read.overload().size());
        Overload o = read.overload().get(0);
        assertEquals(List.of(1, 8), o.steps().stream().map(Overload.Step::multiple).toList());
        assertEquals(List.of(2, 16), o.steps().stream().map(Overload.Step::clients).toList());
        Overload.Step flood = o.steps().get(1);
        assertTrue(flood.outcomes().get("status") > 0, "the 503s past its capacity: " + flood.outcomes());
        Double retention = o.retention().get("8");
        assertNotNull(retention, "the flood counted: " + flood.excluded());
        assertEquals(flood.rateRps() / o.steps().get(0).rateRps(), retention, 1e-12);
        Bound.within("recovery after the flood, s", o.recoveredAfterS(), 0, 10, "the test server sheds the flood at"
                + " once, so the first 1 s window at 2 clients is back (the recovery's resolution is its window); 10"
                + " windows would be a server that did not recover");
        Bound.atMost("first exact answer after the flood, s", o.firstExactAnswerS(), 1, "the test server answers the"
                + " page on its first request after the flood (milliseconds); 1 s is the recovery's own window");
        String json = Files.readString(results.resolve(ResultsJson.FILE));
        assertTrue(json.contains("\"overload_retention\"") && json.contains("\"recovery\""));
        assertTrue(Text.unwrapped(bench.out()).contains("past the peak:"), bench.out());
        assertTrue(Text.unwrapped(bench.out()).contains("Past the peak on test server: static "), bench.out());
        assertTrue(Files.readString(results.resolve("report.html")).contains("id=\"overload-table\""));
    }

    private static void write(OutputStream o, String status, byte[] body, boolean head) throws IOException {
        o.write(("HTTP/1.0 " + status + "\r\nContent-Type: " + CanonicalPage.CONTENT_TYPE + "\r\nContent-Length: "
                + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        if (!head) {
            o.write(body);
        }
        o.flush();
    }
}
