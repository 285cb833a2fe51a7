package org.spice.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.spice.bench.analysis.Summaries;
import org.spice.bench.model.Results;
import org.spice.bench.model.RecordedSettings;
import org.spice.testkit.Chromium;

/**
 * report.html and compare.html rendered by a real browser, headless Chromium (Debian's chromium; CI installs
 * it; SPICE_CHROMIUM names another binary): the page loads without errors, every chart has drawn, and
 * nothing is wider than the window except inside the boxes that scroll. The screenshots are kept in
 * harness/target/report-browser/ for a human to look at.
 */
@Tag("load")
class ReportInBrowserTest {

    private static final Path OUT = Path.of("target", "report-browser");
    private static final int WIDTH = Chromium.WIDTH;

    /** Put at the top of a copy of the page: records errors, then on load what a reader would see broken. */
    private static final String CHECK = "<script>\n"
            + "var spiceErrors = [];\n"
            + "window.addEventListener('error', function (e) { spiceErrors.push((e.target && e.target.tagName) || e.message); }, true);\n"
            + "window.addEventListener('load', function () {\n"
            + "  var images = Array.prototype.slice.call(document.images);\n"
            + "  var blank = images.filter(function (i) { return !(i.complete && i.naturalWidth > 100 && i.naturalHeight > 100); });\n"
            + "  var width = document.documentElement.clientWidth;\n"
            + "  var wide = Array.prototype.slice.call(document.querySelectorAll('body *')).filter(function (e) {\n"
            + "    return !e.closest('.scroll') && e.getBoundingClientRect().right > width + 1; });\n"
            + "  var summary = document.getElementById('summary');\n"
            + "  var hidden = summary ? Array.prototype.slice.call(summary.querySelectorAll('th,td')).filter(function (c) {\n"
            + "    return c.getBoundingClientRect().right > width + 1; }).length : -1;\n"
            + "  document.body.setAttribute('data-spice-check', 'images=' + images.length + ';blank=' + blank.length\n"
            + "    + ';errors=' + spiceErrors.join(',') + ';overflow=' + (document.documentElement.scrollWidth - width)\n"
            + "    + ';wide=' + wide.map(function (e) { return e.tagName; }).join(',') + ';hidden=' + hidden);\n"
            + "});\n</script>\n";

    private static final Pattern RESULT = Pattern.compile("data-spice-check=\"images=(\\d+);blank=(\\d+);errors=([^;]*);"
            + "overflow=(-?\\d+);wide=([^;\"]*);hidden=(-?\\d+)\"");

    private static Matcher lastCheck;
    private static String lastDom;

    @Test
    void theReportAndTheComparisonRenderInChromium() throws Exception {
        String chromium = chromium();
        assumeTrue(chromium != null, "no chromium here (apt-get install chromium); CI installs it");
        Path run = Files.createDirectories(OUT.resolve("apache"));
        Results apache = ReportFixture.apacheWithCounters();
        new CgiFloor("spice (dynamic)", 500).write(run);
        checkReport(chromium, run, apache, "report");
        assertTrue(Files.readString(run.resolve("report-checked.html")).contains("<section id=\"why\">")
                && lastDom.contains("cgi: 1.0 process, 41 page faults"), "the why section rendered");

        Map<String, List<org.spice.bench.figures.SpiceFigures.Summary>> servers = new LinkedHashMap<>();
        servers.put("apache", Summaries.of(apache));
        servers.put("tomcat", Summaries.of(new Results("http://127.0.0.1:18082", "tomcat", 6250, RecordedSettings.NONE, "a", "b",
                false, null, List.of(), apache.runs())));
        Comparison comparison = new Comparison(servers, 6250);
        Path compare = OUT.resolve("compare.html");
        Files.writeString(compare, CompareReport.html(comparison, CompareReport.rateChart(comparison),
                CompareReport.cpuChart(comparison)), StandardCharsets.UTF_8);
        check(chromium, compare, 2, "compare");
    }

    @Test
    void aReportOfADozenProbesKeepsItsTablesAndChartsInTheWindow() throws Exception {
        String chromium = chromium();
        assumeTrue(chromium != null, "no chromium here (apt-get install chromium); CI installs it");
        checkReport(chromium, Files.createDirectories(OUT.resolve("dozen")), ReportFixture.dozenWithRounds(), "dozen");
        for (String probe : ReportFixture.DOZEN) {
            assertTrue(lastDom.contains(">" + probe + "<"), "the summary names " + probe);
        }
    }

    /** results.json and report.html of {@code results} in {@code run}, checked with its five charts and no table cut off. */
    private static void checkReport(String chromium, Path run, Results results, String name) throws IOException,
            InterruptedException {
        Summaries.write(run, results);
        ReportWriter.write(run, results);
        check(chromium, run.resolve("report.html"), 5, name);
        assertEquals("0", lastCheck.group(6), name + ": summary-table cells beyond the 1280 px window (behind a scrollbar)");
    }

    private static void check(String chromium, Path page, int charts, String name) throws IOException, InterruptedException {
        String html = Files.readString(page, StandardCharsets.UTF_8);
        Path checked = page.resolveSibling(name + "-checked.html");
        Files.writeString(checked, html.replaceFirst("<head>", "<head>" + Matcher.quoteReplacement(CHECK)), StandardCharsets.UTF_8);
        String dom = browse(chromium, checked, "--dump-dom");
        Matcher m = RESULT.matcher(dom);
        lastCheck = m;
        lastDom = dom;
        assertTrue(m.find(), "the check script ran in " + name + ": " + dom.substring(0, Math.min(300, dom.length())));
        assertEquals(charts, Integer.parseInt(m.group(1)), name + ": charts on the page");
        assertEquals(0, Integer.parseInt(m.group(2)), name + ": charts that did not draw");
        assertEquals("", m.group(3), name + ": errors while loading");
        assertTrue(Integer.parseInt(m.group(4)) <= 0, name + ": the page is " + m.group(4) + " px wider than the window");
        assertEquals("", m.group(5), name + ": elements wider than the window outside a scrolling box");
        Path screenshot = page.resolveSibling(name + ".png").toAbsolutePath();
        browse(chromium, page, "--screenshot=" + screenshot, "--window-size=" + WIDTH + ",4000");
        assertTrue(Files.size(screenshot) > 10_000, "screenshot " + screenshot);
    }

    private static String browse(String chromium, Path page, String... what) throws IOException, InterruptedException {
        return Chromium.browse(chromium, page, what);
    }

    private static String chromium() {
        return Chromium.find();
    }
}
