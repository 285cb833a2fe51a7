package org.spice.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.analysis.ResultsFiles;
import org.spice.bench.analysis.Summaries;
import org.spice.bench.model.CpuRounds;
import org.spice.bench.model.CpuSlice;
import org.spice.bench.model.RecordedSettings;
import org.spice.bench.model.Results;
import org.spice.testkit.Text;

/**
 * Every label of the answer holds for the number beside it: the CPU table's columns agree with each other (a probe's
 * µs / the static file's is the ratio printed, its efficiency 1 / that ratio) whatever rounds each probe ran; each aim
 * names the figure it applies to; the ladder's table carries no CPU figure when the rounds gave one, and says where
 * its own comes from when they did not; no column repeats another; no NaN, no "us/".
 */
@Tag("unit")
class AnswerLabelsTest {

    private static final Pattern NUMBER = Pattern.compile("[0-9]+\\.?[0-9]*");

    /**
     * The case a fresh bench met: the static file, in every round, drifted from 73 to 94 µs, and cgi left the rounds
     * after its seventh (its ratio known); its own rounds' mean over the static file's whole one was not its ratio.
     */
    static Results drifting() {
        return drifting(ReportFixture.apache().settings());
    }

    /** {@link #drifting()} with {@code settings} recorded. */
    static Results drifting(RecordedSettings settings) {
        Results apache = ReportFixture.apache();
        CpuRounds rounds = new CpuRounds(8, 0.05, 120, "every probe within its precision", List.of());
        for (int r = 0; r < 15; r++) {
            double staticUs = 73 + 21.0 * r / 14 + (r % 2 == 0 ? 1 : -1);
            List<CpuSlice> slices = new ArrayList<>(List.of(taken("static", staticUs),
                    taken("servlet", 0.88 * staticUs * (1 + (r % 3 - 1) * 0.02))));
            if (r < 7) {
                slices.add(taken("cgi", 24 * staticUs * (1 + (r % 2) * 0.03)));
            }
            rounds = rounds.with(new CpuRounds.Round(r + 1, slices), "every probe within its precision");
        }
        return Summaries.conclude(new Results(apache.target(), apache.server(), apache.bodyBytes(), settings, apache.startedAt(),
                apache.finishedAt(), false, null, List.of(), List.of(), null, apache.runs(), List.of(), rounds));
    }

    @Test
    void theTermsBeforeTheTableSayHowTheOfferedRequestsFellInTime() {
        String even = Text.unwrapped(Prose.legend(CpuTable.reading(drifting())));
        assertTrue(even.contains("offered: one request every 1 / R s, evenly") && even.contains("--arrivals poisson"),
                even);
        Map<String, Object> values = new LinkedHashMap<>(ReportFixture.apache().settings().asMap());
        values.put("arrivals", "poisson");
        String random = Text.unwrapped(Prose.legend(CpuTable.reading(drifting(new RecordedSettings(values)))));
        assertTrue(random.contains("offered: R requests a second at random times (--arrivals poisson)"), random);
        assertFalse(random.contains("evenly, so that"), random);
    }

    private static CpuSlice taken(String probe, double cpuUs) {
        return new CpuSlice(probe, 5000, 0, 1.0, cpuUs * 5000 / 1e6, cpuUs * 5000 / 1e6, 0.4, Double.NaN);
    }

    @Test
    void aProbesMicrosecondsOverTheStaticFilesAreTheRatioPrintedBesideThem() {
        Results results = drifting();
        List<String[]> rows = CpuTable.rows(results);
        double staticUs = first(rows.get(0)[1]);
        assertEquals("static", rows.get(0)[0]);
        for (String[] row : rows.subList(1, rows.size())) {
            double ratio = first(row[2]);
            assertEquals(ratio, first(row[1]) / staticUs, ratio * 0.002, "µs / static's µs is the ratio: " + Arrays.toString(row));
            assertEquals(100 / ratio, first(row[4]), 100 / ratio * 0.002, "CPU efficiency = 1 / the ratio: " + Arrays.toString(row));
        }
        assertEquals("7", rows.stream().filter(r -> r[0].equals("cgi")).findFirst().orElseThrow()[5], "cgi's own rounds");
        assertTrue(CpuTable.heading(results).contains("from 15 paired rounds"), CpuTable.heading(results));
        String legend = Text.unwrapped(Prose.legend(CpuTable.legend(results)));
        assertTrue(legend.contains("a probe leaves the rounds once its ratio has reached its aim"), legend);
        assertTrue(CpuTable.heading(results).contains("the server's processes; cgi: the whole machine less the client"),
                "apache's CGI children are the machine's: " + CpuTable.heading(results));
    }

    @Test
    void eachAimNamesTheFigureItIsFor() {
        List<String[]> rows = CpuTable.rows(drifting());
        assertEquals("none: the reference", rows.get(0)[6], "the static file's µs moves with the machine, and each round's"
                + " ratio cancels that: " + Arrays.toString(rows.get(0)));
        String legend = Text.unwrapped(Prose.legend(CpuTable.legend(drifting())));
        assertTrue(legend.contains("the static file, the reference, has none"), legend);
        for (String[] row : rows.subList(1, rows.size())) {
            String aim = row[0].equals("cgi") ? "ratio ±10 %: " : "ratio ±5 %: ";
            assertTrue(row[6].startsWith(aim), Arrays.toString(row));
            double interval = first(row[2].substring(row[2].indexOf('±')));
            assertEquals(interval <= first(aim.substring(aim.indexOf('±'))), row[6].endsWith(": reached"),
                    "reached means the ratio's interval is within the aim: " + Arrays.toString(row));
        }
    }

