package org.spice.commands;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import org.spice.bench.plan.PlanCommands;
import org.spice.cli.Cli;
import org.spice.lesson.Lesson;
import org.spice.lesson.Question;
import org.spice.lesson.Questions;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code spice lesson}: the teaching page as a command. One plan for the chosen questions, each run once however many
 * questions it answers, said before it starts; then the runs, and the page made from their results.
 */
@Command(name = "lesson", sortOptions = false, mixinStandardHelpOptions = true,
        description = {"Answer the lesson's eleven questions about what a server-side interface costs, with one plan of"
                + " runs (a run shared by the questions it answers), and write the class's page: LESSON/index.html,"
                + " lesson.json with every figure, lesson.md for printing.",
            "A question whose server or JDK is missing is skipped with the command that installs it; the rest go on."
                + " Ctrl-C or SIGTERM stops the run under way as bench stops, and the page is written from what was"
                + " measured, marked partial."})
public final class LessonCommand extends Cli.Printing implements Callable<Integer> {

    /** The environment variable of options every run takes in place of its own. */
    static final String EXTRA = "SPICE_LESSON_OPTIONS";

    @Spec
    CommandSpec spec;

    @Option(names = "--questions", paramLabel = "LIST", split = ",", description = "The questions, 1 to 11 (default:"
            + " all).")
    List<Integer> questions;

    @Option(names = "--quick", description = "Shorter runs: a class's afternoon rather than bench's full defaults"
            + " (--dry-run says how long this machine's plan takes).")
    boolean quick;

    @Option(names = "--dry-run", description = "Say what would run, on which servers and for about how long; run nothing.")
    boolean dryRun;

    @Option(names = "--out", paramLabel = "DIR", description = "Where the page goes (default lesson/TIME; with"
            + " --compare, lesson/class-TIME).")
    Path outDir;

    @Option(names = "--compare", paramLabel = "DIR", arity = "1..*", description = "Set these lessons side by side, a"
            + " row per machine for each question's headline figure: class.html and class.md (nothing is run).")
    List<Path> compare;

    @Option(names = "--rewrite", paramLabel = "DIR", description = "Read the lesson in DIR again from its runs, as this"
            + " SPICE reads them, and write its lesson.json and page again (nothing is run).")
    Path rewrite;

    @Override
    public Integer call() throws Exception {
        Cli.Checks check = new Cli.Checks(spec);
        if (rewrite != null) {
            if (questions != null || quick || dryRun || compare != null || outDir != null) {
                throw check.fail("--rewrite reads a lesson already made: it goes alone");
            }
            return Lesson.rewrite(rewrite, out, err);
        }
        if (compare != null) {
            if (questions != null || quick || dryRun) {
                throw check.fail("--compare reads lessons already made: it goes without --questions, --quick and --dry-run");
            }
            return Lesson.compare(compare, outDir, out, err);
        }
        List<Integer> chosen = questions == null ? Questions.ALL.stream().map(Question::number).toList() : questions;
        for (int number : chosen) {
            if (Questions.number(number) == null) {
                throw check.fail("--questions takes numbers from 1 to " + Questions.ALL.size() + ", not " + number);
            }
        }
        if (chosen.stream().distinct().count() != chosen.size()) {
            throw check.fail("--questions names a question twice: " + chosen);
        }
        List<String> extra = extraOptions(check);
        List<String> given = spec.commandLine().getParseResult().originalArgs();
        // from the top command's line, which names this one first
        int from = given.indexOf(spec.name()) + 1;
        String command = "scripts/spice lesson " + String.join(" ", given.subList(from, given.size()));
        return new Lesson(chosen.stream().sorted().map(Questions::number).toList(), quick, PlanCommands.projectRoot(),
                command.strip(), extra, out, err).run(outDir, dryRun);
    }

    /** SPICE_LESSON_OPTIONS: "--name value" pairs every run takes in place of its own (a test's short runs). */
    private static List<String> extraOptions(Cli.Checks check) {
        String text = System.getenv(EXTRA);
        if (text == null || text.isBlank()) {
            return List.of();
        }
        List<String> words = List.of(text.strip().split("\\s+"));
        for (int i = 0; i < words.size(); i += 2) {
            if (!words.get(i).startsWith("--") || i + 1 >= words.size() || words.get(i + 1).startsWith("--")) {
                throw check.fail(EXTRA + " takes \"--name value\" pairs (an option with its value), not \"" + text + "\"");
            }
        }
        return words;
    }
}
