package org.spice.bench.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.spice.bench.model.CpuFrom.CGROUP;
import static org.spice.bench.model.CpuFrom.EXPORTERS;
import static org.spice.bench.model.CpuFrom.PROC;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.analysis.Summaries;
import org.spice.bench.figures.LatencySummary;
import org.spice.bench.figures.SpiceFigures;
import org.spice.bench.model.RecordedSettings;
import org.spice.bench.model.Results;
import org.spice.bench.model.ResultsJson;
import org.spice.bench.model.RunRecord;
import org.spice.commands.CompareCommand;
import org.spice.testkit.CommandRun;

/** The report's figures, sentences and order, on a run with known numbers (ReportFixture). */
@Tag("page")
@Tag("unit")
class ReportTest {

    private static final double EPS = 1e-9;

    private static SpiceFigures.Summary summary(Results results, String probe) {
        return Summaries.of(results).stream().filter(s -> s.probe().equals(probe)).findFirst().orElseThrow();
    }

    @Test
    void cpuEfficiencyIsStaticCpuOverTheProbesFromTheFigureThatCounts() {
        Results results = ReportFixture.apache();
        SpiceFigures.Summary servlet = summary(results, "servlet");
        assertEquals(SpiceFigures.CpuSource.SERVER, servlet.cpuSource());
        assertEquals(150, servlet.cpuUsPerReqAtPeak(), 1e-6);
        assertEquals(100.0 / 150, servlet.cpuEfficiency(), 1e-9);
        // httpd's mod_cgid leaves its CGI children to the kernel: the machine's figure counts, for cgi only.
        SpiceFigures.Summary cgi = summary(results, "cgi");
        assertEquals(SpiceFigures.CpuSource.MACHINE, cgi.cpuSource());
        assertEquals(1200, cgi.cpuUsPerReqAtPeak(), 1e-6);
        assertEquals(300, cgi.serverCpuUsPerReqAtPeak(), 1e-6);
        assertEquals(100.0 / 1200, cgi.cpuEfficiency(), 1e-9);
        assertEquals(1.0, summary(results, "static").cpuEfficiency(), EPS);
    }

    @Test
    void cpuSourcePerServerAndProbe() {
        assertEquals(SpiceFigures.CpuSource.MACHINE, PROC.sourceFor("nginx", "cgi"));
        assertEquals(SpiceFigures.CpuSource.MACHINE, PROC.sourceFor("jetty", "cgi"));
        assertEquals(SpiceFigures.CpuSource.SERVER, PROC.sourceFor("tomcat", "cgi"), "Tomcat's gateway waits for its children");
        assertEquals(SpiceFigures.CpuSource.SERVER, PROC.sourceFor("apache", "servlet"));
        assertEquals(SpiceFigures.CpuSource.SERVER, PROC.sourceFor(null, "cgi"));
        assertEquals(SpiceFigures.CpuSource.MACHINE, EXPORTERS.sourceFor("tomcat", "cgi"),
                "exporters never see a CGI program that lives between two scrapes");
        assertEquals(SpiceFigures.CpuSource.SERVER, EXPORTERS.sourceFor("tomcat", "servlet"));
        assertEquals(SpiceFigures.CpuSource.CGROUP, CGROUP.sourceFor("nginx", "cgi"),
                "a cgroup counts every process the server started, CGI programs reaped by anyone included");
        assertTrue(Double.isNaN(SpiceFigures.cpuEfficiency(100, Double.NaN)));
        assertEquals(0.5, SpiceFigures.cpuEfficiency(100, 200), EPS);
    }

    @Test
    void resultsJsonCarriesCpuEfficiencyAndTheLatencyDistribution(@TempDir Path dir) throws Exception {
        Results written = ReportFixture.apache();
        Summaries.write(dir, written);
        Map<?, ?> tree = ResultsJson.MAPPER.readValue(dir.resolve("results.json").toFile(), Map.class);
        Map<?, ?> cgi = (Map<?, ?>) ((List<?>) tree.get("summary")).get(2);
        assertEquals("cgi", cgi.get("probe"));
        assertEquals("mach", cgi.get("cpu_source"));
        assertEquals(100.0 / 1200, ((Number) cgi.get("cpu_efficiency")).doubleValue(), 1e-9);
        Results read = ResultsJson.readResults(dir);
        List<LatencySummary.Percentile> before = written.runs().get(0).latency().distribution();
        List<LatencySummary.Percentile> after = read.runs().get(0).latency().distribution();
        assertTrue(before.size() > 20, "HdrHistogram's distribution has its points");
        assertEquals(before, after);
        assertEquals(100, after.get(after.size() - 1).percentile(), EPS, "the distribution ends at 100 %");
        String json = Files.readString(dir.resolve("results.json"));
        assertTrue(json.contains("\"distribution\" : [ [ 0.0, "), "points are [percentile, ms] pairs");
    }

