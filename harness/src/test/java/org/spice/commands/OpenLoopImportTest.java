package org.spice.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.engine.Vegeta;
import org.spice.bench.model.OpenLoopRun;
import org.spice.bench.model.Results;
import org.spice.bench.model.ResultsJson;
import org.spice.bench.net.TestServer;
import org.spice.commands.ImportCommand;
import org.spice.testkit.Bound;
import org.spice.testkit.CommandRun;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Open-loop runs of other tools as SPICE's open_loop: vegeta's own results (a real vegeta, against a server of the
 * page's size on 127.0.0.1) give the figures vegeta reports itself, and oha's JSON of a run at a rate is taken at the
 * rate it held; a rate the tool did not keep, another probe's URL or a broken line is refused, and nothing written.
 */
@Tag("page")
class OpenLoopImportTest {

    /** The test server's page and the oha run's: 6,250 bytes, whatever size this build's probes have. */
    private static final int SIZE = 6250;
    private static final String BYTES = Integer.toString(SIZE);
    private static final String PATH = "/spice/static/spice.html";

    @AutoClose
    private TestServer server;

    private static String run(String... args) {
        CommandRun ran = CommandRun.of(new ImportCommand(), args);
        int status = ran.status();
        return status + "\n" + ran.console();
    }

    @Tag("tools")
    @Test
    void vegetasResultsGiveTheFiguresVegetaReports(@TempDir Path dir) throws Exception {
        server = new TestServer((head, socket, o) -> {
            TestServer.respond(o, 200, SIZE, SIZE);
            return false;
        });
        Path lines = dir.resolve("vegeta.json");
        JsonNode report = Vegeta.attack(Vegeta.find(), server.url() + PATH, 200, 3, lines);
        String printed = run("vegeta", "--probe", "static", "--bytes", BYTES, "--out", dir.resolve("r").toString(), lines.toString());
        assertTrue(printed.startsWith("0\n"), printed);
        Results results = ResultsJson.readResults(dir.resolve("r"));
        assertEquals(1, results.openLoop().size());
        OpenLoopRun run = results.openLoop().get(0);
        assertEquals(report.get("requests").asLong(), run.sent(), "every request vegeta made");
        assertEquals(report.get("success").asDouble(), (double) run.succeeded() / run.sent(), 1e-9);
        Bound.within("the schedule's rate from vegeta's timestamps, /s", run.offeredRps(), 198, 202, "vegeta paces"
                + " 600 requests at 200/s: (n − 1) / (last − first) is exact to its pacer's jitter (tens of µs of 5 ms)");
        assertEquals(report.get("latencies").get("50th").asDouble() / 1e6, run.p50Ms(), 0.05 * run.p50Ms());
        // vegeta's report estimates its quantiles (a t-digest): the p99 of 600 requests, the sixth-slowest, is held
        // against the requests' own order statistic instead
        double[] nanos = Files.readAllLines(lines).stream().filter(l -> !l.isBlank())
                .mapToDouble(l -> Double.parseDouble(l.replaceAll(".*\"latency\":(\\d+).*", "$1"))).sorted().toArray();
        assertEquals(nanos[(int) Math.ceil(0.99 * nanos.length) - 1] / 1e6, run.p99Ms(), 0.002 * run.p99Ms());
        assertEquals(report.get("latencies").get("max").asDouble() / 1e6, run.maxMs(), 0.002 * run.maxMs());
        assertTrue(Double.isNaN(run.generatorLagP99Ms()), "vegeta records no lag of its own, and none is made up");
        assertTrue(results.notes().stream().anyMatch(n -> n.contains("from each request's actual send")), "said");
        assertTrue(printed.contains("Open loop"), printed);

        assertTrue(run("vegeta", "--probe", "static", "--bytes", BYTES, "--rate", "200", "--into", dir.resolve("r").toString(),
                lines.toString()).startsWith("0\n"), "--rate agrees with the timestamps");
        printed = run("vegeta", "--probe", "static", "--bytes", BYTES, "--rate", "300", "--out", dir.resolve("x").toString(),
                lines.toString());
        assertTrue(printed.startsWith("1\n") && printed.contains("not --rate 300"), printed);
        printed = run("vegeta", "--probe", "servlet", "--bytes", BYTES, "--out", dir.resolve("x").toString(), lines.toString());
        assertTrue(printed.startsWith("1\n") && printed.contains("vegeta"), printed);
        Files.writeString(dir.resolve("broken.json"), Files.readString(lines).lines().limit(3)
                .reduce("", (a, b) -> a + b + "\n") + "{\"code\": 200, \"timestamp\":\n");
        printed = run("vegeta", "--probe", "static", "--bytes", BYTES, "--out", dir.resolve("x").toString(),
                dir.resolve("broken.json").toString());
        assertTrue(printed.startsWith("1\n") && printed.contains("broken.json:4: not a line of vegeta encode"), printed);
        assertFalse(Files.exists(dir.resolve("x").resolve("results.json")), "nothing written");
    }

    /** The real oha 1.16 run the closed-loop import reads (2,000 requests at 757.9 a second). */
    @Tag("unit")
    @Test
    void ohaAtARateIsTakenAtTheRateItHeld(@TempDir Path dir) throws Exception {
        Path json = Path.of(getClass().getResource("/oha-1.16-output.json").toURI());
        String printed = run("oha", "--probe", "static", "--bytes", BYTES, "--rate", "760", "--out", dir.resolve("r").toString(),
                json.toString());
        assertTrue(printed.startsWith("0\n"), printed);
        // a run at a rate alone has no ladder, and its static file did run: neither an empty ladder table nor a
        // missing baseline is said, and vegeta's and oha's lag, which they do not record, prints as none
        assertFalse(printed.contains("Request rates from the ladder"), printed);
        assertFalse(printed.contains("did not run"), printed);
        assertFalse(printed.contains("NaN"), printed);
        OpenLoopRun run = ResultsJson.readResults(dir.resolve("r")).openLoop().get(0);
        assertEquals(760, run.offeredRps());
        assertEquals(4.10496, run.p50Ms(), 1e-9);
        assertEquals(20.19066, run.p99Ms(), 1e-9);
        assertEquals(105.526945, run.p999Ms(), 1e-9);
        assertEquals(2000, run.succeeded());
        printed = run("oha", "--probe", "static", "--bytes", BYTES, "--rate", "1000", "--out", dir.resolve("x").toString(),
                json.toString());
        assertTrue(printed.startsWith("1\n") && printed.contains("not --rate 1000.0 within 5 %"), printed);
        printed = run("ab", "--probe", "static", "--rate", "100", "--out", dir.resolve("x").toString(),
                json.toString());
        assertTrue(printed.contains("--rate: ab runs a closed loop"), printed);
        printed = run("oha", "--probe", "static", "--bytes", BYTES, "--rate", "760", "--clients", "4", "--out",
                dir.resolve("x").toString(), json.toString());
        assertTrue(printed.contains("--clients: an open loop has no clients"), printed);
        printed = run("oha", "--probe", "static", "--bytes", BYTES, "--out", dir.resolve("x").toString(), json.toString());
        assertTrue(printed.contains("--clients: give the tool's concurrency"), printed);
    }
}
