package org.spice.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.spice.bench.figures.Judge;
import org.spice.bench.figures.SpiceFigures;
import org.spice.bench.model.Overload;

/** The server comparison as terminal tables and as compare.html with two bar charts. */
public final class CompareReport {

    static {
        System.setProperty("java.awt.headless", "true");
    }

    private CompareReport() {
    }

    /**
     * One section of the comparison: a title, the cell of a server for a probe, and whether it says anything for these
     * runs (a column that only repeats another is left out).
     */
    private record Section(String title, Function<Cell, String> cell, Predicate<Comparison> shown) {
        Section(String title, Function<Cell, String> cell) {
            this(title, cell, c -> true);
        }
    }

    private record Cell(SpiceFigures.Summary summary, double rateTimes, double latencyTimes) {
    }

    private static final List<Section> SECTIONS = List.of(
            new Section("Peak request rate, req/s @ clients (times the slowest server)  [white paper Tables 1, 3]",
                    c -> Format.at(c.summary.peakRateRps(), c.summary.peakClients()) + " (" + times(c.rateTimes) + ")"),
            new Section("Mean latency at the peak, ms (times faster than the slowest server)  [Tables 2, 4]",
                    c -> Format.num(c.summary.latencyAtPeakMs(), 2) + " (" + times(c.latencyTimes) + ")"),
            new Section("Request efficiency against static, at the peak / at the maximum load  [Table 5; in a closed loop"
                    + " Table 6's latency efficiency is the same figure]",
                    c -> Format.percent(c.summary.requestEfficiencyAtPeak()) + " / "
                            + Format.percent(c.summary.requestEfficiencyAtMaxLoad())),
            new Section("Server CPU per request, µs, with its 95 % interval: from the paired rounds where they ran, else"
                    + " at the peak (mach: the whole machine less the client, where the server's CGI children are reaped by"
                    + " the kernel)",
                    c -> Format.num(c.summary.cpuUs(), 0) + " " + Format.percentOf(c.summary.cpuUsCi(), c.summary.cpuUs())
                            + (c.summary.cpuSource() == SpiceFigures.CpuSource.MACHINE
                            && !Double.isNaN(c.summary.cpuUs()) ? " mach" : "")),
            new Section("Server CPU per request against the run's static file (×, with its 95 % interval)",
                    c -> Format.ratio(c.summary.cpuRatio()) + " " + Format.percentOf(c.summary.cpuRatioCi(),
                            c.summary.cpuRatio())),
            new Section("CPU efficiency: the static file's CPU per request / the probe's, 1 / the ratio above (from the"
                    + " same figures; without rounds, at the probe's peak)",
                    c -> Format.percent(c.summary.cpuEfficiency())),
            new Section("Useful peak, req/s @ clients (fair and under the latency bound), where it is not the peak",
                    c -> SummaryTable.usefulPeakDiffers(c.summary) ? Format.at(c.summary.usefulPeakRps(),
                            c.summary.usefulPeakClients()) : "= peak",
                    comparison -> comparison.servers().stream().anyMatch(server -> comparison.probes().stream()
                            .map(probe -> comparison.summary(server, probe))
                            .anyMatch(s -> s != null && SummaryTable.usefulPeakDiffers(s)))));