    @Test
    void eachWarningConditionOnceWithWhereItHolds() {
        List<String> warnings = Warnings.of(ReportFixture.apache());
        assertEquals(1, warnings.stream().filter(w -> w.startsWith("The client used about a core")).count());
        assertTrue(warnings.contains("The client used about a core or more (the client, not the server, may be the"
                + " limit; read the CPU figures there): servlet at 2, 4 clients."), warnings.toString());
        assertTrue(warnings.contains("cgi at 4 clients (repeat 1) failed: the server stopped answering."), warnings.toString());
        assertTrue(warnings.contains("a note the engine wrote"));
    }

    /** An import from a tool that measures no server CPU: no empty CPU chart, and the report says why. */
    @Test
    void withoutCpuFiguresTheCpuChartIsLeftOutAndSaidSo() throws Exception {
        Results apache = ReportFixture.apache();
        List<RunRecord> runs = apache.runs().stream().map(r -> r.toBuilder().cpu(org.spice.bench.model.Cpu.NONE).build()).toList();
        Results imported = Summaries.conclude(new Results(apache.target(), "apache", 6250, RecordedSettings.builder().engine("ab").build(),
                apache.startedAt(), apache.finishedAt(), false, null, List.of(), runs));
        List<Charts.Figure> figures = Charts.all(imported, null);
        assertTrue(figures.stream().noneMatch(f -> f.file().equals("cpu.png")), figures.toString());
        String html = HtmlReport.of(imported, figures, null);
        assertTrue(html.contains("ab measures no server CPU"), html);
        assertFalse(html.contains("(mach)"), "no source named for a figure that does not exist");
        assertTrue(SummaryTable.of(imported).contains("HTTP/1.0") || SummaryTable.of(imported).contains("not recorded"));
    }

    /** The protocol is in the terminal header, the report's first line and the verdict. */
    @Test
    void keepAliveIsStatedWhereverTheFiguresAre() {
        Results apache = ReportFixture.apache();
        Results keepAlive = Summaries.conclude(new Results(apache.target(), "apache", 6250, apache.settings().toBuilder()
                .protocol("HTTP/1.1 keep-alive").build(), apache.startedAt(), apache.finishedAt(), false, null, List.of(),
                apache.runs()));
        assertTrue(SummaryTable.of(keepAlive).lines().findFirst().orElseThrow().contains("HTTP/1.1 keep-alive"));
        assertTrue(Verdict.of(keepAlive, null).get(0).contains("over HTTP/1.1 keep-alive"));
        String html = HtmlReport.of(keepAlive, List.of(), null);
        String firstLine = html.substring(html.indexOf("<h1>"), html.indexOf("</p>", html.indexOf("<h1>")));
        assertTrue(firstLine.contains("HTTP/1.1 keep-alive"), firstLine);
    }

    @Test
    void theVerdictAnswersFromTheFigures() {
        String verdict = String.join("\n", Verdict.of(ReportFixture.apache(), null));
        assertTrue(verdict.startsWith("On apache, over the protocol the tool used (not recorded), with a 6,250-byte page,"
                + " measured by event-loop."), verdict);
        assertTrue(verdict.contains("the cheapest interface is servlet, 150 µs, 1.5 × static's at 2 clients; the dearest"
                + " is cgi, 1,200 µs, 12 × static's at 2 clients."), verdict);
        assertTrue(verdict.contains("The CPU of cgi is the whole machine's less the client's"), verdict);
        assertTrue(verdict.contains("the static file peaked at 2,000 req/s (4 clients)"), verdict);
        assertTrue(verdict.contains("servlet 83 % (1,500 req/s)"), verdict);
        assertTrue(verdict.contains("At the peak of servlet the client used about a core"), verdict);
        assertTrue(verdict.contains("1 mix failed and is left out"), verdict);
        String split = String.join("\n", Verdict.of(ReportFixture.apache(), new CgiFloor("spice (dynamic)", 500)));
        assertTrue(split.contains("Of cgi's 1,200 µs, starting the program (fork, exec, wait) takes 500 µs (42 %);"
                + " the rest, 700 µs, is the server's CGI plumbing."), split);
    }

