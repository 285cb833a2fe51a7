package org.spice.bench.figures;

import java.util.List;
import java.util.Locale;

/**
 * The one judge of SPICE's ratios: from an estimate and the two ends of its 95 % interval, whether the ratio holds 1,
 * which of two ratios is larger, and the words that say so. Every answer, table, page, gate and lesson calls it, so
 * that the same rounds get the same verdict wherever they are told.
 *
 * <p>The interval of a paired ratio is taken on the rounds' log-ratios and leans (one slow round puts the upper end far
 * off, not the lower), so it is judged by its ends, never by a symmetric half-width: a ratio of 0.952 with ends 0.917
 * and 1.0015 holds 1. Where a ± is printed it is the larger of the two halves, which never understates the interval.
 */
public final class Judge {

    /** Past this distance from 1 (±50 %), an interval that holds 1 is too wide to call the ratio "the same". */
    public static final double TOO_WIDE = 0.5;

    private Judge() {
    }

    /** What an interval says of a ratio against 1. */
    public enum Call {
        /** Its interval lies below 1: cheaper (or less) than the reference. */
        BELOW,
        /** Its interval holds 1 and stays within {@link #TOO_WIDE} of it: the same, within the interval. */
        SAME,
        /** Its interval holds 1 but reaches past {@link #TOO_WIDE}: it cannot tell. */
        TOO_WIDE,
        /** Its interval lies above 1. */
        ABOVE,
        /** No interval (too few rounds, or nothing measured). */
        UNKNOWN;

        /** Whether the interval holds 1 (however wide). */
        public boolean holdsOne() {
            return this == SAME || this == TOO_WIDE;
        }

        /** Whether the ratio is told apart from 1. */
        public boolean differs() {
            return this == BELOW || this == ABOVE;
        }
    }

    /**
     * A ratio and its 95 % interval's ends, in the ratio's unit.
     *
     * @param estimate the ratio (a Hodges-Lehmann estimate, a mean, a quotient)
     * @param low      its interval's lower end; NaN where it has none
     * @param high     its upper end
     */
    public record Interval(double estimate, double low, double high) {

        public static final Interval NONE = new Interval(Double.NaN, Double.NaN, Double.NaN);

        /** An interval known only by its half-width (a ratio propagated from two figures', older results). */
        public static Interval symmetric(double estimate, double halfWidth) {
            return new Interval(estimate, estimate - halfWidth, estimate + halfWidth);
        }

        /** Whether the estimate and both ends are known. */
        public boolean known() {
            return estimate > 0 && Double.isFinite(estimate) && Double.isFinite(low) && Double.isFinite(high)
                    && low <= high;
        }

        /** The larger of the interval's two halves, in the ratio's unit: the ± that never understates; NaN without one. */
        public double largerHalf() {
            return known() ? Math.max(estimate - low, high - estimate) : Double.NaN;
        }

        /** {@link #largerHalf()} relative to the estimate (0.045: ± 4.5 %); NaN without an interval. */
        public double relativeHalf() {
            return known() ? largerHalf() / estimate : Double.NaN;
        }

        /** The largest difference from 1 the interval cannot exclude: its end farthest from 1 (0.083: ± 8.3 %). */
        public double farthestFromOne() {
            return known() ? Math.max(Math.abs(1 - low), Math.abs(high - 1)) : Double.NaN;
        }

        /** The reciprocal ratio (b / a) and its interval: the ends swap. */
        public Interval inverse() {
            return new Interval(1 / estimate, 1 / high, 1 / low);
        }
    }

    /** What {@code interval} says of its ratio against 1. */
    public static Call call(Interval interval) {
        if (!interval.known()) {
            return Call.UNKNOWN;
        }
        if (interval.high() < 1) {
            return Call.BELOW;
        }
        if (interval.low() > 1) {
            return Call.ABOVE;
        }
        return interval.farthestFromOne() > TOO_WIDE ? Call.TOO_WIDE : Call.SAME;
    }

    /** Whether the interval holds 1: the two cost the same, as far as the measurement can tell. */
    public static boolean holdsOne(Interval interval) {
        return call(interval).holdsOne();
    }

    /** Whether two independent ratios are told apart: both intervals known and they do not overlap. */
    public static boolean apart(Interval a, Interval b) {
        return a.known() && b.known() && (a.high() < b.low() || b.high() < a.low());
    }

    /** "± 4.5 %", the larger half relative to the estimate; "" without an interval. */
    public static String plusMinus(Interval interval) {
        return interval.known() ? "± " + percent(interval.relativeHalf()) : "";
    }

    /** "0.917 to 1.00": the interval's two ends. */
    public static String ends(Interval interval) {
        return ratio(interval.low()) + " to " + ratio(interval.high());
    }

    /** "within ± 8.3 %": the largest difference from 1 that any of {@code intervals} cannot exclude. */
    public static String within(List<Interval> intervals) {
        double within = intervals.stream().mapToDouble(Interval::farthestFromOne).max().orElse(Double.NaN);
        return "within ± " + percent(within);
    }

    /**
     * The ratio in words that stay inside its interval, against {@code reference} ("the static file's"): "the same as
     * the static file's within ± 8.3 %" where it holds 1; "0.916 × the static file's (0.881 to 0.960)" where it does
     * not; "not told apart from the static file's (0.400 to 3.70 ×: too wide to say more)" where it holds 1 but
     * reaches past {@link #TOO_WIDE}; "0.916 × the static file's (no interval)" without one.
     */
    public static String words(Interval interval, String reference) {
        return words(interval, " " + reference, " as" + " " + reference, " from " + reference);
    }

    /** As {@link #words(Interval, String)} with no reference named: "the same within ± 8.3 %", "0.916 × (0.881 to 0.960)". */
    public static String words(Interval interval) {
        return words(interval, "", "", "");
    }

    private static String words(Interval interval, String after, String sameAs, String apartFrom) {
        return switch (call(interval)) {
            case SAME -> "the same" + sameAs + " " + within(List.of(interval));
            case TOO_WIDE -> "not told apart" + apartFrom + " (" + ends(interval) + " ×: too wide to say more)";
            case BELOW, ABOVE -> times(interval.estimate()) + after + " (" + ends(interval) + ")";
            case UNKNOWN -> times(interval.estimate()) + after + " (no interval)";
        };
    }

    /** "0.952", "10.9": three significant digits; "-" for NaN. */
    public static String ratio(double ratio) {
        if (Double.isNaN(ratio) || Double.isInfinite(ratio)) {
            return "-";
        }
        return String.format(Locale.ROOT, ratio >= 10 ? "%.1f" : "%.3f", ratio);
    }

    /** "0.952 ×". */
    public static String times(double ratio) {
        return ratio(ratio) + " ×";
    }

    /** "4.5 %" of a relative figure (0.045); "-" for NaN. */
    public static String percent(double relative) {
        return Double.isNaN(relative) || Double.isInfinite(relative) ? "-"
                : String.format(Locale.ROOT, "%.1f %%", 100 * relative);
    }
}
