package org.spice.lesson;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.analysis.CrossResults;
import org.spice.bench.analysis.Summaries;
import org.spice.bench.model.CpuFrom;
import org.spice.bench.model.CpuRounds;
import org.spice.bench.model.CpuSlice;
import org.spice.bench.model.Protocol;
import org.spice.bench.model.RecordedSettings;
import org.spice.bench.model.Results;
import org.spice.bench.report.HtmlReport;

/**
 * The answers read from results whose figures are known: the ratios the rounds were made with, in the sentence and
 * the table; the page and lesson.md carry every answer; a class of two lessons has a row for each.
 */
@Tag("unit")
class LessonAnswersTest {

    @TempDir
    Path dir;

    /** Eight rounds of one server: each probe's CPU its multiple of the static file's, the static file moving ±2 %. */
    private Path oneServer(Map<String, Double> multiples) throws IOException {
        CpuRounds rounds = new CpuRounds(8, 0.05, 90, "every probe within its precision", List.of());
        for (int r = 0; r < 8; r++) {
            double staticUs = 100 * (1 + (r % 2 == 0 ? 0.02 : -0.02));
            List<CpuSlice> slices = new ArrayList<>();
            int i = 0;
            for (Map.Entry<String, Double> m : multiples.entrySet()) {
                slices.add(taken(null, m.getKey(), staticUs * m.getValue() * (1 + ((r + i++) % 3 - 1) * 0.01)));
            }
            rounds = rounds.with(new CpuRounds.Round(r + 1, slices), "every probe within its precision");
        }
        Results results = new Results("http://127.0.0.1:18084", "nginx", 6250, RecordedSettings.NONE, "2026-11-27T00:00:00Z",
                "2026-11-27T00:05:00Z", false, null, List.of(), List.of(), null, List.of(), List.of(), rounds);
        Path run = Files.createDirectories(dir.resolve("one/20261127-000000"));
        Summaries.write(run, results);
        return dir.resolve("one");
    }

    private static CpuSlice taken(String server, String probe, double cpuUs) {
        return new CpuSlice(server, probe, 2000, 0, 1.0, cpuUs * 2000 / 1e6, cpuUs * 2000 / 1e6, 0.4, Double.NaN,
                0.0);
    }

    @Test
    void cgiAgainstFastcgiIsTheRatioTheRoundsHold() throws IOException {
        Map<String, Double> multiples = new LinkedHashMap<>();
        multiples.put("static", 1.0);
        multiples.put("module", 0.8);
        multiples.put("fastcgi", 3.0);
        multiples.put("cgi", 30.0);
        Answer answer = Answers.processPerRequest(oneServer(multiples));
        Answer.Figure headline = answer.figures().get(0);
        assertEquals("cgi / fastcgi", headline.name());
        assertEquals(10, headline.value(), 0.3);
        assertEquals(8, headline.rounds());
        assertTrue(answer.sentence().startsWith("cgi costs 10 × what fastcgi costs on nginx (± "), answer.sentence());
        assertTrue(answer.sentence().contains("8 rounds at 2,000 req/s achieved at 8 clients"), answer.sentence());
        assertEquals(List.of("static", "module", "fastcgi", "cgi"), answer.rows().stream().map(r -> r.get(0)).toList());
        assertEquals("1", answer.rows().get(0).get(2));
        assertTrue(answer.rows().get(3).get(2).startsWith("30."), answer.rows().get(3).toString());
        assertEquals(List.of("module", "fastcgi", "cgi"), answer.chart().categories());
    }

    /** Question 6 with the ASGI servers in the run: uvicorn against WSGI said after the headline, its figure third. */
    @Test
    void runtimesSayAsgiAgainstWsgiWhereTheRunHasIt() throws IOException {
        Map<String, Double> multiples = new LinkedHashMap<>();
        multiples.put("static", 1.0);
        multiples.put("lua", 1.0);
        multiples.put("php-fpm", 3.0);
        multiples.put("wsgi", 2.5);
        multiples.put("asgi-granian", 3.0);
        multiples.put("asgi-uvicorn", 5.0);
        Answer answer = Answers.runtimes(oneServer(multiples));
        assertEquals(List.of("php-fpm / lua", "wsgi / lua", "asgi-uvicorn / wsgi"),
                answer.figures().subList(0, 3).stream().map(Answer.Figure::name).toList());
        assertEquals(2, answer.figures().get(2).value(), 0.1);
        assertTrue(answer.sentence().contains(" The same page as an ASGI application in uvicorn costs 2.0 × what wsgi costs"
                + " (± "), answer.sentence());
        assertEquals(List.of("static", "lua", "php-fpm", "wsgi", "asgi-uvicorn", "asgi-granian"),
                answer.rows().stream().map(r -> r.get(0)).toList());
        multiples.remove("asgi-uvicorn");
        multiples.remove("asgi-granian");
        Answer without = Answers.runtimes(oneServer(multiples));
        assertFalse(without.sentence().contains("ASGI"), without.sentence());
        assertEquals("wsgi / lua", without.figures().get(1).name());
    }