    @Test
    void thePageAnswersFirstThenShows(@TempDir Path dir) throws Exception {
        Results results = ReportFixture.apache();
        new CgiFloor("spice (dynamic)", 500).write(dir);
        Summaries.write(dir, results);
        String table = ReportWriter.write(dir, results);
        assertTrue(table.contains("CPU µs/req @ peak") && table.contains("CPU eff. @ peak"), "no rounds: the ladder's CPU,"
                + " labelled as such: " + table);
        assertFalse(table.contains("300/1200"), "one CPU figure, the one that counts: " + table);
        assertTrue(table.contains("1200 ") && table.contains("(mach)"), "cgi's on apache, the machine's: " + table);
        String html = Files.readString(dir.resolve("report.html"));
        int previous = -1;
        for (String id : List.of("verdict", "cost", "figures", "distribution", "warnings", "mixes", "settings")) {
            int at = html.indexOf("<section id=\"" + id + "\">");
            assertTrue(at > previous, id + " comes after the one before it");
            previous = at;
        }
        for (String png : List.of("cpu.png", "rate.png", "latency.png", "percentiles.png", "clients.png")) {
            assertTrue(Files.size(dir.resolve(png)) > 1000, png);
        }
        assertEquals(5, html.split("src=\"data:image/png;base64,", -1).length - 1, "five charts embedded");
        assertFalse(html.contains("warning: the client used"), "per-mix notes are grouped, not repeated");
    }

