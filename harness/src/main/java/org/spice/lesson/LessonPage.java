package org.spice.lesson;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.spice.bench.report.HtmlReport;

/**
 * The class's page, index.html, and lesson.md for printing, both from lesson.json: per question the question, what
 * it isolates, a prompt to predict before the answer (which opens on a click), the commands that answer it, the table
 * with its intervals, the chart, the answer in one sentence, and what to notice. Beside them the student's copy,
 * student.html and student.md: the questions, prompts and commands, no answer. Drawn as the report is (HtmlReport).
 */
final class LessonPage {

    static final String HTML = "index.html";
    static final String MARKDOWN = "lesson.md";

    static final String STUDENT_HTML = "student.html";
    static final String STUDENT_MARKDOWN = "student.md";

    /** The lesson's own, beside the report's style (HtmlReport.head). */
    private static final String STYLE = ".meta{color:#555;font-size:.9em}.partial{background:#fde8e8;border:1px solid #c33;"
            + "padding:.5em 1em}section{border-top:1px solid #ccc;margin-top:2em}.predict{background:#fff7d6;"
            + "border-left:4px solid #e0b000;padding:.5em 1em}pre{background:#f4f4f4;padding:.6em;overflow-x:auto;"
            + "white-space:pre-wrap;word-break:break-all}.answer{font-weight:600}.notes,.needs{color:#555;font-size:.9em}";

    private LessonPage() {
    }

    /** The teacher's page and its printable copy, with the answers, and the student's, without them. */
    static void write(LessonRecord lesson, Path dir) throws IOException {
        Files.writeString(dir.resolve(HTML), html(lesson, true), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve(MARKDOWN), markdown(lesson, true), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve(STUDENT_HTML), html(lesson, false), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve(STUDENT_MARKDOWN), markdown(lesson, false), StandardCharsets.UTF_8);
    }

    /** The page; without {@code answers}, the student's: each question, its prediction and its command only. */
    static String html(LessonRecord lesson, boolean answers) {
        StringBuilder page = new StringBuilder();
        HtmlReport.head(page, "SPICE lesson: what a server-side interface costs" + (answers ? "" : " (student's copy)"), STYLE);
        page.append("<h1>What a server-side interface costs</h1>\n<p class=\"meta\">").append(HtmlReport.esc(meta(lesson))).append("</p>\n")
                .append("<pre><code class=\"command\">").append(HtmlReport.esc(lesson.command())).append("</code></pre>\n");
        if (lesson.partial()) {
            page.append("<p class=\"partial\">Partial: ").append(HtmlReport.esc(lesson.partialReason())).append("</p>\n");
        }
        page.append("<p class=\"method\">Read <b>server CPU per request</b> first: on one machine the client takes about a core, so a"
                + " request rate mostly measures the client, and the CPU the server spent per request measures the"
                + " interface. Every comparison is a ratio paired round by round, with its 95 % interval: call a"
                + " difference a finding only when the interval says so; a figure printed without one had too few rounds for it."
                + " Predict each answer before you open it.</p>\n<ol>");
        for (LessonRecord.Entry q : lesson.questions()) {
            page.append("<li value=\"").append(q.number()).append("\"><a href=\"#q").append(q.number()).append("\">").append(HtmlReport.esc(q.title())).append("</a> (")
                    .append(HtmlReport.esc(q.status())).append(")</li>");
        }
        page.append("</ol>\n");
        for (LessonRecord.Entry q : lesson.questions()) {
            section(page, q, answers);
        }
        return page.append("</body></html>\n").toString();
    }

