package org.spice.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.spice.bench.figures.Judge;
import org.spice.bench.model.Across;

/**
 * The regression gate of {@code compare --fail-above PCT}: between a run before and a run after (a server upgraded, a
 * setting changed), a probe regressed when its CPU against its own run's static file rose by more than PCT % beyond
 * the noise, the noise being the two ratios' 95 % half-widths combined (in quadrature: the interval of their
 * difference). A ratio, not a figure in µs: what drifts with the machine between the two runs hits the static file too.
 */
public final class Gate {

    private Gate() {
    }

    /**
     * The rise of {@code after} over {@code before} beyond the noise, relative to {@code before} (negative: none): the
     * noise is the two intervals' larger halves in quadrature, the interval of their difference.
     */
    static double riseBeyondNoise(Judge.Interval before, Judge.Interval after) {
        return (after.estimate() - before.estimate() - noise(before, after)) / before.estimate();
    }

    private static double noise(Judge.Interval before, Judge.Interval after) {
        return Math.hypot(before.largerHalf(), after.largerHalf());
    }

    /** One line per probe that regressed by more than {@code percent}; empty when none did. */
    public static List<String> regressions(Comparison comparison, double percent) {
        String before = comparison.servers().get(0);
        String after = comparison.servers().get(1);
        List<String> lines = new ArrayList<>();
        for (String probe : comparison.probes()) {
            Judge.Interval b = comparison.ratio(before, probe);
            Judge.Interval a = comparison.ratio(after, probe);
            if (!b.known() || !a.known()) {
                continue;
            }
            double beyond = riseBeyondNoise(b, a);
            if (beyond > percent / 100) {
                lines.add(String.format(Locale.ROOT, "regression: %s's CPU rose from %s × to %s × the static file's"
                        + " (%+.1f %%; %+.1f %% beyond the noise of ±%.1f %%), more than --fail-above %s %%", probe,
                        Format.ratio(b.estimate()), Format.ratio(a.estimate()), 100 * (a.estimate() / b.estimate() - 1),
                        100 * beyond, 100 * noise(b, a) / b.estimate(), Format.num(percent, percent % 1 == 0 ? 0 : 1)));
            }
        }
        return lines;
    }

    /**
     * The gate on servers measured side by side: per probe, the second arm named ("after") against the first
     * ("before"), from the cross ratio a / b paired by round; a regression when even the low end of its interval
     * (after / before) lies more than {@code percent} above 1. One line per such probe; empty when none.
     */
    public static List<String> crossRegressions(List<Across.Cross> figures, double percent) {
        List<String> lines = new ArrayList<>();
        for (Across.Cross c : figures) {
            if (!c.interval().known()) {
                continue;
            }
            double low = c.interval().inverse().low();
            if (low > 1 + percent / 100) {
                lines.add(String.format(Locale.ROOT, "%s: %s costs %.3f × what %s costs (at least %.3f × within the"
                        + " 95 %% interval, paired by round), more than --fail-above %s %%", c.probe(), c.b(),
                        1 / c.ratio(), c.a(), low, Format.num(percent, 1)));
            }
        }
        return lines;
    }
}
