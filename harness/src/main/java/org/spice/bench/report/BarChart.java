package org.spice.bench.report;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Bars with their 95 % intervals and a reference line across (the static file's 1): the lesson's charts, drawn as the
 * report draws its own ({@link Charts}' size, style and line).
 */
public final class BarChart {

    private BarChart() {
    }

    /** Its figures: its categories, one or more series of bars over them, the reference line (or null). */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Figures(String title, String yTitle, List<String> categories, List<Series> series, Double reference) {

        /** Bars of one colour: a value and its interval's half-width per category. */
        public record Series(String name, List<Double> values, List<Double> errors) {
        }
    }

    /** A cut bar's colour: pale, so that it does not read as a height. */
    private static final java.awt.Color CUT = new java.awt.Color(0xD0, 0xD0, 0xD0);

    /** The figures the bars' axis shows whole: up to this many times the smallest (CGI beside a module would flatten it). */
    private static final double SPREAD = 10;

    /**
     * Bars with their 95 % intervals ({@code errors}: each bar's half-width) and a reference drawn across (null: none),
     * as a PNG. A linear axis (a logarithmic one has no floor for a bar), cut above the figures within one order of
     * magnitude of the smallest: a figure beyond it is drawn to the top, its value in its category's label, and with
     * one series in a colour and a legend entry of its own, "cut at the axis's top", so that it is not read as its
     * height.
     */
    public static byte[] png(Figures chart) throws IOException {
        CategoryChart drawn = new CategoryChartBuilder().width(Charts.WIDTH).height(Charts.HEIGHT).title(chart.title())
                .yAxisTitle(chart.yTitle()).build();
        Charts.style(drawn);
        drawn.getStyler().setLabelsVisible(false);
        double cap = cap(chart);
        drawn.getStyler().setYAxisMin(0.0);
        drawn.getStyler().setYAxisMax(cap);
        // a figure beyond the axis is drawn to its top, its value in its category's label
        List<String> categories = new ArrayList<>(chart.categories());
        for (Figures.Series series : chart.series()) {
            for (int i = 0; i < series.values().size(); i++) {
                if (series.values().get(i) > cap && !categories.get(i).contains("(")) {
                    categories.set(i, categories.get(i) + " (" + Format.words(series.values().get(i)) + ")");
                }
            }
        }
        if (categories.size() > 5) {
            drawn.getStyler().setXAxisLabelRotation(30);
        }
        // one series: the cut bars as a series of their own, stacked on the other's nothing (one bar per category)
        boolean cutApart = chart.series().size() == 1 && chart.series().get(0).values().stream().anyMatch(v -> v > cap);
        List<Double> cut = new ArrayList<>();
        for (Figures.Series series : chart.series()) {
            List<Double> values = new ArrayList<>();
            List<Double> errors = new ArrayList<>();
            for (int i = 0; i < series.values().size(); i++) {
                double value = series.values().get(i);
                double error = series.errors().get(i);
                boolean beyond = value > cap;
                values.add(Double.isNaN(value) || beyond && cutApart ? 0.0 : Math.min(value, cap));
                errors.add(Double.isNaN(error) || Double.isNaN(value) || beyond ? 0.0 : error);
                cut.add(beyond ? cap : 0.0);
            }
            drawn.addSeries(series.name(), categories, values, errors);
        }
        if (cutApart) {
            drawn.getStyler().setStacked(true);
            drawn.addSeries("cut at the axis's top (its value in its label)", categories, cut).setFillColor(CUT);
        }
        if (chart.reference() != null) {
            Charts.referenceLine(drawn, chart.reference());
        }
        return Charts.png(drawn);
    }

    /**
     * The axis's top: above every figure and its interval, but where the largest figure is more than
     * {@link #SPREAD} times the smallest (CGI beside a module, which it would flatten), above the figures within
     * that spread only.
     */
    private static double cap(Figures chart) {
        double low = Double.MAX_VALUE;
        for (Figures.Series series : chart.series()) {
            for (double value : series.values()) {
                low = value > 0 ? Math.min(low, value) : low;
            }
        }
        double top = chart.reference() == null ? 0 : chart.reference();
        for (Figures.Series series : chart.series()) {
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
