package org.spice.testkit;

/** What a test reads of an answer printed at a terminal's width. */
public final class Text {

    private Text() {
    }

    /**
     * {@code printed} with every line that goes on from the one before (broken between two words, indented) joined to
     * it by a space: a sentence whole, wherever the terminal's width broke it.
     */
    public static String unwrapped(String printed) {
        return printed.replaceAll("\n {4,}", " ");
    }
}
