package org.spice.lesson;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

import org.spice.bench.report.BarChart;
import org.spice.bench.run.Recorder;

/**
 * A lesson's phases, top to bottom: the plan (said before anything runs), the runs, each question's answer read from
 * its run, then lesson.json and the page. Or, with {@code --compare}, several lessons side by side.
 */
public final class Lesson {

    /** The folder of a lesson's runs, each in a folder named by its step. */
    static final String RUNS = "runs";

    private final List<Question> questions;
    private final boolean quick;
    private final Path root;
    private final String command;
    private final List<String> extra;
    private final PrintStream out;
    private final PrintStream err;

    /**
     * @param extra options every step takes in place of its own of the same name ("--name value" pairs), from
     *              {@code SPICE_LESSON_OPTIONS}: a test's short runs, or a slower machine's longer ones
     */
    public Lesson(List<Question> questions, boolean quick, Path root, String command, List<String> extra,
            PrintStream out, PrintStream err) {
        this.questions = List.copyOf(questions);
        this.quick = quick;
        this.root = root;
        this.command = command;
        this.extra = List.copyOf(extra);
        this.out = out;
        this.err = err;
    }

    /** Plans, runs and writes the lesson into {@code dir} (default lesson/TIME); its exit status. */
    public int run(Path dir, boolean dryRun) throws IOException {
        // as root, what a question needs is installed first (scripts/spice server install NAME), as test and bench do
        List<String> installs = LessonPlan.installsHere() ? LessonPlan.missing(questions, quick, root) : List.of();
        if (dryRun) {
            LessonPlan.of(questions, quick, root, extra, installs).print(err);
            if (!installs.isEmpty()) {
                err.println("  first, as root, it installs " + String.join(", ", installs) + " (scripts/spice server"
                        + " install NAME; their time not counted above)");
            }
            return 0;
        }
        LessonPlan.install(installs, root, err);
        LessonPlan plan = LessonPlan.of(questions, quick, root, extra);
        plan.print(err);
        Path page = dir != null ? dir : Path.of("lesson", Recorder.stamp());
        Files.createDirectories(page);
        String started = now();
        LessonRun runs = new LessonRun(root, err);
        List<LessonRun.Outcome> outcomes = runs.run(plan, page.resolve(RUNS));
        List<LessonRecord.Entry> entries = new ArrayList<>();
        for (Question question : questions) {
            entries.add(entry(question, plan, outcomes, page));
        }
        String stopped = runs.stoppedBy();
        LessonRecord lesson = new LessonRecord(LessonRecord.SCHEMA, command, quick, started, now(), stopped != null,
                stopped == null ? null : "the lesson was " + stopped + "; runs not made are marked, answers of a run"
                        + " cut short are marked partial", LessonRecord.Machine.here(), outcomes, entries);
        int status = written(lesson, page, out);
        return runs.signalStatus() != 0 ? runs.signalStatus() : status;
    }

    /** One question's entry: skipped, unanswered (why), or its answer read from its run and its chart drawn. */
    private LessonRecord.Entry entry(Question q, LessonPlan plan, List<LessonRun.Outcome> outcomes, Path page) {
        Step step = plan.stepOf(q);
        String alone = "scripts/spice lesson --questions " + q.number() + (quick ? " --quick" : "");
        if (step == null) {
            return entry(q, LessonRecord.SKIPPED, "this machine lacks it: " + plan.skipped().get(q.number()),
                    List.of(q.step(quick).command(), alone), null, null);
        }
        List<String> commands = List.of(step.command(), alone);
        LessonRun.Outcome outcome = outcomes.stream().filter(o -> o.id().equals(step.id())).findFirst().orElseThrow();
        return answered(q, outcome, commands, page, quick, err);
    }

