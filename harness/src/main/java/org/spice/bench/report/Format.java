package org.spice.bench.report;

import java.util.List;
import java.util.Locale;

/** Number formatting shared by the table, the CSV and the HTML: NaN is shown as "-", never as a number. */
public final class Format {

    private Format() {
    }

    public static String num(double value, int decimals) {
        return Double.isNaN(value) || Double.isInfinite(value) ? "-" : String.format(Locale.ROOT, "%." + decimals + "f", value);
    }

    public static String percent(double ratio) {
        return Double.isNaN(ratio) || Double.isInfinite(ratio) ? "-" : String.format(Locale.ROOT, "%.1f%%", ratio * 100);
    }

    /** "1234.5 @ 16", or "-" when there is no such point. */
    public static String at(double rate, int clients) {
        return Double.isNaN(rate) ? "-" : num(rate, 1) + " @ " + clients;
    }

    /** CSV cells: plain numbers with full precision, empty when undefined. */
    public static String csv(double value) {
        return Double.isNaN(value) || Double.isInfinite(value) ? "" : Double.toString(value);
    }

    /** A figure for a sentence: thousands grouped, no decimals from 100 on, two significant digits below. */
    public static String words(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return "-";
        }
        double magnitude = Math.abs(value);
        return magnitude >= 100 ? String.format(Locale.ROOT, "%,.0f", value)
                : magnitude >= 10 ? String.format(Locale.ROOT, "%.1f", value) : String.format(Locale.ROOT, "%.2f", value);
    }

    /** A ratio for a sentence: "2.4 ×", "34 ×". */
    public static String times(double ratio) {
        return Double.isNaN(ratio) || Double.isInfinite(ratio) ? "-"
                : ratio >= 10 ? String.format(Locale.ROOT, "%.0f ×", ratio) : String.format(Locale.ROOT, "%.2g ×", ratio);
    }

    /** A percentage for a sentence: "37 %", "7.3 %". */
    public static String percentWords(double ratio) {
        return Double.isNaN(ratio) || Double.isInfinite(ratio) ? "-"
                : ratio >= 0.1 ? String.format(Locale.ROOT, "%.0f %%", ratio * 100) : String.format(Locale.ROOT, "%.1f %%", ratio * 100);
    }

    /** "±12" for a known interval half-width, "" for an unknown one. */
    public static String plusMinus(double halfWidth, int decimals) {
        return Double.isNaN(halfWidth) ? "" : "±" + num(halfWidth, decimals);
    }

    /** "±4%" for a known half-width of a ratio, "" for an unknown one. */
    public static String plusMinusPercent(double halfWidth) {
        return Double.isNaN(halfWidth) ? "" : "±" + num(100 * halfWidth, 0) + "%";
    }

    /** "a", "a and b", "a, b and c". */
    public static String list(List<String> items) {
        if (items.size() < 2) {
            return String.join("", items);
        }
        return String.join(", ", items.subList(0, items.size() - 1)) + " and " + items.get(items.size() - 1);
    }

    /** "0.967", "31.2": three significant digits. */
    public static String ratio(double ratio) {
        return Double.isNaN(ratio) ? "-" : ratio >= 10 ? num(ratio, 1) : num(ratio, 3);
    }

    /** "±3.7 %" of {@code value}, or "" without an interval. */
    public static String percentOf(double halfWidth, double value) {
        return Double.isNaN(halfWidth) || !(value > 0) ? "" : String.format(Locale.ROOT, "±%.1f %%", 100 * halfWidth / value);
    }
}
