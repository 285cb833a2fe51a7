package org.spice.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.model.ResultsJson;
import org.spice.bench.plan.PlanCommands;
import org.spice.lesson.LessonCommands;
import org.spice.page.CanonicalPage;
import org.spice.testkit.Chromium;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * {@code scripts/spice lesson} end to end, as a teacher runs it: its plan said before anything runs, then question 3
 * answered from a real run on the embedded server (SPICE_LESSON_OPTIONS shortens it: the page shows the command as it
 * ran), and the page rendered in Chromium: every figure on it is in lesson.json, every command on it parses, its chart
 * drew, and nothing is left running. The page stays in server/target/lesson-browser/ for a human to look at (its
 * screenshot, lesson.png). And SIGTERM in the middle of a run ends the lesson as it ends a bench: the run's partial
 * results, the page marked partial, exit 143, nothing left running. Some two minutes in all: the question's run (its
 * rounds 45 s, the warm-up of the 100 JSP pages most of the rest), then a start of the embedded server.
 * Run once, with the default page.
 */
class LessonAgainstEmbeddedTest {

    /** A figure as the page prints one: digits, with thousands grouped and a decimal part. */
    private static final Pattern NUMBER = Pattern.compile("\\d+(?:,\\d{3})*(?:\\.\\d+)?");
    /** What the page's own script leaves on its body once loaded: the images, those not drawn, the text to check. */
    private static final String CHECK = "<script>\n"
            + "window.addEventListener('load', function () {\n"
            + "  var images = Array.prototype.slice.call(document.images);\n"
            + "  var blank = images.filter(function (i) { return !(i.complete && i.naturalWidth > 100); });\n"
            + "  var copy = document.body.cloneNode(true);\n"
            + "  Array.prototype.slice.call(copy.querySelectorAll('code, .needs, .method, script')).forEach(function (e) {\n"
            + "    e.remove(); });\n"
            + "  var walker = document.createTreeWalker(copy, NodeFilter.SHOW_TEXT), parts = [];\n"
            + "  while (walker.nextNode()) { parts.push(walker.currentNode.nodeValue); }\n"
            + "  var codes = Array.prototype.slice.call(document.querySelectorAll('code')).map(function (c) {\n"
            + "    return c.textContent; });\n"
            + "  var out = document.createElement('pre'); out.id = 'spice-check';\n"
            + "  out.textContent = JSON.stringify({images: images.length, blank: blank.length, text: parts.join(' '),\n"
            + "    codes: codes});\n"
            + "  document.documentElement.appendChild(out);\n"
            + "});\n</script>\n";

    /**
     * What every run of the lesson here takes in place of its own: shorter phases, and the probes the question reads
     * without the module. This module's tests run before its own jar is packaged, and the embedded server that
     * scripts/spice starts runs from that jar, the Valve inside it: in the suite's second pass, at 6,250 bytes, it is
     * still the 1,000-byte pass's, and verify refuses it (as it should). The page's probes come from the war, packaged
     * before.
     */
    private static final String SHORT = "--warm-up 10 --cpu-time 45 --duration 0.5 --probes static,servlet,jsp,shtml";

    @TempDir
    Path dir;