    /** Writes DIR/compare.txt and DIR/compare.html; returns the text. */
    public static String write(Comparison comparison, Path dir) throws IOException {
        String text = text(comparison);
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("compare.txt"), text, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("compare.html"), html(comparison, rateChart(comparison), cpuChart(comparison)),
                StandardCharsets.UTF_8);
        return text;
    }

    static String text(Comparison comparison) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "SPICE %s, %s: %s%n", comparison.beforeAfter()
                ? "before/after comparison" : "server comparison", bodies(comparison), String.join(", ", comparison.servers())));
        for (String sentence : verdict(comparison)) {
            out.append(sentence).append('\n');
        }
        for (Section section : SECTIONS.stream().filter(each -> each.shown().test(comparison)).toList()) {
            out.append('\n').append(section.title).append('\n');
            out.append(String.format(Locale.ROOT, "%-9s", "probe"));
            for (String server : comparison.servers()) {
                out.append(String.format(Locale.ROOT, " %26s", server));
            }
            out.append('\n');
            for (String probe : comparison.probes()) {
                out.append(String.format(Locale.ROOT, "%-9s", probe));
                for (String cell : cells(comparison, probe, section)) {
                    out.append(String.format(Locale.ROOT, " %26s", cell));
                }
                out.append('\n');
            }
        }
        if (comparison.anyOverload()) {
            out.append('\n').append(PAST_THE_PEAK).append('\n');
            out.append(String.format(Locale.ROOT, "%-9s", "probe"));
            comparison.servers().forEach(server -> out.append(String.format(Locale.ROOT, " %26s", server)));
            out.append('\n');
            for (String probe : comparison.probes()) {
                out.append(String.format(Locale.ROOT, "%-9s", probe));
                comparison.servers().forEach(server -> out.append(String.format(Locale.ROOT, " %26s",
                        pastThePeak(comparison.overload(server, probe)))));
                out.append('\n');
            }
        }
        return out.toString();
    }

    private static final String PAST_THE_PEAK = "Past the peak: retention at the largest multiple that counted / recovery"
            + " (bench --profile overload)";

    /** "87% @16× / 4.0 s", "-" where the probe was not flooded on that server. */
    static String pastThePeak(Overload o) {
        if (o == null) {
            return "-";
        }
        Overload.Step largest = o.largestCounted();
        String retention = largest == null ? "excl." : Format.num(100 * o.retention(largest), 0) + "% @" + largest.multiple() + "×";
        return retention + " / " + OverloadReport.recoveryCell(o);
    }

    static String html(Comparison comparison, byte[] ratePng, byte[] cpuPng) {
        StringBuilder h = new StringBuilder(16_384);
        String title = comparison.beforeAfter() ? "SPICE before/after comparison" : "SPICE server comparison";
        HtmlReport.head(h, title);
        h.append("<h1>").append(title).append("</h1>\n<p>").append(bodies(comparison)).append("; ")
                .append(comparison.beforeAfter() ? "runs: " : "servers: ")
                .append(HtmlReport.esc(String.join(", ", comparison.servers())))
                .append(". Each run's own report is in its folder.</p>\n<section id=\"verdict\"><h2>The answer</h2>\n");
        for (String sentence : verdict(comparison)) {
            h.append("<p>").append(HtmlReport.esc(sentence)).append("</p>\n");
        }
        h.append("</section>\n<h2>Figures</h2>\n");
        HtmlReport.image(h, "compare-cpu.png", cpuPng, "server CPU per request at the peak");
        HtmlReport.image(h, "compare-rate.png", ratePng, "peak request rate per probe and server");
        for (Section section : SECTIONS.stream().filter(each -> each.shown().test(comparison)).toList()) {
            h.append("<h2>").append(HtmlReport.esc(section.title)).append("</h2>\n");
            HtmlReport.table(h, byProbe(comparison, probe -> List.of(cells(comparison, probe, section))));
        }
        if (comparison.anyOverload()) {
            h.append("<h2 id=\"overload\">").append(HtmlReport.esc(PAST_THE_PEAK)).append("</h2>\n");
            HtmlReport.table(h, byProbe(comparison, probe -> comparison.servers().stream()
                    .map(server -> pastThePeak(comparison.overload(server, probe))).toList()));
        }
        return h.append("</body></html>\n").toString();
    }

    /** A table of the servers' cells, a row a probe, as {@link HtmlReport#table} draws every page's. */
    private static List<String[]> byProbe(Comparison comparison, Function<String, List<String>> cells) {
        List<String[]> rows = new ArrayList<>();
        List<String> head = new ArrayList<>(List.of("probe"));
        head.addAll(comparison.servers());
        rows.add(head.toArray(String[]::new));
        for (String probe : comparison.probes()) {
            List<String> row = new ArrayList<>(List.of(probe));
            row.addAll(cells.apply(probe));
            rows.add(row.toArray(String[]::new));
        }
        return rows;
    }

    private static String bodies(Comparison comparison) {
        return comparison.notComparable().stream().anyMatch(d -> d.startsWith("page size")) ? "page sizes differ"
                : comparison.bodyBytes() + "-byte body";
    }

    static byte[] rateChart(Comparison comparison) throws IOException {
        return rateBars(comparison, "Peak request rate", "requests/second", SpiceFigures.Summary::peakRateRps);
    }

    static byte[] cpuChart(Comparison comparison) throws IOException {
        boolean mixed = comparison.probes().stream().anyMatch(comparison::mixedCpuSources);
        return bars(comparison, "Server CPU per request at the peak" + (mixed ? " (mach for "
                + String.join(", ", comparison.probes().stream().filter(comparison::mixedCpuSources).toList())
                + ": the runs count it differently)" : ""), "microseconds (smaller is better)", comparison::cpu);
    }

    private static byte[] rateBars(Comparison comparison, String title, String yTitle,
            java.util.function.ToDoubleFunction<SpiceFigures.Summary> value) throws IOException {
        return bars(comparison, title, yTitle, (server, probe) -> {
            SpiceFigures.Summary s = comparison.summary(server, probe);
            return s == null ? Double.NaN : value.applyAsDouble(s);
        });
    }

    private static byte[] bars(Comparison comparison, String title, String yTitle,
            java.util.function.ToDoubleBiFunction<String, String> value) throws IOException {
        CategoryChart chart = new CategoryChartBuilder().width(900).height(480).title(title).xAxisTitle("probe")
                .yAxisTitle(yTitle).build();
        Charts.style(chart);
        for (String server : comparison.servers()) {
            List<Double> ys = comparison.probes().stream().map(p -> value.applyAsDouble(server, p))
                    .map(v -> Double.isNaN(v) ? 0.0 : v).toList();
            chart.addSeries(server, comparison.probes(), ys);
        }
        return BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG);
    }

    private static String[] cells(Comparison comparison, String probe, Section section) {
        List<String> servers = comparison.servers();
        double[] rateTimes = comparison.rateTimesSlowest(probe);
        double[] latencyTimes = comparison.latencyTimesSlowest(probe);
        String[] cells = new String[servers.size()];
        for (int i = 0; i < cells.length; i++) {
            SpiceFigures.Summary s = comparison.summary(servers.get(i), probe);
            cells[i] = s == null ? "not run" : section.cell.apply(new Cell(s, rateTimes[i], latencyTimes[i]));
        }
        return cells;
    }

    /**
     * The answer first. Across servers: per probe, where it costs the least and the most CPU and where it
     * runs fastest. Before/after: per probe, the change in rate and CPU, and whether it lies inside the
     * noise (the two figures' 95 % intervals overlap).
     */
    static List<String> verdict(Comparison comparison) {
        List<String> sentences = new ArrayList<>();
        if (!comparison.notComparable().isEmpty()) {
            sentences.add("Not comparable as before and after: the runs were measured differently — "
                    + String.join("; ", comparison.notComparable()) + ". They stand side by side, each under its own method.");
        }
        if (comparison.beforeAfter()) {
            sentences.addAll(beforeAndAfter(comparison));
            return sentences;
        }
        for (String probe : comparison.probes()) {
            String sentence = acrossServers(comparison, probe);
            if (sentence != null) {
                sentences.add(sentence);
            }
        }
        sentences.addAll(overloadVerdict(comparison));
        if (!sentences.isEmpty()) {
            sentences.add("Where a client used about a core, the rates are the client's limit: the CPU figures hold."
                    + " Each server's own report says where that was.");
        }
        return sentences;
    }

    /** Two runs of one server: per probe, the change in rate and CPU, inside the noise or not. */
    private static List<String> beforeAndAfter(Comparison comparison) {
        String before = comparison.servers().get(0);
        String after = comparison.servers().get(1);
        List<String> sentences = new ArrayList<>();
        sentences.add("Before: " + before + "; after: " + after + ". A change counts when the two figures' 95 %"
                + " intervals do not overlap (from each run's 1 s slices, or across its repeats with --repeat 3).");
        for (String probe : comparison.probes()) {
            SpiceFigures.Summary b = comparison.summary(before, probe);
            SpiceFigures.Summary a = comparison.summary(after, probe);
            if (b == null || a == null || b.failed() || a.failed()) {
                List<String> missing = new ArrayList<>();
                missing.addAll(absent(b, before));
                missing.addAll(absent(a, after));
                sentences.add(probe + ": " + String.join(" and ", missing) + ", so no change can be given.");
                continue;
            }
            Comparison.Spread sb = comparison.spread(before, probe);
            Comparison.Spread sa = comparison.spread(after, probe);
            sentences.add(probe + ": " + change("req/s", b.peakRateRps(), a.peakRateRps(), sb.rate(), sa.rate())
                    + "; " + change("µs of CPU per request" + (comparison.mixedCpuSources(probe) ? " (mach in both: the"
                    + " runs count it differently)" : ""), comparison.cpu(before, probe), comparison.cpu(after, probe),
                    sb.cpu(), sa.cpu()) + ratioChange(comparison.ratio(before, probe), comparison.ratio(after, probe)) + ".");
        }
        return sentences;
    }

    /** One probe across servers: where it costs the least and the most CPU, where it runs fastest; null if on fewer than two. */
    private static String acrossServers(Comparison comparison, String probe) {
        List<String> measured = comparison.servers().stream().filter(server -> {
            SpiceFigures.Summary s = comparison.summary(server, probe);
            return s != null && !s.failed();
        }).toList();
        if (measured.size() < 2) {
            return null;
        }
        String cheapest = best(measured, server -> comparison.cpu(server, probe), false);
        String dearest = best(measured, server -> comparison.cpu(server, probe), true);
        String fastest = best(measured, server -> comparison.summary(server, probe).peakRateRps(), true);
        StringBuilder sentence = new StringBuilder(probe).append(": ");
        if (cheapest != null && dearest != null && comparison.cpu(cheapest, probe) == comparison.cpu(dearest, probe)) {
            sentence.append("the same server CPU on each (").append(Format.words(comparison.cpu(cheapest, probe)))
                    .append(" µs").append(comparison.mixedCpuSources(probe) ? " mach" : "").append("); ");
        } else if (cheapest != null && dearest != null) {
            String measure = comparison.mixedCpuSources(probe) ? " mach" : "";
            sentence.append("least server CPU on ").append(cheapest).append(" (")
                    .append(Format.words(comparison.cpu(cheapest, probe))).append(" µs").append(measure).append("), most on ")
                    .append(dearest).append(" (").append(Format.words(comparison.cpu(dearest, probe))).append(" µs")
                    .append(measure).append(measure.isEmpty() ? "" : ": the runs count this probe's CPU differently,"
                    + " so the whole machine less the client for all").append("); ");
        }
        String lowRatio = best(measured, server -> comparison.ratio(server, probe).estimate(), false);
        String highRatio = best(measured, server -> comparison.ratio(server, probe).estimate(), true);
        if (lowRatio != null && highRatio != null && !lowRatio.equals(highRatio)) {
            Judge.Interval low = comparison.ratio(lowRatio, probe);
            Judge.Interval high = comparison.ratio(highRatio, probe);
            sentence.append("against each server's own static file, lowest on ").append(lowRatio).append(" (")
                    .append(Judge.words(low)).append("), highest on ").append(highRatio).append(" (")
                    .append(Judge.words(high)).append(Judge.apart(low, high) ? ")"
                            : "; their intervals overlap: no difference shown)").append("; ");
        }
        SpiceFigures.Summary top = comparison.summary(fastest, probe);
        sentence.append("highest rate on ").append(fastest).append(" (").append(Format.words(top.peakRateRps()))
                .append(" req/s @ ").append(top.peakClients()).append(").");
        return sentence.toString();
    }

    /** "; × the static file's 0.97 → 1.10 (+13 %, beyond the noise)", or "" where either ratio is unknown. */
    private static String ratioChange(Judge.Interval before, Judge.Interval after) {
        if (Double.isNaN(before.estimate()) || Double.isNaN(after.estimate())) {
            return "";
        }
        double change = after.estimate() / before.estimate() - 1;
        String noise = !before.known() || !after.known() ? "no interval"
                : Judge.apart(before, after) ? "beyond the noise" : "inside the noise";
        return String.format(Locale.ROOT, "; × the static file's CPU %s → %s (%+.1f %%, %s)", Format.ratio(before.estimate()),
                Format.ratio(after.estimate()), 100 * change, noise);
    }

    /** Per probe flooded on several servers: where it held its rate best and worst past the peak. */
    private static List<String> overloadVerdict(Comparison comparison) {
        List<String> sentences = new ArrayList<>();
        for (String probe : comparison.probes()) {
            Map<String, Overload.Step> largest = new java.util.LinkedHashMap<>();
            Map<String, Double> retention = new java.util.LinkedHashMap<>();
            for (String server : comparison.servers()) {
                Overload o = comparison.overload(server, probe);
                Overload.Step step = o == null ? null : o.largestCounted();
                if (step != null) {
                    largest.put(server, step);
                    retention.put(server, o.retention(step));
                }
            }
            if (retention.size() < 2) {
                continue;
            }
            String best = best(List.copyOf(retention.keySet()), retention::get, true);
            String worst = best(List.copyOf(retention.keySet()), retention::get, false);
            sentences.add(String.format(Locale.ROOT, "%s past its peak: holds best on %s (%s at %d ×), worst on %s (%s at %d ×).",
                    probe, best, Format.percentWords(retention.get(best)), largest.get(best).multiple(), worst,
                    Format.percentWords(retention.get(worst)), largest.get(worst).multiple()));
        }
        return sentences;
    }

    /** "not run in RUN" or "failed in RUN", or nothing when the probe counted there. */
    private static List<String> absent(SpiceFigures.Summary summary, String run) {
        return summary == null ? List.of("not run in " + run) : summary.failed() ? List.of("failed in " + run) : List.of();
    }

    private static String best(List<String> servers, java.util.function.ToDoubleFunction<String> value, boolean highest) {
        String best = null;
        double bestValue = Double.NaN;
        for (String server : servers) {
            double v = value.applyAsDouble(server);
            if (!Double.isNaN(v) && (best == null || (highest ? v > bestValue : v < bestValue))) {
                best = server;
                bestValue = v;
            }
        }
        return best;
    }

    /** "10,036 → 11,200 req/s (+11.6 %, outside the noise of ±4.0 %)". */
    static String change(String unit, double before, double after, double spreadBefore, double spreadAfter) {
        if (Double.isNaN(before) || Double.isNaN(after) || before == 0) {
            return unit + " not measured in both";
        }
        double change = after / before - 1;
        Boolean inside = Comparison.insideNoise(change, spreadBefore, spreadAfter);
        String label = inside == null ? "no interval in one of the runs, so the noise is unknown"
                : String.format(Locale.ROOT, "%s the noise of ±%.1f %%", inside ? "inside" : "outside",
                        (spreadBefore + spreadAfter) * 100);
        return String.format(Locale.ROOT, "%s → %s %s (%+.1f %%, %s)", Format.words(before), Format.words(after), unit,
                change * 100, label);
    }

    private static String times(double ratio) {
        return Format.num(ratio, 2) + "x";
    }
}