    @Test
    void theLaddersTableCarriesNoCpuFigureBesideTheRounds() {
        String rates = SummaryTable.rates(drifting());
        String heads = rates.lines().skip(1).findFirst().orElseThrow();
        assertFalse(heads.contains("CPU"), heads);
        assertFalse(rates.contains("lat eff") || rates.contains("latency eff. @"), "the latency efficiency is the request"
                + " efficiency again in a closed loop: " + rates);
    }

    @Test
    void withoutRoundsTheLaddersCpuIsLabelledAtThePeakAndItsEfficiencyIsFromIt() {
        Results results = ReportFixture.apache();
        List<String[]> rows = SummaryTable.rows(results);
        List<String> heads = List.of(rows.get(0));
        int cpu = heads.indexOf("CPU µs/req @ peak");
        int eff = heads.indexOf("CPU eff. @ peak");
        assertTrue(cpu > 0 && eff > 0, heads.toString());
        String[] servlet = rows.stream().filter(r -> r[0].equals("servlet")).findFirst().orElseThrow();
        // the fixture: static 100 µs, servlet 150 µs at every client count
        assertEquals(150, first(servlet[cpu]), 0.5, Arrays.toString(servlet));
        assertEquals(100.0 / 150 * 100, first(servlet[eff]), 0.1, Arrays.toString(servlet));
        String[] cgi = rows.stream().filter(r -> r[0].equals("cgi")).findFirst().orElseThrow();
        assertTrue(cgi[cpu].startsWith("1200") && cgi[cpu].endsWith("(mach)"), "apache's CGI children only the machine"
                + " sees: its figure, said so: " + Arrays.toString(cgi));
    }

    @Test
    void theUsefulPeakColumnIsThereOnlyWhereItDiffersFromThePeak() {
        Results results = ReportFixture.apache();
        boolean differs = Summaries.of(results).stream().anyMatch(SummaryTable::usefulPeakDiffers);
        assertEquals(differs, List.of(SummaryTable.rows(results).get(0)).contains("useful peak req/s @ clients"));
        Results allAtPeak = ReportFixture.sized(6250);
        assertFalse(Summaries.of(allAtPeak).stream().anyMatch(SummaryTable::usefulPeakDiffers));
        assertFalse(SummaryTable.rates(allAtPeak).contains("useful peak"), SummaryTable.rates(allAtPeak));
    }

    @Test
    void theAnswerHasOneUnitAndNoUnknownNumber(@TempDir Path dir) throws Exception {
        for (Results results : List.of(drifting(), ReportFixture.apache(), ReportFixture.dozenWithRounds())) {
            String text = ReportWriter.write(dir, results);
            String html = Files.readString(dir.resolve("report.html")).replaceAll("base64,[A-Za-z0-9+/=]+", "base64,");
            for (String page : List.of(text, html)) {
                assertFalse(page.contains("NaN"), page);
                assertFalse(page.contains("us/"), "µs, one way: " + page);
                assertFalse(page.contains("@pk"), page);
            }
            // The report's ladder table has the terminal's heads.
            for (String head : SummaryTable.rows(results).get(0)) {
                assertTrue(html.contains("<th" + (head.equals("probe") ? " class=\"l\">" : ">") + HtmlReport.esc(head)
                        + "</th>"), head);
            }
        }
    }

    /** The comparison of runs follows the same rules: no column that repeats another, intervals one way. */
    @Test
    void theComparisonPrintsEachFigureOnceWithItsIntervalOneWay(@TempDir Path dir) throws Exception {
        Summaries.write(dir.resolve("a"), ReportFixture.sized(6250));
        Summaries.write(dir.resolve("b"), drifting());
        String text = CompareReport.text(comparison(dir.resolve("a/results.json"), dir.resolve("b/results.json")));
        assertFalse(text.contains("Latency efficiency against"), "Little's law's copy of the request efficiency: " + text);
        assertFalse(text.contains("±0%") || text.contains("CPU efficiency against static at the peak"), text);
        assertTrue(text.contains("CPU efficiency: the static file's CPU per request / the probe's, 1 / the ratio above"), text);
        assertFalse(text.contains("NaN"), text);
        Files.createDirectories(dir.resolve("c"));
        Summaries.write(dir.resolve("c"), ReportFixture.sized(1024));
        String same = CompareReport.text(comparison(dir.resolve("a/results.json"), dir.resolve("c/results.json")));
        assertFalse(same.contains("Useful peak"), "every useful peak is its peak: no column for it: " + same);
    }

    private static double first(String cell) {
        Matcher m = NUMBER.matcher(cell);
        assertTrue(m.find(), cell);
        return Double.parseDouble(m.group());
    }

    /** The comparison of two results files, each read as every reader reads it. */
    private static Comparison comparison(Path a, Path b) throws java.io.IOException {
        return Comparison.of(List.of(a, b), List.of(ResultsFiles.read(a), ResultsFiles.read(b)));
    }
}
