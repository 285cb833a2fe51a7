package org.spice.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

import org.opentest4j.AssertionFailedError;

/**
 * A bound on a measured figure (a rate, a time, a ratio, CPU seconds), asserted and said. Every statistical or timing
 * check of the suite goes through here, so that each run prints the figure, its bound, where the bound comes from and
 * how close the figure came, as a line {@code bound: ...} on the test's output and in {@code target/bounds.tsv} (the
 * margins over many runs are read from there), and so that a failure says which figure, which bound, where the bound
 * comes from and what to do.
 *
 * <p>{@code from} is the bound's derivation in words: what limits the figure (ticks × processes, requests, rounds)
 * and the spread seen over runs.
 */
public final class Bound {

    private static final Path RECORD = Path.of("target", "bounds.tsv");

    private Bound() {
    }

    /** {@code min ≤ value ≤ max}. */
    public static void within(String figure, double value, double min, double max, String from) {
        check(figure, value, min, max, from);
    }

    /** {@code value ≥ min}. */
    public static void atLeast(String figure, double value, double min, String from) {
        check(figure, value, min, Double.POSITIVE_INFINITY, from);
    }

    /** {@code value ≤ max}. */
    public static void atMost(String figure, double value, double max, String from) {
        check(figure, value, Double.NEGATIVE_INFINITY, max, from);
    }

    /** {@code |value / expected − 1| ≤ relative}: a figure against another measure of the same thing. */
    public static void ratio(String figure, double value, double expected, double relative, String from) {
        check(figure + " / " + fmt(expected), value / expected, 1 - relative, 1 + relative, from);
    }

    /**
     * The margin: how far the figure stands inside its bound, the nearer side's, each side's distance as a fraction of
     * the larger of the figure and that side's bound (an infinite side is no side); negative outside.
     */
    static double margin(double value, double min, double max) {
        double margin = Double.POSITIVE_INFINITY;
        if (Double.isFinite(min)) {
            margin = side(value - min, Math.max(Math.abs(min), Math.abs(value)));
        }
        if (Double.isFinite(max)) {
            margin = Math.min(margin, side(max - value, Math.max(Math.abs(max), Math.abs(value))));
        }
        return margin;
    }

    private static double side(double distance, double scale) {
        return scale > 0 ? distance / scale : 0;
    }

    private static void check(String figure, double value, double min, double max, String from) {
        StackWalker.StackFrame asking = askingFrame();
        String testClass = asking == null ? "?" : asking.getClassName().substring(asking.getClassName().lastIndexOf('.') + 1);
        String test = testClass + "." + (asking == null ? "?" : asking.getMethodName());
        double margin = Double.isNaN(value) ? Double.NaN : margin(value, min, max);
        String range = "[" + fmt(min) + ", " + fmt(max) + "]";
        String line = String.format(Locale.ROOT, "bound: %s: %s = %s in %s, margin %.1f %%", test, figure, fmt(value),
                range, 100 * margin);
        System.out.println(line);
        record(test, figure, value, min, max, margin, from);
        if (!(value >= min && value <= max)) {
            throw new AssertionFailedError(String.format(Locale.ROOT, "%s = %s, outside its bound %s.%n"
                    + "The bound comes from: %s.%nWhat to do: the bound holds the figure's resolution and its spread over"
                    + " runs, so a miss is more likely a defect than chance; re-run this class alone once (mvn -B verify"
                    + " -pl %s -Dtest=%s -Dsurefire.failIfNoSpecifiedTests=false); if it misses again, look at the figure"
                    + " above, not the bound.", figure, fmt(value), range, from, module(), testClass));
        }
    }

    private static void record(String test, String figure, double value, double min, double max, double margin,
            String from) {
        String row = String.join("\t", test, figure, fmt(value), fmt(min), fmt(max),
                String.format(Locale.ROOT, "%.4f", margin), System.getProperty("spice.bytes", "6250"),
                from.replace('\t', ' ').replace('\n', ' ')) + "\n";
        try {
            Files.createDirectories(RECORD.toAbsolutePath().getParent());
            Files.writeString(RECORD, row, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            System.out.println("bound: could not record in " + RECORD.toAbsolutePath() + ": " + e.getMessage());
        }
    }

    /** The frame of the test that asked (its class's name ends in Test), or null. */
    private static StackWalker.StackFrame askingFrame() {
        return StackWalker.getInstance().walk(frames -> frames.filter(f -> f.getClassName().endsWith("Test")).findFirst())
                .orElse(null);
    }

    private static String module() {
        return Path.of("").toAbsolutePath().getFileName().toString();
    }

    private static String fmt(double v) {
        if (Double.isInfinite(v)) {
            return v > 0 ? "∞" : "−∞";
        }
        return String.format(Locale.ROOT, Math.abs(v) >= 100 || v == Math.rint(v) ? "%.0f" : "%.4g", v);
    }
}
