package org.spice.lesson;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The lesson's plan: a run shared by the questions it answers, a question whose server or JDK is missing skipped with
 * the command that installs it, the JDK filled into the command that needs it, a test's options in place of a step's
 * own; and every command the page can show parses as scripts/spice parses it.
 */
@Tag("unit")
class LessonPlanTest {

    private static final String JDK = "/usr/lib/jvm/a-jdk-25";

    @Test
    void theElevenQuestionsShareSevenRuns() {
        LessonPlan plan = LessonPlan.of(Questions.ALL, true, server -> "", JDK, List.of());
        assertEquals(List.of("nginx-interfaces", "four-servers", "embedded", "page-sizes", "threads", "latency",
                "http2"),
                plan.steps().stream().map(Step::id).toList());
        assertEquals(List.of(1, 6, 11), plan.answeredBy(plan.steps().get(0)));
        assertEquals(List.of(2, 8), plan.answeredBy(plan.steps().get(1)));
        assertEquals(List.of(3, 4), plan.answeredBy(plan.steps().get(2)));
        assertTrue(plan.skipped().isEmpty());
        assertEquals(plan.steps().stream().mapToInt(Step::minutes).sum(), plan.minutes());
        assertTrue(plan.minutes() <= 45, "--quick's eleven in 45 minutes at most, by the steps' own estimates: "
                + plan.minutes());
        Step threads = plan.steps().get(4);
        assertTrue(threads.command().startsWith("SPICE_JAVA_HOME=" + Step.JDK_21_SHOWN + " scripts/spice bench --server"
                + " tomcat,tomcat-vt"), "the reader's command names what the JDK must be, not this machine's folder: "
                + threads.command());
        assertEquals(Map.of("SPICE_JAVA_HOME", JDK), threads.env(), "the run itself gets the folder the plan found");
        assertEquals("SPICE_JAVA_HOME=" + Step.JDK_21_SHOWN + " scripts/spice bench", Step.shown("SPICE_JAVA_HOME="
                + Step.JDK_21 + " scripts/spice bench"), "a step not filled in (a question skipped) is shown whole");
    }

    @Test
    void aQuestionWhoseServerIsMissingIsSkippedWithItsInstallCommandAndTheRestGoOn() {
        LessonPlan plan = LessonPlan.of(Questions.ALL, true,
                server -> server.equals("nginx") ? "scripts/spice server install nginx" : "", null, List.of());
        assertEquals(List.of(1, 2, 6, 7, 8, 10, 11), List.copyOf(plan.skipped().keySet()));
        assertEquals("scripts/spice server install nginx", plan.skipped().get(1));
        assertTrue(plan.skipped().get(7).contains("a JDK 21 or later"), plan.skipped().get(7));
        assertEquals(List.of("embedded", "page-sizes", "latency"), plan.steps().stream().map(Step::id).toList());
        assertNull(plan.stepOf(Questions.number(1)));
        assertEquals("embedded", plan.stepOf(Questions.number(4)).id());
    }

    @Test
    void theChosenQuestionsAloneAndTheirRunInFull() {
        LessonPlan plan = LessonPlan.of(List.of(Questions.number(3)), false, server -> "", JDK, List.of());
        assertEquals(1, plan.steps().size());
        assertEquals(Questions.EMBEDDED_FULL.args(), plan.steps().get(0).args());
        assertEquals(List.of(3), plan.answeredBy(plan.steps().get(0)));
    }

    @Test
    void optionsGivenForEveryRunTakeTheirPlace() {
        LessonPlan plan = LessonPlan.of(List.of(Questions.number(3)), true, server -> "", JDK,
                List.of("--cpu-time", "20", "--warm-up", "5"));
        List<String> args = plan.steps().get(0).args();
        assertEquals("20", args.get(args.indexOf("--cpu-time") + 1));
        assertEquals(1, args.stream().filter("--cpu-time"::equals).count(), "replaced, not given twice: " + args);
        assertEquals("5", args.get(args.indexOf("--warm-up") + 1));
    }

    @Test
    void everyCommandOfEveryQuestionParses() {
        for (Question q : Questions.ALL) {
            for (Step step : List.of(q.quick(), q.full())) {
                LessonCommands.assertParses(step.filled(Map.of(Step.JDK_21, JDK)).command());
            }
            LessonCommands.assertParses("scripts/spice lesson --questions " + q.number() + " --quick");
        }
    }
}
