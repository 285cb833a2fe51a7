package org.spice.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.analysis.Summaries;
import org.spice.bench.model.Results;
import org.spice.bench.model.ResultsJson;
import org.spice.bench.model.RunRecord;
import org.spice.commands.ImportCommand;
import org.spice.testkit.CommandRun;

/** Imports of known files: the figures, the combination of several imports, and bad files refused by line. */
@Tag("page")
@Tag("unit")
class ImportCommandTest {

    private static final String HEADER = "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,"
            + "failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect\n";

    private static String row(long stamp, int elapsed, String code, String thread, boolean ok, long bytes) {
        return row(stamp, elapsed, code, thread, ok, bytes, "static/spice.html", 2);
    }

    private static String row(long stamp, int elapsed, String code, String thread, boolean ok, long bytes, String path,
            int allThreads) {
        return stamp + "," + elapsed + ",static," + code + "," + (ok ? "" : "\"Non HTTP response code: refused, sorry\"")
                + "," + thread + ",text," + ok + ",," + bytes + ",136," + allThreads + "," + allThreads
                + ",http://127.0.0.1/spice/" + path + ",1,0,1\n";
    }

    private static String run(Path dir, String... args) {
        CommandRun ran = CommandRun.of(new ImportCommand(), args);
        int status = ran.status();
        return status + "\n" + ran.console();
    }

    @Test
    void aJtlBecomesAMixWithPerClientFigures(@TempDir Path dir) throws Exception {
        StringBuilder jtl = new StringBuilder(HEADER);
        for (int i = 0; i < 100; i++) {
            jtl.append(row(1_000_000L + i * 10, 2, "200", "spice 1-" + (1 + i % 2), true, 6485));
        }
        jtl.append(row(1_001_000L, 2, "Non HTTP response code: java.net.ConnectException", "spice 1-1", false, 0));
        Files.writeString(dir.resolve("a.jtl"), jtl);
        String printed = run(dir, "jmeter", "--probe", "static", "--clients", "2", "--out", dir.resolve("r").toString(),
                "--bytes", "6250", dir.resolve("a.jtl").toString());
        assertTrue(printed.startsWith("0\n"), printed);
        RunRecord run = ResultsJson.readResults(dir.resolve("r")).runs().get(0);
        assertEquals(100, run.requests());
        assertEquals(1, run.errors().get("connect_refused"));
        assertEquals(2, run.clientRates().length);
        assertEquals(1.0, run.fairnessJain(), 1e-9);
        assertEquals(2.0, run.latency().meanMs(), 1e-9);
        assertEquals(6250, run.bytesPerResponse(), 0.0, "the body, as every engine and import reports it");
        assertEquals(100L * (6485 - 6250), run.headerBytes(), "JMeter's head bytes beside it");
    }

    @Test
    void importsOfOneToolCombineIntoOneResult(@TempDir Path dir) throws Exception {
        for (String probe : new String[] {"static", "servlet"}) {
            StringBuilder jtl = new StringBuilder(HEADER);
            for (int i = 0; i < 50; i++) {
                jtl.append(row(1_000_000L + i * 10, probe.equals("static") ? 2 : 4, "200", "spice 1-1", true, 6485,
                        probe.equals("static") ? "static/spice.html" : "servlet", 1));
            }
            Files.writeString(dir.resolve(probe + ".jtl"), jtl);
            String printed = run(dir, "jmeter", "--probe", probe, "--clients", "1", "--bytes", "6250",
                    probe.equals("static") ? "--out" : "--into", dir.resolve("r").toString(), dir.resolve(probe + ".jtl").toString());
            assertTrue(printed.startsWith("0\n"), printed);
        }
        Results results = ResultsJson.readResults(dir.resolve("r"));
        assertEquals(2, results.runs().size());
        assertEquals(0.5, Summaries.of(results).get(1).latencyEfficiencyAtPeak(), 1e-9, "servlet against static");
        String refused = run(dir, "wrk", "--probe", "jsp", "--clients", "1", "--into", dir.resolve("r").toString(),
                dir.resolve("static.jtl").toString());
        assertTrue(refused.startsWith("2\n") && refused.contains("holds results of jmeter, not wrk"), refused);
    }

    @Test
    void aTruncatedFileIsRefusedByItsLineAndNothingIsWritten(@TempDir Path dir) throws Exception {
        String jtl = HEADER + row(1_000_000L, 2, "200", "spice 1-1", true, 6485) + "1000010,3,static,200,";
        Files.writeString(dir.resolve("t.jtl"), jtl);
        String printed = run(dir, "jmeter", "--probe", "static", "--clients", "1", "--out", dir.resolve("r").toString(),
                dir.resolve("t.jtl").toString());
        assertTrue(printed.startsWith("1\n"), printed);
        assertTrue(printed.contains(dir.resolve("t.jtl") + ":3: 5 columns where the header has 17 (truncated?)"), printed);
        assertFalse(Files.exists(dir.resolve("r").resolve("results.json")), "nothing half-written");

        Files.writeString(dir.resolve("h2.log"), "1795397163669750\t200\t3173\n1795397163669731\t200\tabc\n");
        Files.writeString(dir.resolve("h2.txt"), "starting benchmark...\nfinished in 1.00s, 2 req/s\n"
                + "requests: 2 total, 2 started, 2 done, 2 succeeded, 0 failed, 0 errored, 0 timeout\n");
        printed = run(dir, "h2load", "--probe", "static", "--clients", "1", "--out", dir.resolve("r").toString(),
                dir.resolve("h2.txt").toString(), dir.resolve("h2.log").toString());
        assertTrue(printed.contains(dir.resolve("h2.log") + ":2: duration (µs) is not a whole number: \"abc\""), printed);

        Files.writeString(dir.resolve("wrk.txt"), "Running 1s test\n{\"spice_wrk\": 1, \"duration_us\": 100\n");
        printed = run(dir, "wrk", "--probe", "static", "--clients", "1", "--out", dir.resolve("r").toString(),
                dir.resolve("wrk.txt").toString());
        assertTrue(printed.contains(dir.resolve("wrk.txt") + ":2: the spice_wrk line is not JSON"), printed);
        assertFalse(Files.exists(dir.resolve("r").resolve("results.json")));
    }

