package org.spice.lesson;

import java.util.ArrayList;
import java.util.List;

import org.spice.bench.report.BarChart;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * What one question's run says: its table (every cell as printed), the answer as one sentence made from the figures,
 * notes on what is not paired, the figures themselves (the headline first, the one a class compares), and its chart.
 */
@JsonPropertyOrder({"sentence", "header", "rows", "notes", "figures", "chart"})
public record Answer(String sentence, List<String> header, List<List<String>> rows, List<String> notes,
        List<Figure> figures, BarChart.Figures chart) {

    public Answer {
        header = List.copyOf(header);
        rows = rows.stream().map(List::copyOf).toList();
        notes = List.copyOf(notes);
        figures = List.copyOf(figures);
    }

    /** This answer with {@code note} after its own notes; itself where {@code note} is null. */
    Answer withNote(String note) {
        if (note == null) {
            return this;
        }
        List<String> more = new ArrayList<>(notes);
        more.add(note);
        return new Answer(sentence, header, rows, more, figures, chart);
    }

    /**
     * A figure of the answer: a ratio or a cost, its 95 % interval's relative half-width (NaN: none, and the note says
     * why), the rounds it is paired over (0: not paired), and the load it was taken at.
     */
    @JsonPropertyOrder({"name", "value", "unit", "relative_ci", "rounds", "load", "text"})
    public record Figure(String name, double value, String unit, double relativeCi, int rounds, String load, String text) {
    }
}
