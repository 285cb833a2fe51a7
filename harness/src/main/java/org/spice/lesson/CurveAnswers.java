package org.spice.lesson;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

import org.spice.bench.analysis.ResultsFiles;
import org.spice.bench.figures.Judge;
import org.spice.bench.model.LatencyProfile;
import org.spice.bench.model.Reference;
import org.spice.bench.model.Sweep;
import org.spice.bench.report.BarChart;
import org.spice.bench.report.Format;

/** The answers read along a line: the page-size sweep's fit, and the latency profile's common rates. */
final class CurveAnswers {

    private CurveAnswers() {
    }

    /** Question 5: each probe's fixed cost and its cost per KB, the line through its sizes. */
    static Answer pageSize(Path dir) throws IOException {
        Sweep sweep = Sweep.readIn(dir);
        if (sweep == null) {
            throw new IOException("no " + Sweep.FILE + " in " + dir + " (the sweep measured fewer than two sizes)");
        }
        List<Integer> sizes = sweep.sizes().stream().map(Sweep.Size::bytes).toList();
        List<String> header = new ArrayList<>(List.of("probe"));
        sizes.forEach(b -> header.add(String.format(Locale.ROOT, "%,d B, µs", b)));
        header.addAll(List.of("fixed, µs", "per KB, µs", "r²"));
        List<List<String>> rows = new ArrayList<>();
        List<Answer.Figure> figures = new ArrayList<>();
        List<String> probes = new ArrayList<>();
        List<Double> perKb = new ArrayList<>();
        List<Double> perKbCi = new ArrayList<>();
        String load = "closed loop at " + sweep.clients() + " clients, each size a bench of its own";
        for (Map.Entry<String, Sweep.Line> entry : sweep.probes().entrySet()) {
            Sweep.Line line = entry.getValue();
            List<String> row = new ArrayList<>(List.of(entry.getKey()));
            for (int bytes : sizes) {
                row.add(line.points().stream().filter(p -> p.bytes() == bytes).findFirst()
                        .map(p -> Format.words(p.cpuUsPerReq()) + (Double.isNaN(p.cpuUsPerReqCi()) ? ""
                                : " ± " + Format.words(p.cpuUsPerReqCi()))).orElse("-"));
            }
            row.add(Format.words(line.fixedUs()) + plusMinus(line.fixedUsCi()));
            row.add(Format.num(line.perKbUs(), 2) + plusMinus(line.perKbUsCi()));
            row.add(Format.num(line.rSquared(), 3));
            rows.add(row);
            figures.add(new Answer.Figure(entry.getKey() + " per KB", line.perKbUs(), "µs/KB",
                    line.perKbUsCi() / Math.abs(line.perKbUs()), 0, load, row.get(row.size() - 2)));
            figures.add(new Answer.Figure(entry.getKey() + " fixed", line.fixedUs(), "µs",
                    line.fixedUsCi() / Math.abs(line.fixedUs()), 0, load, row.get(row.size() - 3)));
            probes.add(entry.getKey());
            perKb.add(line.perKbUs());
            perKbCi.add(line.perKbUsCi());
        }
        String headline = probes.contains("shtml") ? "shtml" : probes.get(probes.size() - 1);
        int at = probes.indexOf(headline);
        figures.add(0, figures.remove(2 * at));
        boolean none = !(Math.abs(perKb.get(at)) > perKbCi.get(at));   // its interval holds 0 (or there is none)
        String sentence = String.format(Locale.ROOT, none
                ? "%s's cost per KB of the page (%s µs, %s) is not told apart from none, beside %s µs a request%s."
                : "%s costs %s µs for every KB of the page (%s µs) on top of %s µs a request%s.", headline,
                Format.num(perKb.get(at), 2), plusMinus(perKbCi.get(at)).strip(),
                Format.words(sweep.probes().get(headline).fixedUs()), crossings(sweep));
        BarChart.Figures chart = new BarChart.Figures("Server CPU per KB of the page (the line's slope, 95 % intervals)",
                "µs per KB", probes, List.of(new BarChart.Figures.Series("per KB", perKb, perKbCi)), null);
        return new Answer(sentence, header, rows, List.of("Each size is a bench of its own on a server built and started"
                + " for it: the points are not paired across sizes; the line's intervals are Student's t on its"
                + " residuals."), figures, chart);
    }