    @Test
    void questionThreeMakesAPageWhoseEveryFigureIsInLessonJson() throws Exception {
        assumeTrue(CanonicalPage.builtBytes() == CanonicalPage.DEFAULT_BYTES, "run once, with the default page");
        Path root = PlanCommands.projectRoot();
        Ran plan = lesson(root, List.of("--dry-run"));
        assertEquals(0, plan.status(), plan.output());
        assertTrue(plan.output().contains("questions 3 and 4, embedded"), plan.output());
        assertTrue(plan.output().contains("questions 1, 6 and 11, nginx") || plan.output().contains("question 1 skipped: it needs"),
                plan.output());
        assertFalse(plan.output().contains("[1/"), "a dry run runs nothing: " + plan.output());

        Path out = Path.of("target", "lesson-browser").toAbsolutePath();   // kept, for a human to look at
        deleteTree(out);
        Ran ran = lesson(root, List.of("--questions", "3", "--quick", "--out", out.toString()));
        assertEquals(0, ran.status(), ran.output());
        assertTrue(ran.output().contains("spice lesson: 1 question in 1 run, about"), ran.output());
        JsonNode lesson = ResultsJson.MAPPER.readTree(out.resolve("lesson.json").toFile());
        JsonNode q3 = lesson.get("questions").get(0);
        assertEquals(3, q3.get("number").asInt());
        assertEquals("answered", q3.get("status").asText(), q3.toString());
        assertTrue(q3.get("commands").get(0).asText().contains("--cpu-time 45"), "the page shows the run as it ran: " + q3);
        assertEquals("jsp / servlet", q3.get("answer").get("figures").get(0).get("name").asText());
        assertTrue(q3.get("answer").get("sentence").asText().startsWith("A JSP page costs "), q3.toString());
        assertEquals("done", lesson.get("runs").get(0).get("status").asText());

        String chromium = Chromium.find();
        assumeTrue(chromium != null, "no chromium here (apt-get install chromium); CI installs it");
        Path checked = out.resolve("index-checked.html");
        Files.writeString(checked, Files.readString(out.resolve("index.html")).replaceFirst("<head>",
                "<head>" + Matcher.quoteReplacement(CHECK)), StandardCharsets.UTF_8);
        String dom = Chromium.browse(chromium, checked, "--dump-dom");
        Matcher m = Pattern.compile("<pre id=\"spice-check\">(.*?)</pre>", Pattern.DOTALL).matcher(dom);
        assertTrue(m.find(), "the check ran: " + dom.substring(0, Math.min(400, dom.length())));
        JsonNode check = ResultsJson.MAPPER.readTree(m.group(1).replace("&lt;", "<").replace("&gt;", ">")
                .replace("&quot;", "\"").replace("&amp;", "&"));
        assertEquals(1, check.get("images").asInt(), "question 3's chart");
        assertEquals(0, check.get("blank").asInt(), "a chart that did not draw");
        Set<String> known = numbers(Files.readString(out.resolve("lesson.json")));
        List<String> unknown = new ArrayList<>();
        for (String figure : numbers(check.get("text").asText())) {
            if (!known.contains(figure)) {
                unknown.add(figure);
            }
        }
        assertTrue(unknown.isEmpty(), "figures on the page that lesson.json does not hold: " + unknown);
        assertTrue(check.get("codes").size() >= 3, "the lesson's command and question 3's two");
        for (JsonNode code : check.get("codes")) {
            LessonCommands.assertParses(code.asText());
        }
        Chromium.browse(chromium, out.resolve("index.html"), "--screenshot=" + out.resolve("lesson.png").toAbsolutePath(),
                "--window-size=" + Chromium.WIDTH + ",3000");
        assertTrue(ProcessHandle.allProcesses().noneMatch(p -> p.info().commandLine().orElse("").contains(out.toString())),
                "nothing the lesson started still runs");
        assertFalse(Files.exists(root.resolve("run/embedded-18080/server.pid")), "the embedded server stopped");
    }

    @Test
    void aSignalEndsTheLessonAsItEndsABenchPartialAndNothingLeftRunning() throws Exception {
        assumeTrue(CanonicalPage.builtBytes() == CanonicalPage.DEFAULT_BYTES, "run once, with the default page");
        Path root = PlanCommands.projectRoot();
        Path out = dir.resolve("stopped");
        List<String> command = new ArrayList<>(List.of("bash", root.resolve("scripts/spice").toString(), "lesson",
                "--questions", "3,9", "--quick", "--out", out.toString()));
        Path log = dir.resolve("stopped.log");
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("SPICE_LESSON_OPTIONS", SHORT);
        Process process = builder.start();
        // once the embedded server has started and measured its idle CPU, the run is under way
        long until = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        while (!Files.readString(log).contains("idle:") && process.isAlive() && System.nanoTime() < until) {
            Thread.sleep(200);
        }
        assertTrue(process.isAlive(), "the lesson runs: " + Files.readString(log));
        process.destroy();   // SIGTERM, as a service manager or kill sends it
        assertTrue(process.waitFor(3, TimeUnit.MINUTES), "the lesson ended after SIGTERM");
        String said = Files.readString(log);
        assertEquals(143, process.exitValue(), said);
        JsonNode lesson = ResultsJson.MAPPER.readTree(out.resolve("lesson.json").toFile());
        assertTrue(lesson.get("partial").asBoolean(), said);
        assertEquals("stopped", lesson.get("runs").get(0).get("status").asText());
        assertEquals("not run", lesson.get("runs").get(1).get("status").asText(), "question 9's run, after the signal");
        assertTrue(Files.readString(out.resolve("index.html")).contains("Partial: the lesson was stopped by SIGTERM"));
        assertTrue(ProcessHandle.allProcesses().noneMatch(p -> p.info().commandLine().orElse("").contains(out.toString())),
                "nothing the lesson started still runs");
        assertFalse(Files.exists(root.resolve("run/embedded-18080/server.pid")), "the embedded server stopped");
    }

    private static void deleteTree(Path tree) throws IOException {
        if (Files.exists(tree)) {
            try (var paths = Files.walk(tree)) {
                for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    private static Set<String> numbers(String text) {
        Set<String> found = new HashSet<>();
        Matcher m = NUMBER.matcher(text);
        while (m.find()) {
            found.add(m.group());
        }
        return found;
    }

    private record Ran(int status, String output) {
    }

    /** scripts/spice lesson ARGS, its runs shortened; its exit status and what it printed. */
    private Ran lesson(Path root, List<String> args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("bash", root.resolve("scripts/spice").toString(), "lesson"));
        command.addAll(args);
        Path log = Files.createTempFile(dir, "lesson", ".log");
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("SPICE_LESSON_OPTIONS", SHORT);
        Process process = builder.start();
        if (!process.waitFor(10, TimeUnit.MINUTES)) {
            process.destroy();
            process.waitFor(2, TimeUnit.MINUTES);
        }
        String output = Files.readString(log);
        System.out.println(output);
        return new Ran(process.exitValue(), output);
    }
}