    @Test
    void chartsDrawForAnyLadder() {
        // XChart's tick search can loop for ever on some axes: every ladder shape must draw, and soon.
        for (int[] ladder : new int[][] {{1}, {3}, {8}, {1, 2}, {3, 5, 7}, {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384}}) {
            java.util.List<org.spice.bench.model.RunRecord> runs = new java.util.ArrayList<>();
            for (int clients : ladder) {
                runs.add(ReportFixture.run("static", clients, 1000 + clients, 100, 100, 0.5, false));
                runs.add(ReportFixture.run("cgi", clients, 10, 3000, 3000, 0.1, false));
            }
            Results results = Summaries.conclude(new Results("http://x", "tomcat", 6250, RecordedSettings.NONE, "a", "b", false, null, List.of(), runs));
            org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(30), () -> {
                for (Charts.Figure figure : Charts.all(results, null)) {
                    assertTrue(figure.png().length > 1000, figure.file() + " for " + java.util.Arrays.toString(ladder));
                }
            });
        }
    }

    /** compare: runs measured differently stand side by side; CPU figures of different measures compare on mach. */
    @Test
    void compareKeepsUnlikeRunsApartAndComparesLikeWithLike(@TempDir Path dir) throws Exception {
        Results apache = ReportFixture.apache();
        Results keepAlive = Summaries.conclude(new Results(apache.target(), "apache", 6250, apache.settings().toBuilder()
                .protocol("HTTP/1.1 keep-alive").build(), apache.startedAt(), apache.finishedAt(), false, null, List.of(),
                apache.runs().stream().filter(r -> !r.probe().equals("servlet")).toList()));
        Results tomcat = Summaries.conclude(new Results(apache.target(), "tomcat", 6250, apache.settings(), apache.startedAt(),
                apache.finishedAt(), false, null, List.of(), apache.runs()));
        Summaries.write(Files.createDirectories(dir.resolve("a")), apache);
        Summaries.write(Files.createDirectories(dir.resolve("k")), keepAlive);
        Summaries.write(Files.createDirectories(dir.resolve("t")), tomcat);

        String unlike = compare(dir, "a", "k");
        assertTrue(unlike.contains("SPICE server comparison"), "not before/after: " + unlike);
        assertTrue(unlike.contains("Not comparable as before and after: the runs were measured differently — protocol"
                + " (apache: the protocol the tool used (not recorded); apache (k): HTTP/1.1 keep-alive)"), unlike);

        // Before and after on one server, the probe missing in one run: which run lacks it is said.
        Results without = Summaries.conclude(new Results(apache.target(), "apache", 6250, apache.settings(), apache.startedAt(),
                apache.finishedAt(), false, null, List.of(), apache.runs().stream().filter(r -> !r.probe().equals("servlet")).toList()));
        Summaries.write(Files.createDirectories(dir.resolve("w")), without);
        String beforeAfter = compare(dir, "a", "w");
        assertTrue(beforeAfter.contains("SPICE before/after comparison"), beforeAfter);
        assertTrue(beforeAfter.contains("servlet: not run in apache (w), so no change can be given."), beforeAfter);

        String servers = compare(dir, "a", "t");
        // apache counts cgi on the machine (mod_cgid's children are reaped by the kernel), tomcat on its processes.
        // Before, cgi read "least server CPU on tomcat (300 µs), most on apache (1,200 µs)": srv against mach.
        assertTrue(servers.contains("cgi: the same server CPU on each (1,200 µs mach)"), servers);
        assertTrue(servers.contains("static: the same server CPU on each (100 µs)"), servers);
    }

    private static String compare(Path dir, String... runs) {
        List<String> args = new java.util.ArrayList<>();
        for (String run : runs) {
            args.add(dir.resolve(run).toString());
        }
        args.addAll(List.of("--out", dir.resolve("compare-" + String.join("", runs)).toString()));
        CommandRun ran = CommandRun.of(new CompareCommand(), args.toArray(String[]::new));
        assertEquals(0, ran.status(), ran.console());
        return ran.console();
    }

    /** The log latency axis spans whole decades, two labels at least (labels between decades ran into each other). */
    @Test
    void aLogAxisSpansWholeDecades() {
        assertArrayEquals(new double[] {1, 10}, Charts.decades(1.3, 7.2), 1e-12);
        assertArrayEquals(new double[] {0.01, 10}, Charts.decades(0.06, 2), 1e-12);
        assertArrayEquals(new double[] {1, 10}, Charts.decades(1, 1), 1e-12);
        assertArrayEquals(new double[] {1, 100}, Charts.decades(5, 100), 1e-12);
    }

    /** The kernel's counters per request: kept in results.json, read by the "why" section's sentences. */
    @Test
    void theWhySectionReadsTheKernelsCounters(@TempDir Path dir) throws Exception {
        Results apache = ReportFixture.apache();
        Results counted = ReportFixture.apacheWithCounters();
        Summaries.write(dir, counted);
        RunRecord cgi = ResultsJson.readResults(dir).runs().stream().filter(r -> r.probe().equals("cgi")).findFirst().orElseThrow();
        assertEquals(1.0, cgi.processesPerReq(), 1e-12);
        assertEquals(41.0, cgi.serverPageFaultsPerReq(), 1e-12);
        assertEquals(3.0, cgi.serverCtxSwitchesPerReq(), 1e-12);
        assertEquals(6_500.0, cgi.serverWrittenBytesPerReq(), 1e-12);
        assertTrue(Files.readString(dir.resolve("results.json")).contains("\"processes_per_req\" : 1.0"));

        StringBuilder html = new StringBuilder();
        Why.html(html, counted, Why.Evidence.NONE, List.of());
        assertTrue(html.toString().contains("cgi: 1.0 process, 41 page faults and 3.0 context switches per request — the cost"
                + " of starting a program for each request"), html.toString());
        assertTrue(html.toString().contains("static: 0.0 processes, 0.1 page faults and 3.0 context switches per request —"
                + " resident"), html.toString());
        StringBuilder none = new StringBuilder();
        Why.html(none, apache, Why.Evidence.NONE, List.of());
        assertTrue(none.toString().contains("No kernel counters for these results"), none.toString());

        // explain.json beside results.json: its table is in the report's why section.
        Files.writeString(dir.resolve(ReportWriter.EXPLAIN_FILE), "{\"schema\": \"spice-explain/1\", \"syscalls_per_request\":"
                + " {\"static\": {\"sendfile\": 1.0, \"accept4\": 1.0}, \"cgi\": {\"clone\": 1.0, \"execve\": 1.0,"
                + " \"rt_sigaction\": 6.0}}}");
        ReportWriter.write(dir, counted);
        String report = Files.readString(dir.resolve("report.html"));
        String why = report.substring(report.indexOf("<section id=\"why\">"), report.indexOf("</section>", report.indexOf("<section id=\"why\">")));
        assertTrue(why.contains("<table id=\"syscalls\">") && why.contains("<td class=\"l\">rt_sigaction</td><td>-</td><td>6.00</td>")
                && why.contains("<td class=\"l\">all</td><td>2.0</td><td>8.0</td>"), why);
    }

    @Test
    void beforeAndAfterSaysWhetherAChangeIsInsideTheNoise() {
        assertEquals(Boolean.TRUE, Comparison.insideNoise(0.05, 0.03, 0.02));    // the intervals just overlap
        assertEquals(Boolean.FALSE, Comparison.insideNoise(-0.15, 0.1, 0.04));
        assertNull(Comparison.insideNoise(-0.15, 0.1, Double.NaN));
        assertNull(Comparison.insideNoise(0.3, Double.NaN, Double.NaN));
        assertEquals("1,000 → 1,100 req/s (+10.0 %, outside the noise of ±6.0 %)",
                CompareReport.change("req/s", 1000, 1100, 0.04, 0.02));
        assertEquals("1,000 → 1,030 req/s (+3.0 %, inside the noise of ±6.0 %)",
                CompareReport.change("req/s", 1000, 1030, 0.04, 0.02));
        assertEquals("1,000 → 1,030 req/s (+3.0 %, no interval in one of the runs, so the noise is unknown)",
                CompareReport.change("req/s", 1000, 1030, 0.04, Double.NaN));
    }

    @Test
    void aDozenSeriesAndMoreEachHaveTheirOwnColourAndMarker() {
        java.util.Set<String> styles = new java.util.HashSet<>();
        for (int series = 0; series < 56; series++) {
            styles.add(Charts.COLOURS[series % Charts.COLOURS.length] + "/" + Charts.MARKERS[series % Charts.MARKERS.length]);
        }
        assertEquals(56, styles.size(), "no two of 56 series look alike");
        assertEquals(8, java.util.Set.of(Charts.COLOURS).size());
    }
}