    /** A real h2load 1.52 run over h2c (200 requests, 2 clients of 4 streams each, Tomcat's static file), as written. */
    @Test
    void h2loadsApplicationProtocolIsRecorded(@TempDir Path dir) throws Exception {
        Path text = Path.of(getClass().getResource("/h2load-1.52-h2c.txt").toURI());
        Path log = Path.of(getClass().getResource("/h2load-1.52-h2c.log").toURI());
        String printed = run(dir, "h2load", "--probe", "static", "--clients", "2", "--server", "tomcat", "--out",
                dir.resolve("r").toString(), text.toString(), log.toString());
        assertTrue(printed.startsWith("0\n"), printed);
        assertTrue(printed.contains("On tomcat, over h2c (h2load's application protocol, each client one connection)"),
                printed);
        assertTrue(Files.readString(dir.resolve("r").resolve("results.json")).contains("\"protocol\" : \"h2c"),
                "results.json records it");
    }

    /** A real oha 1.16 run (2,000 requests, 4 clients, --disable-keepalive, against the embedded server), kept as it was written. */
    @Test
    void ohasJsonGivesItsOwnTotals(@TempDir Path dir) throws Exception {
        Path json = Path.of(getClass().getResource("/oha-1.16-output.json").toURI());
        String printed = run(dir, "oha", "--probe", "static", "--clients", "4", "--bytes", "6250", "--out",
                dir.resolve("r").toString(), json.toString());
        assertTrue(printed.startsWith("0\n"), printed);
        RunRecord run = ResultsJson.readResults(dir.resolve("r")).runs().get(0);
        assertEquals(2000, run.requests());
        assertEquals(6250, run.bytesPerResponse(), 0.0);
        assertEquals(5.254946327, run.latency().meanMs(), 1e-6);
        assertEquals(4.10496, run.latency().p50Ms(), 1e-9);
        assertEquals(2000 / 2.638798056, run.rateRps(), 1e-6);

        String text = Files.readString(json);
        Files.writeString(dir.resolve("cut.json"), text.substring(0, text.length() / 2));
        printed = run(dir, "oha", "--probe", "static", "--clients", "4", "--out", dir.resolve("c").toString(),
                dir.resolve("cut.json").toString());
        assertTrue(printed.startsWith("1\n") && printed.matches("(?s).*" + java.util.regex.Pattern.quote(dir.resolve("cut.json").toString()) + ":\\d+: not oha.s JSON output.*"), printed);
        assertFalse(Files.exists(dir.resolve("c").resolve("results.json")));
    }

    /** What the tool's own output states (the URL, the threads) is checked against --probe and --clients. */
    @Test
    void aProbeOrClientCountTheToolContradictsIsRefused(@TempDir Path dir) throws Exception {
        StringBuilder jtl = new StringBuilder(HEADER);
        for (int i = 0; i < 20; i++) {
            jtl.append(row(1_000_000L + i * 10, 2, "200", "spice 1-" + (1 + i % 4), true, 6485, "static/spice.html", 4));
        }
        Files.writeString(dir.resolve("s.jtl"), jtl);
        String jtlFile = dir.resolve("s.jtl").toString();
        String printed = run(dir, "jmeter", "--probe", "servlet", "--clients", "4", "--out", dir.resolve("a").toString(), jtlFile);
        assertTrue(printed.startsWith("1\n") && printed.contains("JMeter measured http://127.0.0.1/spice/static/spice.html"
                + " (its URL column), the static probe, not --probe servlet"), printed);
        printed = run(dir, "jmeter", "--probe", "static", "--clients", "2", "--out", dir.resolve("b").toString(), jtlFile);
        assertTrue(printed.startsWith("1\n") && printed.contains("JMeter ran 4 clients"), printed);
        printed = run(dir, "jmeter", "--probe", "statc", "--clients", "4", "--out", dir.resolve("c").toString(), jtlFile);
        assertTrue(printed.startsWith("2\n") && printed.contains("--probe: unknown probe \"statc\""), printed);
        for (String refused : List.of("a", "b", "c")) {
            assertFalse(Files.exists(dir.resolve(refused).resolve("results.json")), "nothing written for " + refused);
        }
        printed = run(dir, "jmeter", "--probe", "static", "--clients", "4", "--out", dir.resolve("d").toString(), jtlFile);
        assertTrue(printed.startsWith("0\n"), printed);
        printed = run(dir, "jmeter", "--workload", "checkout", "--clients", "4", "--out", dir.resolve("e").toString(), jtlFile);
        assertTrue(printed.startsWith("0\n"), printed);
        assertEquals("checkout", ResultsJson.readResults(dir.resolve("e")).runs().get(0).probe());
    }

    @Test
    void optionsAreCheckedFirst(@TempDir Path dir) {
        assertTrue(run(dir, "curl", "--probe", "static", "--clients", "1", "--out", "x", "f").contains("TOOL: ab, h2load, wrk, jmeter, oha or vegeta"));
        assertTrue(run(dir, "ab", "--probe", "static", "--clients", "0", "--out", "x", "f").contains("--clients"));
        assertTrue(run(dir, "ab", "--probe", "static", "--clients", "1", "f").contains("give --out DIR"));
    }
}