    private static void section(StringBuilder page, LessonRecord.Entry q, boolean answers) {
        page.append("<section id=\"q").append(q.number()).append("\"><h2>").append(q.number()).append(". ")
                .append(HtmlReport.esc(q.title())).append("</h2>\n<p class=\"isolates\">").append(HtmlReport.esc(q.isolates())).append("</p>\n")
                .append("<p class=\"needs\">Needs ").append(HtmlReport.esc(q.needs())).append(".</p>\n")
                .append("<p class=\"predict\"><b>Predict first.</b> ").append(HtmlReport.esc(q.predict())).append("</p>\n")
                .append("<p>The command that answers it, as it ran here:</p>\n");
        for (String command : q.commands()) {
            page.append("<pre><code class=\"command\">").append(HtmlReport.esc(command)).append("</code></pre>\n");
        }
        if (!answers) {
            page.append("<p>Your prediction, then what the command printed:</p></section>\n");
            return;
        }
        if (!q.hasAnswer()) {
            page.append("<p class=\"partial\">").append(HtmlReport.esc(q.status())).append(": ").append(HtmlReport.esc(q.why())).append("</p></section>\n");
            return;
        }
        Answer a = q.answer();
        page.append("<details><summary>The answer</summary>\n");
        if (q.why() != null) {
            page.append("<p class=\"partial\">").append(HtmlReport.esc(q.why())).append("</p>\n");
        }
        page.append("<p class=\"answer\">").append(HtmlReport.esc(a.sentence())).append("</p>\n");
        List<String[]> rows = new ArrayList<>();
        rows.add(a.header().toArray(String[]::new));
        a.rows().forEach(row -> rows.add(row.toArray(String[]::new)));
        HtmlReport.table(page, rows);
        if (q.chart() != null) {
            page.append("<p><img src=\"").append(HtmlReport.esc(q.chart())).append("\" alt=\"").append(HtmlReport.esc(a.chart().title()))
                    .append("\"></p>\n");
        }
        for (String note : a.notes()) {
            page.append("<p class=\"notes\">").append(HtmlReport.esc(note)).append("</p>\n");
        }
        page.append("<p><b>What to notice.</b> ").append(HtmlReport.esc(q.notice())).append("</p>\n</details></section>\n");
    }

    static String markdown(LessonRecord lesson, boolean answers) {
        StringBuilder md = new StringBuilder("# What a server-side interface costs\n\n").append(meta(lesson))
                .append("\n\n    ").append(lesson.command()).append("\n\n");
        if (lesson.partial()) {
            md.append("**Partial:** ").append(lesson.partialReason()).append("\n\n");
        }
        md.append("Every figure is the server's CPU per request; every comparison a ratio paired round by round, with its 95 %"
                + " interval (a figure printed without one had too few rounds for it).\n\n");
        for (LessonRecord.Entry q : lesson.questions()) {
            md.append("## ").append(q.number()).append(". ").append(q.title()).append("\n\n").append(q.isolates())
                    .append("\n\nNeeds ").append(q.needs()).append(".\n\n**Predict first.** ").append(q.predict())
                    .append("\n\n");
            for (String command : q.commands()) {
                md.append("    ").append(command).append("\n");
            }
            md.append("\n");
            if (!answers) {
                md.append("Your prediction, then what the command printed:\n\n\n\n");
                continue;
            }
            if (!q.hasAnswer()) {
                md.append("*").append(q.status()).append(": ").append(q.why()).append("*\n\n");
                continue;
            }
            Answer a = q.answer();
            if (q.why() != null) {
                md.append("*").append(q.why()).append("*\n\n");
            }
            md.append("**").append(a.sentence()).append("**\n\n| ").append(String.join(" | ", a.header())).append(" |\n|");
            a.header().forEach(h -> md.append("---|"));
            md.append("\n");
            a.rows().forEach(row -> md.append("| ").append(String.join(" | ", row)).append(" |\n"));
            md.append("\n");
            if (q.chart() != null) {
                md.append("![").append(a.chart().title()).append("](").append(q.chart()).append(")\n\n");
            }
            a.notes().forEach(n -> md.append(n).append("\n\n"));
            md.append("**What to notice.** ").append(q.notice()).append("\n\n");
        }
        return md.toString();
    }

    private static String meta(LessonRecord lesson) {
        LessonRecord.Machine m = lesson.machine();
        return "Made by scripts/spice lesson from " + lesson.startedAt() + " to " + lesson.finishedAt() + " on " + m.host()
                + " (" + m.cpu() + ", " + m.cores() + " cores, " + m.memoryGib() + " GiB, " + m.os() + ")"
                + (lesson.quick() ? ", --quick" : ", in full") + ".";
    }
}