    /**
     * A ratio whose interval holds 1 is said as the same cost, within the farthest end of its interval (issue 61: Q3
     * had said "JSP costs 1.1 ×" from 1.052 ± 5.0 %); one that does not, as its multiple.
     */
    @Test
    void aRatioWhoseIntervalHoldsOneIsTheSameCost() throws IOException {
        Map<String, Double> multiples = new LinkedHashMap<>();
        multiples.put("static", 1.0);
        multiples.put("servlet", 0.9);
        multiples.put("jsp", 0.9);
        multiples.put("shtml", 1.6);
        Answer answer = Answers.templates(oneServer(multiples));
        assertTrue(answer.sentence().startsWith("A JSP page costs what the servlet costs (the same within ± "),
                answer.sentence());
        assertTrue(answer.sentence().contains("SSI costs 1.6 × what the static file costs ("), answer.sentence());
    }

    @Test
    void aConnectionAgainstAKeptOneIsPairedAcrossArmsOfOneServer() throws IOException {
        List<CpuSlice> slices;
        CpuRounds rounds = new CpuRounds(8, 0.05, 90, "every probe within its precision", List.of());
        for (int r = 0; r < 8; r++) {
            double drift = 1 + (r % 2 == 0 ? 0.03 : -0.03);
            slices = new ArrayList<>();
            for (String server : List.of("tomcat", "jetty")) {
                double each = server.equals("tomcat") ? 60 : 66;
                for (String probe : List.of("static", "servlet", "module")) {
                    slices.add(taken(server + ":http1.0", probe, each * drift));
                    slices.add(taken(server + ":keepalive", probe, each / 2.5 * drift * (1 + (r % 3 - 1) * 0.01)));
                }
            }
            rounds = rounds.with(new CpuRounds.Round(r + 1, slices), "every probe within its precision");
        }
        Path run = Files.createDirectories(dir.resolve("two/20261127-000000"));
        CrossResults.write(run, List.of(new Results.Member("tomcat", "tomcat", CpuFrom.of(false, true), "tomcat"),
                new Results.Member("jetty", "jetty", CpuFrom.of(false, true), "jetty")),
                List.of(Protocol.HTTP10, Protocol.KEEPALIVE), List.of(rounds));
        Answer answer = CrossAnswers.connection(dir.resolve("two"));
        assertEquals("tomcat static connection / kept", answer.figures().get(0).name());
        assertEquals(2.5, answer.figures().get(0).value(), 0.06);
        assertTrue(answer.sentence().startsWith("A connection per request costs tomcat's static file 2.5 × what a kept"
                + " connection costs (± "), answer.sentence());
        assertTrue(answer.sentence().contains("jetty's 2.5 ×"), answer.sentence());
        assertEquals(6, answer.rows().size());
        Answer modules = CrossAnswers.modules(dir.resolve("two"));
        assertTrue(modules.sentence().contains("the servers differ more than that: jetty's static file costs 1.1 × what"
                + " tomcat's costs"), modules.sentence());
        // kept, the request costs 1 / 2.5 of a connection's: the connection is the other 60 %, its interval around it
        assertTrue(answer.sentence().matches(".*: opening and closing it is 60 % \\(59\\.[0-9] to 60\\.[0-9] %\\) of that request's"
                + " server CPU;.*"), answer.sentence());
    }

    /** Tomcat's h2c 1.2 × its kept connection's, h2 1.4 ×; nginx's h2c the same as kept, h2 1.1 ×. */
    @Test
    void http2AgainstAKeptConnectionIsPairedAcrossArmsOfOneServer() throws IOException {
        CpuRounds rounds = new CpuRounds(8, 0.05, 90, "every probe within its precision", List.of());
        for (int r = 0; r < 8; r++) {
            double drift = 1 + (r % 2 == 0 ? 0.03 : -0.03);
            List<CpuSlice> slices = new ArrayList<>();
            for (String server : List.of("tomcat", "nginx")) {
                double kept = server.equals("tomcat") ? 60 : 30;
                double h2c = server.equals("tomcat") ? 1.2 : 1.0;
                double h2 = server.equals("tomcat") ? 1.4 : 1.1;
                for (String probe : List.of("static", "servlet", "module")) {
                    double noise = 1 + (r % 3 - 1) * 0.01;
                    slices.add(taken(server + ":keepalive", probe, kept * drift));
                    slices.add(taken(server + ":h2", probe, kept * h2 * drift * noise));
                    slices.add(taken(server + ":h2c", probe, kept * h2c * drift / noise));
                }
            }
            rounds = rounds.with(new CpuRounds.Round(r + 1, slices), "every probe within its precision");
        }
        Path run = Files.createDirectories(dir.resolve("h2/20261129-000000"));
        CrossResults.write(run, List.of(new Results.Member("tomcat", "tomcat", CpuFrom.of(false, true), "tomcat"),
                new Results.Member("nginx", "nginx", CpuFrom.of(false, true), "nginx")),
                List.of(Protocol.KEEPALIVE, Protocol.H2, Protocol.H2C), List.of(rounds));
        Answer answer = CrossAnswers.multiplexing(dir.resolve("h2"));
        assertEquals(6, answer.rows().size());
        assertEquals("tomcat static h2c / kept", answer.figures().get(0).name());
        assertEquals(1.2, answer.figures().get(0).value(), 0.02);
        assertEquals(1.4, answer.figures().get(1).value(), 0.03);
        assertTrue(answer.sentence().startsWith("Over h2c, tomcat's static file costs 1.2 × what a kept HTTP/1.1"
                + " connection costs (± "), answer.sentence());
        assertTrue(answer.sentence().contains("; over h2, 1.4 × (± "), answer.sentence());
        assertTrue(answer.sentence().matches(".*; nginx's the same within ± [0-9.]+ % \\(± [0-9.]+ %\\) and"
                + " 1\\.1 ×\\."), answer.sentence());
    }

