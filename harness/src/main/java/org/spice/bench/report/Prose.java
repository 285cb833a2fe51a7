package org.spice.bench.report;

import java.util.List;

/**
 * The answer's sentences and legends at a terminal's width: a line of prose longer than {@link #WIDTH} characters
 * goes on over lines indented by four spaces, broken between words. A table's row (its columns two spaces apart or
 * more) is left as it stands: a table is read across.
 */
final class Prose {

    /** The widest line the answer prints, where its words allow. */
    static final int WIDTH = 120;
    private static final String MORE = "    ";

    private Prose() {
    }

    /** {@code text} with each line of prose over {@link #WIDTH} characters broken between words. */
    static String wrap(String text) {
        StringBuilder out = new StringBuilder(text.length() + 64);
        for (String line : text.split("\n", -1)) {
            out.append(line.length() <= WIDTH || line.strip().contains("  ") ? line : broken(line)).append('\n');
        }
        return out.substring(0, out.length() - 1);
    }

    /** A legend's entries, a term and what it means, a line each, broken as {@link #wrap} breaks prose. */
    static String legend(List<String[]> entries) {
        StringBuilder out = new StringBuilder();
        for (String[] entry : entries) {
            out.append(wrap(entry[0] + ": " + entry[1])).append('\n');
        }
        return out.toString();
    }

    private static String broken(String line) {
        String lead = line.substring(0, line.length() - line.stripLeading().length());
        StringBuilder out = new StringBuilder();
        StringBuilder current = new StringBuilder(lead);
        boolean fresh = true;
        for (String word : line.strip().split(" +")) {
            if (!fresh && current.length() + 1 + word.length() > WIDTH) {
                out.append(current).append('\n');
                current = new StringBuilder(lead + MORE);
                fresh = true;
            }
            current.append(fresh ? "" : " ").append(word);
            fresh = false;
        }
        return out.append(current).toString();
    }
}
