package org.spice.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.testkit.CommandRun;

/** lesson's options are checked before anything is planned, run or written; a folder without a lesson is named. */
@Tag("unit")
class LessonCommandTest {

    @TempDir
    Path dir;

    private String refused(String... args) {
        CommandRun ran = CommandRun.of(new LessonCommand(), args);
        assertEquals(2, ran.status(), ran.console());
        assertFalse(ran.console().contains("spice lesson: 9 questions"), "no plan for a wrong command line: " + ran);
        return ran.console();
    }

    @Test
    void wrongOptionsAreRefusedBeforeAnyPlan() {
        assertTrue(refused("--questions", "12").contains("--questions takes numbers from 1 to 11, not 12"));
        assertTrue(refused("--questions", "0,3").contains("not 0"));
        assertTrue(refused("--questions", "3,3").contains("names a question twice"));
        assertTrue(refused("--questions", "three").contains("--questions"));
        assertTrue(refused("--compare", "a", "--quick").contains("--compare reads lessons already made"));
        assertTrue(refused("--rewrite", "a", "--questions", "3").contains("--rewrite reads a lesson already made"));
    }

    @Test
    void aFolderWithoutALessonIsNamed() throws Exception {
        Path empty = Files.createDirectories(dir.resolve("empty"));
        CommandRun ran = CommandRun.of(new LessonCommand(), "--compare", empty.toString(), "--out", dir.resolve("class").toString());
        assertEquals(1, ran.status(), ran.console());
        assertTrue(ran.err().contains(empty + " holds no lesson.json"), ran.err());
        assertFalse(Files.exists(dir.resolve("class")), "nothing written");
        ran = CommandRun.of(new LessonCommand(), "--rewrite", empty.toString());
        assertEquals(1, ran.status(), ran.console());
        assertTrue(ran.err().contains("holds no lesson.json"), ran.err());
    }
}