    @Test
    void theNextQuestionsRunWithoutWhatTheyReadIsNoAnswerThatSaysWhy() throws IOException {
        Map<String, Double> multiples = new LinkedHashMap<>();
        multiples.put("static", 1.0);
        Path one = oneServer(multiples);
        assertTrue(assertThrows(IOException.class, () -> Answers.jit(one)).getMessage().contains("no warm-up record"));
        assertTrue(assertThrows(IOException.class, () -> CurveAnswers.latency(one)).getMessage().contains("no latency profile"));
        assertTrue(assertThrows(IOException.class, () -> CurveAnswers.pageSize(one)).getMessage().contains("no sweep.json"));
        assertTrue(assertThrows(IOException.class, () -> Answers.templates(dir.resolve("none"))).getMessage()
                .contains("its run did not start"));
    }

    @Test
    void thePageAndAClassCarryEveryAnswer() throws IOException {
        Map<String, Double> multiples = new LinkedHashMap<>();
        multiples.put("static", 1.0);
        multiples.put("fastcgi", 3.0);
        multiples.put("cgi", 30.0);
        Answer answer = Answers.processPerRequest(oneServer(multiples));
        Question q = Questions.number(1);
        LessonRecord.Entry entry = new LessonRecord.Entry(1, q.title(), q.isolates(), q.predict(), q.notice(), q.needs(),
                LessonRecord.ANSWERED, null, List.of(q.quick().command()), answer, "q1.png");
        LessonRecord.Entry skipped = new LessonRecord.Entry(7, "t", "i", "p", "n", "needs", LessonRecord.SKIPPED,
                "this machine lacks it: scripts/spice server install tomcat", List.of("scripts/spice lesson --questions 7"),
                null, null);
        LessonRecord lesson = new LessonRecord(LessonRecord.SCHEMA, "scripts/spice lesson --questions 1,7", true,
                "2026-11-27T00:00:00Z", "2026-11-27T00:05:00Z", false, null, LessonRecord.Machine.here(),
                List.of(), List.of(entry, skipped));
        Path page = Files.createDirectories(dir.resolve("lesson"));
        lesson.write(page);
        LessonPage.write(LessonRecord.read(page), page);
        String html = Files.readString(page.resolve(LessonPage.HTML));
        String md = Files.readString(page.resolve(LessonPage.MARKDOWN));
        for (String text : List.of(HtmlReport.esc(answer.sentence()), "scripts/spice server install tomcat", "Predict first")) {
            assertTrue(html.contains(text), "the page has " + text);
        }
        assertTrue(md.contains("**" + answer.sentence() + "**") && md.contains("| cgi | "), md);
        for (String student : List.of(Files.readString(page.resolve(LessonPage.STUDENT_HTML)),
                Files.readString(page.resolve(LessonPage.STUDENT_MARKDOWN)))) {
            assertTrue(student.contains("Predict first") && student.contains("scripts/spice lesson --questions 7"),
                    "the student's copy has every prompt and command: " + student);
            assertFalse(student.contains(answer.sentence()) || student.contains("cgi") && student.contains("| cgi | ")
                    || student.contains("What to notice") || student.contains("<table"), "and no answer: " + student);
        }

        Path other = Files.createDirectories(dir.resolve("other"));
        lesson.write(other);
        List<LessonCompare.Table> tables = LessonCompare.tables(List.of(page, other), LessonCompare.read(List.of(page, other)));
        assertEquals(List.of(1, 7), tables.stream().map(LessonCompare.Table::number).toList());
        assertEquals(2, tables.get(0).rows().size());
        assertEquals(answer.figures().get(0).text(), tables.get(0).rows().get(1).get(3));
        assertEquals(LessonRecord.SKIPPED, tables.get(1).rows().get(0).get(2));
        Files.writeString(other.resolve(LessonRecord.FILE), "{\"schema\": \"spice-lesson/1\",\n \"questions\": [}");
        assertTrue(assertThrows(IOException.class, () -> LessonCompare.read(List.of(other))).getMessage().contains("line 2"));
    }
}
