package org.spice.lesson;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import org.spice.bench.report.HtmlReport;

/**
 * A class: several students' lessons side by side, one row per machine for each question's headline figure (the first
 * of its answer's figures), so that the class sees which shapes hold while the microseconds differ.
 */
final class LessonCompare {

    static final String MARKDOWN = "class.md";
    static final String HTML = "class.html";

    private LessonCompare() {
    }

    /** The lessons in {@code dirs}, read; a folder without a lesson is an IOException that names it. */
    static List<LessonRecord> read(List<Path> dirs) throws IOException {
        List<LessonRecord> lessons = new ArrayList<>();
        for (Path dir : dirs) {
            lessons.add(LessonRecord.read(dir));
        }
        return lessons;
    }

    /** Per question, a row per lesson: who ran it, the headline figure with its interval, its rounds and its load. */
    static List<Table> tables(List<Path> dirs, List<LessonRecord> lessons) {
        TreeSet<Integer> numbers = new TreeSet<>();
        lessons.forEach(l -> l.questions().forEach(q -> numbers.add(q.number())));
        List<Table> tables = new ArrayList<>();
        for (int number : numbers) {
            String title = null;
            String figure = null;
            List<List<String>> rows = new ArrayList<>();
            for (int i = 0; i < lessons.size(); i++) {
                LessonRecord lesson = lessons.get(i);
                LessonRecord.Entry q = lesson.questions().stream().filter(e -> e.number() == number).findFirst().orElse(null);
                if (q == null) {
                    continue;
                }
                title = q.title();
                LessonRecord.Machine m = lesson.machine();
                String who = dirs.get(i).getFileName() + ": " + m.host() + ", " + m.cores() + " cores";
                if (!q.hasAnswer() || q.answer().figures().isEmpty()) {
                    rows.add(List.of(who, lesson.startedAt(), q.status(), "-", "", ""));
                    continue;
                }
                Answer.Figure headline = q.answer().figures().get(0);
                figure = figure == null ? headline.name() : figure;
                rows.add(List.of(who, lesson.startedAt(), headline.name(), headline.text(),
                        headline.rounds() > 0 ? Integer.toString(headline.rounds()) : "not paired", headline.load()));
            }
            tables.add(new Table(number, title, rows));
        }
        return tables;
    }

    /** One question across the class. */
    record Table(int number, String title, List<List<String>> rows) {
        static final List<String> HEADER = List.of("lesson: machine", "started", "figure", "value (95 % interval)",
                "rounds", "load");
    }

    static String markdown(List<Table> tables) {
        StringBuilder md = new StringBuilder("# A class's lessons side by side\n\n");
        for (Table t : tables) {
            md.append("## ").append(t.number()).append(". ").append(t.title()).append("\n\n| ")
                    .append(String.join(" | ", Table.HEADER)).append(" |\n|---|---|---|---|---|---|\n");
            t.rows().forEach(r -> md.append("| ").append(String.join(" | ", r)).append(" |\n"));
            md.append("\n");
        }
        return md.toString();
    }

    static String html(List<Table> tables) {
        StringBuilder page = new StringBuilder("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>SPICE:"
                + " a class's lessons</title><style>body{font-family:system-ui,sans-serif;max-width:1000px;margin:2em auto;"
                + "padding:0 1em}table{border-collapse:collapse}th,td{border:1px solid #ccc;padding:.25em .5em}</style>"
                + "</head><body><h1>A class's lessons side by side</h1>\n");
        for (Table t : tables) {
            page.append("<h2>").append(t.number()).append(". ").append(HtmlReport.esc(t.title())).append("</h2><table><tr>");
            Table.HEADER.forEach(h -> page.append("<th>").append(HtmlReport.esc(h)).append("</th>"));
            page.append("</tr>");
            for (List<String> row : t.rows()) {
                page.append("<tr>");
                row.forEach(c -> page.append("<td>").append(HtmlReport.esc(c)).append("</td>"));
                page.append("</tr>");
            }
            page.append("</table>\n");
        }
        return page.append("</body></html>\n").toString();
    }

    static void write(List<Table> tables, Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(MARKDOWN), markdown(tables), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve(HTML), html(tables), StandardCharsets.UTF_8);
    }
}