    /**
     * A question's entry from its run's outcome: not run, or its answer read from the run's results under the lesson's
     * runs/ (partial where the run was stopped or failed; no answer, and why, where none could be read).
     */
    private static LessonRecord.Entry answered(Question q, LessonRun.Outcome outcome, List<String> commands, Path page,
            boolean quick, PrintStream err) {
        if (outcome.status().equals(LessonRun.Outcome.NOT_RUN)) {
            return entry(q, LessonRecord.NO_ANSWER, "not run: the lesson was stopped before it", commands, null, null);
        }
        try {
            Path runDir = page.resolve(RUNS).resolve(outcome.id());
            Answer read = q.reading().read(runDir);
            Answer answer = read.withNote(Precision.of(runDir, read, quick));
            String chart = "q" + q.number() + ".png";
            Files.write(page.resolve(chart), BarChart.png(answer.chart()));
            boolean done = outcome.status().equals(LessonRun.Outcome.DONE);
            return entry(q, done ? LessonRecord.ANSWERED : LessonRecord.PARTIAL, done ? null : "Partial: its run "
                    + (outcome.status().equals(LessonRun.Outcome.STOPPED) ? "was stopped" : "failed") + " (exit "
                    + outcome.exit() + "); the figures are what it measured before.", commands, answer, chart);
        } catch (IOException | RuntimeException e) {
            err.println("spice lesson: question " + q.number() + ": no answer: " + e.getMessage());
            return entry(q, LessonRecord.NO_ANSWER, "its run (" + outcome.status() + ") gave no answer: "
                    + e.getMessage(), commands, null, null);
        }
    }

    /**
     * The lesson in {@code dir} read again from its runs, as this SPICE reads them (after an upgrade, or a fix in how
     * an answer is read): its answers, lesson.json and the page rewritten, its runs, times and machine kept.
     */
    public static int rewrite(Path dir, PrintStream out, PrintStream err) {
        try {
            LessonRecord old = LessonRecord.read(dir);
            List<LessonRecord.Entry> entries = new ArrayList<>();
            for (LessonRecord.Entry e : old.questions()) {
                Question q = Questions.number(e.number());
                LessonRun.Outcome outcome = old.runs().stream().filter(o -> o.questions().contains(e.number()))
                        .findFirst().orElse(null);
                List<String> commands = e.commands().stream().map(Step::shown).toList();
                entries.add(q == null || outcome == null ? e : answered(q, outcome, commands, dir, old.quick(), err));
            }
            // a lesson written before the commands named no machine's JDK folder gets them as they are written now
            List<LessonRun.Outcome> runs = old.runs().stream().map(o -> new LessonRun.Outcome(o.id(),
                    Step.shown(o.command()), o.questions(), o.status(), o.exit(), o.seconds(), o.dir())).toList();
            LessonRecord lesson = new LessonRecord(old.schema(), old.command(), old.quick(), old.startedAt(),
                    old.finishedAt(), old.partial(), old.partialReason(), old.machine(), runs, entries);
            return written(lesson, dir, out);
        } catch (IOException e) {
            err.println("spice lesson: " + e.getMessage());
            return 1;
        }
    }

    /** lesson.json and the page in {@code dir}, each answer said; 1 where a question has none, else 0. */
    private static int written(LessonRecord lesson, Path dir, PrintStream out) throws IOException {
        lesson.write(dir);
        LessonPage.write(lesson, dir);
        for (LessonRecord.Entry entry : lesson.questions()) {
            out.println(entry.number() + ". " + entry.title() + " " + (entry.hasAnswer() ? entry.answer().sentence()
                    : entry.status() + ": " + entry.why()));
        }
        out.println("lesson: " + dir.resolve(LessonPage.HTML).toAbsolutePath());
        return lesson.questions().stream().anyMatch(e -> e.status().equals(LessonRecord.NO_ANSWER)) ? 1 : 0;
    }

    private static LessonRecord.Entry entry(Question q, String status, String why, List<String> commands, Answer answer,
            String chart) {
        return new LessonRecord.Entry(q.number(), q.title(), q.isolates(), q.predict(), q.notice(), q.needs(), status, why,
                commands, answer, chart);
    }

    /** Several lessons side by side into {@code dir} (default lesson/class-TIME); its exit status. */
    public static int compare(List<Path> dirs, Path dir, PrintStream out, PrintStream err) {
        try {
            List<LessonCompare.Table> tables = LessonCompare.tables(dirs, LessonCompare.read(dirs));
            Path into = dir != null ? dir : Path.of("lesson", "class-" + Recorder.stamp());
            LessonCompare.write(tables, into);
            out.print(LessonCompare.markdown(tables));
            out.println("class: " + into.resolve(LessonCompare.HTML).toAbsolutePath());
            return 0;
        } catch (IOException e) {
            err.println("spice lesson: " + e.getMessage());
            return 1;
        }
    }

    private static String now() {
        return OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
