package org.spice.bench.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.analysis.Summaries;
import org.spice.bench.figures.LatencySummary;
import org.spice.bench.figures.SpiceFigures;
import org.spice.commands.ReportCommand;

/** results.json written, read back and turned into the report again gives the same figures. */
@Tag("unit")
class ResultsRoundTripTest {

    @Test
    void resultsSurviveTheRoundTripThroughTheReportCommand(@TempDir Path dir) throws Exception {
        List<RunRecord> runs = new ArrayList<>();
        int[] clients = {1, 2, 4};
        double[] staticRates = {1000, 1900, 2100};
        double[] servletRates = {600, 1000, 700};
        for (int i = 0; i < clients.length; i++) {
            runs.add(run("static", clients[i], staticRates[i], false));
        }
        for (int i = 0; i < clients.length; i++) {
            runs.add(run("servlet", clients[i], servletRates[i], i == 2));
        }
        RecordedSettings settings = RecordedSettings.builder().latencyBoundMs(100.5).clients(List.of(1, 2, 4))
                .windowRule("quotes \" and \\ and\nnewlines survive").build();
        Results written = new Results("http://127.0.0.1:18080", "test \"server\"", 6250, settings, "2026-01-01T00:00:00Z",
                "2026-01-01T00:01:00Z", true, "interrupted (Ctrl-C)", List.of("a note"), runs);
        Summaries.write(dir, written);

        Map<?, ?> tree = ResultsJson.MAPPER.readValue(dir.resolve("results.json").toFile(), Map.class);
        assertEquals(Results.SCHEMA, tree.get("schema"));
        assertEquals(Boolean.TRUE, tree.get("partial"));
        Map<?, ?> first = (Map<?, ?>) ((List<?>) tree.get("runs")).get(0);
        for (String field : new String[] {"probe", "clients", "repeat", "requests", "errors", "duration_s", "rate_rps",
            "throughput_bytes_s", "bytes_per_response", "latency_ms", "fairness_jain", "client_cpu_us_per_req",
            "server_cpu_us_per_req", "errors_by_class", "per_client"}) {
            assertTrue(first.containsKey(field), field);
        }
        assertEquals(null, first.get("server_cpu_us_per_req"));   // not measured: null, never a made-up number
        Map<?, ?> failed = (Map<?, ?>) ((List<?>) tree.get("runs")).get(5);
        assertEquals(Boolean.TRUE, failed.get("failed"));
        assertEquals("server died", failed.get("reason"));
        assertEquals("server-gone", failed.get("failure_kind"));
        assertEquals(null, first.get("failure_kind"), "a run that counts has no failure kind");

        Results read = ResultsJson.read(dir.resolve("results.json"));
        assertEquals(written.settings().toString(), read.settings().toString());
        assertEquals(written.server(), read.server());
        assertEquals(written.partialReason(), read.partialReason());
        for (int i = 0; i < runs.size(); i++) {
            RunRecord a = runs.get(i);
            RunRecord b = read.runs().get(i);
            assertEquals(a.rateRps(), b.rateRps());
            assertEquals(a.latency(), b.latency());
            assertEquals(a.fairnessJain(), b.fairnessJain());
            assertEquals(a.errors(), b.errors());
            assertEquals(a.machineCpuS(), b.machineCpuS());
            assertArrayEquals(a.clientRequests(), b.clientRequests());
            assertArrayEquals(a.clientMeanMs(), b.clientMeanMs());
            assertEquals(a.failed(), b.failed());
            assertEquals(a.failure(), b.failure());
        }
        assertEquals(Summaries.of(written), Summaries.of(read));
        SpiceFigures.Summary servlet = Summaries.of(read).get(1);
        assertEquals(1000, servlet.peakRateRps(), 1e-9);
        assertEquals(1000 / 1900.0, servlet.requestEfficiencyAtPeak(), 1e-9);
        assertEquals(2, servlet.maxLoadClients());   // the 4-client mix failed

        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int status = org.spice.cli.Cli.run(new ReportCommand(), new PrintStream(bytes, true, StandardCharsets.UTF_8),
                System.err, dir.toString());
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, out);
        assertTrue(out.contains("SPICE summary"), out);
        assertTrue(out.contains("1000.0 @ 2"), out);
        assertTrue(out.contains("52.6%"), out);       // 1000 / 1900
        assertTrue(out.contains("FAILED servlet, 4 clients"), out);
        assertTrue(out.contains("PARTIAL RESULTS"), out);
        for (String file : new String[] {"report.html", "rate.png", "latency.png", "runs.csv"}) {
            assertTrue(Files.size(dir.resolve(file)) > 100, file);
        }
        String html = Files.readString(dir.resolve("report.html"));
        assertTrue(html.contains("data:image/png;base64,"));
        assertTrue(html.contains("test &quot;server&quot;"));
        List<String> csv = Files.readAllLines(dir.resolve("runs.csv"));
        assertEquals(7, csv.size());
        assertTrue(csv.get(0).startsWith("probe,clients,repeat,failed,requests,errors"));
    }

    /** A results.json written by the hand-made writer before Jackson (a real bench run) loads, figures recomputed alike. */
    @Test
    void resultsWrittenBeforeJacksonStillLoad(@TempDir Path dir) throws Exception {
        Path old = Path.of(getClass().getResource("/results-written-before-jackson.json").toURI());
        Results read = ResultsJson.read(old);
        Map<?, ?> tree = ResultsJson.MAPPER.readValue(old.toFile(), Map.class);
        List<?> runs = (List<?>) tree.get("runs");
        assertEquals(runs.size(), read.runs().size());
        for (int i = 0; i < runs.size(); i++) {
            Map<?, ?> stored = (Map<?, ?>) runs.get(i);
            RunRecord run = read.runs().get(i);
            assertEquals(((Number) stored.get("rate_rps")).doubleValue(), run.rateRps(), 1e-9);
            assertEquals(((Number) stored.get("fairness_jain")).doubleValue(), run.fairnessJain(), 1e-9);
            assertEquals(((Number) stored.get("client_cpu_us_per_req")).doubleValue(), run.clientCpuUsPerReq(), 1e-9);
            assertTrue(Double.isNaN(run.serverCpuUsPerReq()), "null in the file is NaN here");
            assertEquals(((Map<?, ?>) stored.get("per_client")).get("requests"),
                    java.util.Arrays.stream(run.clientRequests()).boxed().map(Long::intValue).toList());
        }
        Map<?, ?> summary = (Map<?, ?>) ((List<?>) tree.get("summary")).get(1);
        assertEquals(((Number) summary.get("request_efficiency_at_peak")).doubleValue(),
                Summaries.of(read).get(1).requestEfficiencyAtPeak(), 1e-9);
        Summaries.write(dir, read);   // and written again by Jackson, it reads back the same
        assertEquals(Summaries.of(read), Summaries.of(ResultsJson.read(dir.resolve("results.json"))));
    }

    @Test
    void aMalformedResultsFileNamesTheLine(@TempDir Path dir) throws Exception {
        Path bad = Files.writeString(dir.resolve("results.json"), "{\n  \"schema\": \"spice-results/1\",\n  \"runs\": [ }\n");
        IOException e = org.junit.jupiter.api.Assertions.assertThrows(IOException.class, () -> ResultsJson.read(bad));
        assertTrue(e.getMessage().contains("line 3"), e.getMessage());
    }

    /**
     * A file in the earlier format reads as it did; one in a format newer than this SPICE's is refused with what it is
     * and what this one reads, and compare says so and exits 1, with no stack trace.
     */
    @Test
    void anEarlierFormatReadsAndANewerOneIsRefusedSayingWhichItIs(@TempDir Path dir) throws Exception {
        Results written = new Results("http://127.0.0.1:18080", "embedded", 6250, RecordedSettings.builder().build(),
                "2026-01-01T00:00:00Z", "2026-01-01T00:01:00Z", false, null, List.of(), List.of(run("static", 1, 1000,
                        false), run("servlet", 1, 800, false)));
        Path earlier = dir.resolve("earlier");
        Path newer = dir.resolve("newer");
        for (Path each : List.of(earlier, newer)) {
            Summaries.write(each, written);
        }
        Path file = earlier.resolve(ResultsJson.FILE);
        Files.writeString(file, Files.readString(file).replace(Results.SCHEMA, "spice-results/1"));
        assertEquals(2, ResultsJson.read(file).runs().size(), "format 1 reads");
        Path future = newer.resolve(ResultsJson.FILE);
        Files.writeString(future, Files.readString(future).replace(Results.SCHEMA, "spice-results/9"));
        IOException e = org.junit.jupiter.api.Assertions.assertThrows(IOException.class, () -> ResultsJson.read(future));
        assertTrue(e.getMessage().contains("in the format spice-results/9, which this SPICE does not read (it reads"
                + " spice-results/1, spice-results/2 and " + Results.SCHEMA + ")"), e.getMessage());
        org.spice.testkit.CommandRun compare = org.spice.testkit.CommandRun.of(new org.spice.commands.CompareCommand(),
                earlier.toString(), newer.toString());
        assertEquals(1, compare.status(), compare.console());
        assertTrue(compare.err().startsWith("spice compare: " + future + " is in the format spice-results/9"),
                compare.err());
        assertTrue(!compare.console().contains("Exception") && !compare.console().contains("\tat "), compare.console());
    }

    /** A run with a known rate: 2 equal clients, 10 s window, mean latency = clients / rate. */
    private static RunRecord run(String probe, int clients, double rate, boolean failed) {
        double duration = 10;
        long requests = (long) (rate * duration);
        long[] perClient = new long[clients];
        double[] meanMs = new double[clients];
        for (int i = 0; i < clients; i++) {
            perClient[i] = requests / clients;
            meanMs[i] = clients * 1000.0 / rate;
        }
        Map<String, Long> errors = new LinkedHashMap<>();
        errors.put("connect_refused", failed ? 12L : 0L);
        errors.put("short_body", 0L);
        double mean = clients * 1000.0 / rate;
        RunRecordBuilder run = RunRecord.builder(probe, clients, 1).durationS(duration).requests(requests).errors(errors)
                .bytes(requests * 150, requests * 6250).expectedBodyBytes(6250)
                .latency(new LatencySummary(mean, mean * 0.9, mean * 1.5, mean * 2, mean * 3, mean * 5.123456789))
                .perClient(perClient, meanMs, new long[clients]).cpu(new Cpu(0.5 * duration, Double.NaN, 0.25 * duration))
                .completedAfterWindow(3).slices(List.of(
                        new Slice(0, 1, requests / 2, 0, requests / 2 * 6250, requests / 2 * mean, Double.NaN, 0.12),
                        new Slice(1, 1, requests - requests / 2, 0, (requests - requests / 2) * 6250,
                                (requests - requests / 2) * mean, Double.NaN, 0.13)));
        return (failed ? run.failed(Failure.of(Failure.Kind.SERVER_GONE, "server died")) : run).build();
    }
}
