package org.spice.lesson;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.spice.bench.report.BarChart;
import org.spice.bench.report.Format;

/** How the lesson prints a figure in a table cell and in a sentence, and the figures and bars it records beside them. */
final class Cells {

    private Cells() {
    }

    /** "75.2 ± 4.6 %": a CPU per request with its interval; "-" where it was not measured. */
    static String cpu(RunFigures.Cpu cpu) {
        return Double.isNaN(cpu.us()) ? "-" : Format.words(cpu.us()) + percent(cpu.relativeCi());
    }

    /** "0.807 ± 4.9 %": a paired ratio with its interval. */
    static String ratio(RunFigures.Ratio ratio) {
        return ratio(ratio.value(), ratio.relativeCi());
    }

    static String ratio(double value, double relativeCi) {
        return Double.isNaN(value) ? "-" : Format.ratio(value) + percent(relativeCi);
    }

    /** " ± 4.9 %", or "" without an interval. */
    static String percent(double relativeCi) {
        return Double.isNaN(relativeCi) || Double.isInfinite(relativeCi) ? ""
                : String.format(Locale.ROOT, " ± %.1f %%", 100 * relativeCi);
    }

    /** An interval for parentheses: "± 4.9 %", or "no interval" (too few rounds for one). */
    static String interval(double relativeCi) {
        return Double.isNaN(relativeCi) || Double.isInfinite(relativeCi) ? "no interval" : percent(relativeCi).strip();
    }

    /** A ratio for a sentence: "24 ×", "0.81 ×". */
    static String times(double value) {
        return Format.times(value);
    }

    /** The figure of a paired ratio, with the words the page prints for it. */
    static Answer.Figure figure(String name, RunFigures.Ratio ratio) {
        return new Answer.Figure(name, ratio.value(), "×", ratio.relativeCi(), ratio.rounds(),
                ratio.sameLoad() ? ratio.loadA() : ratio.a() + " at " + ratio.loadA() + ", " + ratio.b() + " at " + ratio.loadB(),
                ratio(ratio));
    }

    /** The figure of a CPU per request. */
    static Answer.Figure figure(String name, RunFigures.Cpu cpu) {
        return new Answer.Figure(name, cpu.us(), "µs", cpu.relativeCi(), cpu.rounds(), cpu.load(), cpu(cpu));
    }

    /** A figure that is not paired: one reading, no interval. */
    static Answer.Figure unpaired(String name, double value, String unit, String load, String text) {
        return new Answer.Figure(name, value, unit, Double.NaN, 0, load, text);
    }

    /** A series of bars from ratios: each its estimate and its interval's half-width. */
    static BarChart.Figures.Series bars(String name, List<RunFigures.Ratio> ratios) {
        List<Double> values = new ArrayList<>();
        List<Double> errors = new ArrayList<>();
        for (RunFigures.Ratio r : ratios) {
            values.add(r.value());
            errors.add(r.value() * r.relativeCi());
        }
        return new BarChart.Figures.Series(name, values, errors);
    }
}
