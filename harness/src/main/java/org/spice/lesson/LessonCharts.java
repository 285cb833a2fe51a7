package org.spice.lesson;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.spice.bench.report.Charts;
import org.spice.bench.report.Format;

/**
 * A question's chart: its bars with their 95 % intervals, and the reference (the static file's 1) drawn across. A
 * linear axis (a logarithmic one has no floor for a bar), cut above the figures of one order of magnitude.
 */
final class LessonCharts {

    /** The figures the axis shows whole: up to this many times the smallest (CGI beside a module would flatten it). */
    private static final double SPREAD = 10;

    private LessonCharts() {
    }

    /** Writes {@code chart} to {@code file} as a PNG. */
    static void write(Answer.Chart chart, Path file) throws IOException {
        CategoryChart drawn = new CategoryChartBuilder().width(Charts.WIDTH).height(Charts.HEIGHT).title(chart.title())
                .yAxisTitle(chart.yTitle()).build();
        Charts.style(drawn);
        drawn.getStyler().setLabelsVisible(false);
        double cap = cap(chart);
        drawn.getStyler().setYAxisMin(0.0);
        drawn.getStyler().setYAxisMax(cap);
        // a figure beyond the axis is drawn to its top, its value in its category's label
        List<String> categories = new ArrayList<>(chart.categories());
        for (Answer.Series series : chart.series()) {
            for (int i = 0; i < series.values().size(); i++) {
                if (series.values().get(i) > cap && !categories.get(i).contains("(")) {
                    categories.set(i, categories.get(i) + " (" + Format.words(series.values().get(i)) + ")");
                }
            }
        }
        if (categories.size() > 5) {
            drawn.getStyler().setXAxisLabelRotation(30);
        }
        for (Answer.Series series : chart.series()) {
            List<Double> values = new ArrayList<>();
            List<Double> errors = new ArrayList<>();
            for (int i = 0; i < series.values().size(); i++) {
                double value = series.values().get(i);
                double error = series.errors().get(i);
                boolean beyond = value > cap;
                values.add(Double.isNaN(value) ? 0.0 : Math.min(value, cap));
                errors.add(Double.isNaN(error) || Double.isNaN(value) || beyond ? 0.0 : error);
            }
            drawn.addSeries(series.name(), categories, values, errors);
        }
        if (chart.reference() != null) {
            Charts.referenceLine(drawn, chart.reference());
        }
        Files.write(file, Charts.png(drawn));
    }

    /**
     * The axis's top: above every figure and its interval, but where the largest figure is more than
     * {@link #SPREAD} times the smallest (CGI beside a module, which it would flatten), above the figures within
     * that spread only.
     */
    private static double cap(Answer.Chart chart) {
        double low = Double.MAX_VALUE;
        for (Answer.Series series : chart.series()) {
            for (double value : series.values()) {
                low = value > 0 ? Math.min(low, value) : low;
            }
        }
        double top = chart.reference() == null ? 0 : chart.reference();
        for (Answer.Series series : chart.series()) {
            for (int i = 0; i < series.values().size(); i++) {
                double value = series.values().get(i);
                double error = series.errors().get(i);
                if (value > 0 && value <= SPREAD * low) {
                    top = Math.max(top, value + (Double.isNaN(error) ? 0 : error));
                }
            }
        }
        return top > 0 ? top * 1.15 : 1;
    }
}
