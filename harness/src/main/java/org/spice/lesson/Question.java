package org.spice.lesson;

import java.io.IOException;
import java.nio.file.Path;

/**
 * One question of the lesson: what it asks, what it isolates, the prompt a student answers before reading on, what to
 * notice once the figures are in, the run that answers it ({@code --quick}, or in full), and how its answer is read
 * from that run's results. The texts carry no figure: every figure on the page comes from a run.
 *
 * @param number   its number, 1 to 11
 * @param needs    what it needs beyond the build, in words (a server, a JDK, root)
 */
public record Question(int number, String title, String isolates, String predict, String notice, String needs,
        Step quick, Step full, Reading reading) {

    /** How an answer is read from the results its step wrote under a folder. */
    @FunctionalInterface
    public interface Reading {
        Answer read(Path results) throws IOException;
    }

    /** The step of this question: the quick one or the full one. */
    public Step step(boolean quickly) {
        return quickly ? quick : full;
    }
}
