package org.spice.lesson;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.spice.harness.Main;

import picocli.CommandLine;

/** A command as the lesson's page prints it, parsed as scripts/spice parses it: its environment, then the harness's. */
public final class LessonCommands {

    private LessonCommands() {
    }

    /** Fails unless {@code command} is "[NAME=value ...] scripts/spice COMMAND OPTIONS" that the harness parses. */
    public static void assertParses(String command) {
        List<String> words = new ArrayList<>(Arrays.asList(command.strip().split("\\s+")));
        while (!words.isEmpty() && words.get(0).matches("[A-Z_][A-Z0-9_]*=\\S+")) {
            words.remove(0);
        }
        assertTrue(!words.isEmpty() && words.get(0).equals("scripts/spice"), "a scripts/spice command: " + command);
        try {
            new CommandLine(new Main()).parseArgs(words.subList(1, words.size()).toArray(String[]::new));
        } catch (CommandLine.ParameterException e) {
            fail("\"" + command + "\" does not parse: " + e.getMessage());
        }
    }
}