    /**
     * Where the bytes cost what the request does (fixed = per KB × KB), for each line whose slope is told from none,
     * and which lines' slopes are not: the tail of question 5's sentence.
     */
    private static String crossings(Sweep sweep) {
        List<String> crossings = new ArrayList<>();
        List<String> flat = new ArrayList<>();
        for (Map.Entry<String, Sweep.Line> entry : sweep.probes().entrySet()) {
            Sweep.Line line = entry.getValue();
            if (line.perKbUs() > 0 && (Double.isNaN(line.perKbUsCi()) || line.perKbUs() > line.perKbUsCi())) {
                crossings.add(String.format(Locale.ROOT, "%s at about %s KB", entry.getKey(),
                        Format.words(line.fixedUs() / line.perKbUs())));
            } else {
                flat.add(entry.getKey() + "'s");
            }
        }
        return (crossings.isEmpty() ? "" : "; the bytes cost as much as the request itself (fixed = per KB × KB) for "
                + Format.list(crossings)) + (flat.isEmpty() ? "" : "; " + Format.list(flat)
                + " cost per KB is not told apart from none at these sizes");
    }

    /** Question 9: every probe at the same offered rates, its median wait against the static file's. */
    static Answer latency(Path dir) throws IOException {
        Path file = RunFigures.resultsIn(dir);
        LatencyProfile profile = ResultsFiles.read(file).latencyProfile();
        if (profile == null || profile.common().isEmpty()) {
            throw new IOException(file + " has no latency profile");
        }
        TreeSet<Double> rates = new TreeSet<>();
        profile.common().forEach(a -> rates.add(a.offeredRps()));
        List<String> probes = new ArrayList<>();
        profile.common().forEach(a -> {
            if (!probes.contains(a.probe())) {
                probes.add(a.probe());
            }
        });
        List<String> header = new ArrayList<>(List.of("probe (× the static file's wait)"));
        for (double rate : rates) {
            LatencyProfile.AtRate base = at(profile, Reference.STATIC, rate);
            header.add(String.format(Locale.ROOT, "p50 at %,.0f/s%s", rate,
                    base == null ? "" : " (static " + Format.num(base.p50Ms(), 3) + " ms)"));
            header.add(String.format(Locale.ROOT, "p99 at %,.0f/s%s", rate,
                    base == null ? "" : " (static " + Format.num(base.p99Ms(), 3) + " ms)"));
        }
        List<Answer.Figure> figures = new ArrayList<>();
        List<List<String>> rows = latencyRows(profile, probes, rates, figures);
        Answer.Figure cgi = figures.stream().filter(f -> f.name().startsWith("cgi ")).findFirst().orElse(figures.get(0));
        Answer.Figure servlet = figures.stream().filter(f -> f.name().startsWith("servlet ")).findFirst().orElse(null);
        figures.remove(cgi);
        figures.add(0, cgi);
        String sentence = String.format(Locale.ROOT, "At %s to every probe, %s %s%s, against the static file's %s ms.",
                cgi.load(), cgi.name().split(" ")[0], multiplies(cgi, "a user's median wait"),
                servlet == null ? "" : ", the servlet " + multiplies(servlet, "it"),
                Format.num(at(profile, Reference.STATIC, rates.first()).p50Ms(), 3));
        BarChart.Figures chart = new BarChart.Figures("Median wait, × the static file's at the same offered rate (95 % intervals)",
                "× the static file's p50", probes.stream().filter(p -> !p.equals(Reference.STATIC)).toList(),
                p50Series(profile, probes, rates), 1.0);
        return new Answer(sentence, header, rows, List.of("Open loop: every probe offered the same rates, each latency"
                + " taken from its request's due time, each probe's slice paired with the static file's in its round ("
                + profile.rounds() + " rounds)."), figures, chart);
    }

