package org.spice.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.spice.bench.analysis.CrossFigures;
import org.spice.bench.figures.Intervals;

/**
 * The regression gate of {@code compare --fail-above PCT}: between a run before and a run after (a server upgraded, a
 * setting changed), a probe regressed when its CPU against its own run's static file rose by more than PCT % beyond
 * the noise, the noise being the two ratios' 95 % half-widths combined (in quadrature: the interval of their
 * difference). A ratio, not a figure in µs: what drifts with the machine between the two runs hits the static file too.
 */
public final class Gate {

    private Gate() {
    }

    /** Whether two ratios' intervals do not overlap (each {ratio, half-width}); false where either is unknown. */
    static boolean apart(double[] a, double[] b) {
        return Intervals.distinguishable(a[0], a[1], b[0], b[1]);
    }

    /** The rise of {@code after} over {@code before} beyond the noise, relative to {@code before} (negative: none). */
    static double riseBeyondNoise(double[] before, double[] after) {
        double noise = Math.hypot(before[1], after[1]);
        return (after[0] - before[0] - noise) / before[0];
    }

    /** One line per probe that regressed by more than {@code percent}; empty when none did. */
    public static List<String> regressions(Comparison comparison, double percent) {
        String before = comparison.servers().get(0);
        String after = comparison.servers().get(1);
        List<String> lines = new ArrayList<>();
        for (String probe : comparison.probes()) {
            double[] b = comparison.ratio(before, probe);
            double[] a = comparison.ratio(after, probe);
            if (Double.isNaN(b[0]) || Double.isNaN(a[0]) || Double.isNaN(b[1]) || Double.isNaN(a[1])) {
                continue;
            }
            double beyond = riseBeyondNoise(b, a);
            if (beyond > percent / 100) {
                lines.add(String.format(Locale.ROOT, "regression: %s's CPU rose from %s × to %s × the static file's"
                        + " (%+.1f %%; %+.1f %% beyond the noise of ±%.1f %%), more than --fail-above %s %%", probe,
                        Format.ratio(b[0]), Format.ratio(a[0]), 100 * (a[0] / b[0] - 1), 100 * beyond,
                        100 * Math.hypot(b[1], a[1]) / b[0], Format.num(percent, percent % 1 == 0 ? 0 : 1)));
            }
        }
        return lines;
    }

    /**
     * The gate on servers measured side by side: per probe, the second arm named ("after") against the first
     * ("before"), from the cross ratio a / b paired by round; a regression when even the low end of its interval
     * (after / before) lies more than {@code percent} above 1. One line per such probe; empty when none.
     */
    public static List<String> crossRegressions(List<CrossFigures.Cross> figures, double percent) {
        List<String> lines = new ArrayList<>();
        for (CrossFigures.Cross c : figures) {
            if (Double.isNaN(c.ratioCi()) || !(c.ratio() > 0)) {
                continue;
            }
            double low = 1 / (c.ratio() + c.ratioCi());
            if (low > 1 + percent / 100) {
                lines.add(String.format(Locale.ROOT, "%s: %s costs %.3f × what %s costs (at least %.3f × within the"
                        + " 95 %% interval, paired by round), more than --fail-above %s %%", c.probe(), c.b(),
                        1 / c.ratio(), c.a(), low, Format.num(percent, 1)));
            }
        }
        return lines;
    }
}