    /**
     * What a wait ratio does to WAIT, inside its interval as {@link Judge} calls it: "multiplies WAIT by 4.5 (± 9.5 %)",
     * where the interval holds 1 "leaves WAIT the same (within ± 4.0 %)", and where it holds 1 but reaches too far
     * "multiplies WAIT by 1.3 (0.400 to 2.200: too wide to tell from 1)". The profile keeps the interval's larger half, so it is judged as ± that.
     */
    private static String multiplies(Answer.Figure ratio, String wait) {
        Judge.Interval interval = Judge.Interval.symmetric(ratio.value(), ratio.value() * ratio.relativeCi());
        return switch (Judge.call(interval)) {
            case SAME -> "leaves " + wait + " the same (" + Judge.within(List.of(interval)) + ")";
            case TOO_WIDE -> "multiplies " + wait + " by " + Format.words(ratio.value()) + " (" + Judge.ends(interval)
                    + ": too wide to tell from 1)";
            default -> "multiplies " + wait + " by " + Format.words(ratio.value()) + " ("
                    + Cells.interval(ratio.relativeCi()) + ")";
        };
    }

    /**
     * A row per probe but the static file (whose waits head the columns): its p50 and p99 against the static file's at
     * each rate, ratios only; each p50 ratio also a figure.
     */
    private static List<List<String>> latencyRows(LatencyProfile profile, List<String> probes, TreeSet<Double> rates,
            List<Answer.Figure> figures) {
        List<List<String>> rows = new ArrayList<>();
        for (String probe : probes.stream().filter(p -> !p.equals(Reference.STATIC)).toList()) {
            List<String> row = new ArrayList<>(List.of(probe));
            for (double rate : rates) {
                LatencyProfile.AtRate at = at(profile, probe, rate);
                if (at == null) {
                    row.addAll(List.of("-", "-"));
                    continue;
                }
                String p50 = Cells.ratio(at.p50Ratio(), at.p50RatioCi() / at.p50Ratio());
                row.addAll(List.of(p50, Cells.ratio(at.p99Ratio(), at.p99RatioCi() / at.p99Ratio())));
                figures.add(new Answer.Figure(String.format(Locale.ROOT, "%s p50 / static at %.0f/s", probe, rate),
                        at.p50Ratio(), "×", at.p50RatioCi() / at.p50Ratio(), profile.rounds(),
                        String.format(Locale.ROOT, "%,.0f req/s offered", rate), p50));
            }
            rows.add(row);
        }
        return rows;
    }

    /** Per common rate, each probe's median against the static file's, with its interval: the chart's bars. */
    private static List<BarChart.Figures.Series> p50Series(LatencyProfile profile, List<String> probes, TreeSet<Double> rates) {
        List<BarChart.Figures.Series> series = new ArrayList<>();
        for (double rate : rates) {
            List<Double> values = new ArrayList<>();
            List<Double> errors = new ArrayList<>();
            for (String probe : probes) {
                if (probe.equals(Reference.STATIC)) {
                    continue;
                }
                LatencyProfile.AtRate at = at(profile, probe, rate);
                values.add(at == null ? Double.NaN : at.p50Ratio());
                errors.add(at == null ? Double.NaN : at.p50RatioCi());
            }
            series.add(new BarChart.Figures.Series(String.format(Locale.ROOT, "%,.0f req/s", rate), values, errors));
        }
        return series;
    }

    /** {@code probe} at the common rate {@code rate}, or null where it has no figure there. */
    private static LatencyProfile.AtRate at(LatencyProfile profile, String probe, double rate) {
        return profile.common().stream().filter(a -> a.probe().equals(probe) && a.offeredRps() == rate).findFirst()
                .orElse(null);
    }

    private static String plusMinus(double ci) {
        return Double.isNaN(ci) ? "" : " ± " + (Math.abs(ci) >= 10 ? Format.words(ci) : Format.num(ci, 2));
    }
}
