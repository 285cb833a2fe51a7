package org.spice.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.spice.bench.model.LatencyProfile;
import org.spice.bench.model.OpenLoopRun;
import org.spice.bench.model.Reference;

/**
 * The latency profile's answer (--profile latency): per common rate, each probe's latency percentiles and their ratio
 * to the static file's at that rate, paired by round; each probe along its own curve; one sentence per rate that
 * says what an interface adds to a user's wait at the same load.
 */
public final class LatencyTable {

    static final String LEGEND = "open loop: a request due every 1/rate seconds whatever the server does, its latency"
            + " from its due time (connect included); p50 and p99 × static: the probe's percentile over the static"
            + " file's at the same rate in the same round, the Hodges-Lehmann estimate of the rounds' log-ratios and its"
            + " 95 % interval (Wilcoxon's signed-rank); the percentiles are of every round's requests together; cpu: the"
            + " server's CPU per request at that rate; limited: slices where the generator was late (lag p99.9 over"
            + " 1 ms) or dropped requests, whose tails are partly the generator's";

    private LatencyTable() {
    }

    /** A round's line on stderr: each probe's p99 ratio at each rate so far. */
    public static String progress(int round, List<LatencyProfile.AtRate> figures) {
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "[latency round %d]", round));
        double rate = Double.NaN;
        for (LatencyProfile.AtRate f : figures) {
            if (f.offeredRps() != rate) {
                rate = f.offeredRps();
                line.append(String.format(Locale.ROOT, "  %s req/s:", Format.num(rate, 0)));
            }
            line.append(' ').append(f.probe()).append(' ').append(f.probe().equals(Reference.STATIC)
                    ? "p99 " + Format.num(f.p99Ms(), 3) + " ms" : "p99 " + Format.ratio(f.p99Ratio()) + "×"
                    + (Double.isNaN(f.p99RatioCi()) ? "" : " " + Format.percentOf(f.p99RatioCi(), f.p99Ratio())));
        }
        return line.toString();
    }

    /** The answer's sentences: at each rate, each probe's p99 and its ratio to static. */
    public static List<String> sentences(LatencyProfile profile) {
        List<String> sentences = new ArrayList<>();
        if (profile == null || profile.common().isEmpty()) {
            return sentences;
        }
        for (double rate : profile.rates()) {
            List<String> parts = new ArrayList<>();
            for (LatencyProfile.AtRate f : profile.common()) {
                if (f.offeredRps() != rate || f.probe().equals(Reference.STATIC)) {
                    continue;
                }
                parts.add(String.format(Locale.ROOT, "%s's p99 is %s ms, %s the static file's%s", f.probe(),
                        Format.words(f.p99Ms()), Format.times(f.p99Ratio()),
                        Double.isNaN(f.p99RatioCi()) ? " (too few rounds for an interval)"
                                : " (" + Format.percentOf(f.p99RatioCi(), f.p99Ratio()) + ")"));
            }
            profile.common().stream().filter(f -> f.offeredRps() == rate && f.probe().equals(Reference.STATIC))
                    .findFirst().ifPresent(s -> parts.add(String.format(Locale.ROOT, "the static file's is %s ms",
                            Format.words(s.p99Ms()))));
            sentences.add(String.format(Locale.ROOT, "At %s req/s (%s of %s's peak), open loop: %s.",
                    Format.num(rate, 0), Format.percentWords(rate / profile.peaks().stream()
                            .filter(p -> p.probe().equals(profile.slowest())).findFirst().orElseThrow().peakRps()),
                    profile.slowest(), Format.list(parts)));
        }
        return sentences;
    }

    /** Both tables, the sentences and the legend; nothing without a profile. */
    public static String text(LatencyProfile profile) {
        if (profile == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "%n%s%n", title(profile)));
        out.append(CrossTable.columns(common(profile)));
        if (!profile.curves().isEmpty()) {
            out.append(String.format(Locale.ROOT, "%nEach probe along its own curve (fractions of its peak)%n"));
            out.append(CrossTable.columns(curves(profile)));
        }
        sentences(profile).forEach(s -> out.append(s).append('\n'));
        return out.append(LEGEND).append('\n').toString();
    }

    /** The report's section: the same tables, the chart between them. */
    static void html(StringBuilder h, LatencyProfile profile, List<Charts.Figure> figures) {
        if (profile == null) {
            return;
        }
        h.append("<section id=\"latency-profile\"><h2>Latency at the same load</h2>\n<p>")
                .append(HtmlReport.esc(title(profile))).append("</p>\n");
        for (String sentence : sentences(profile)) {
            h.append("<p>").append(HtmlReport.esc(sentence)).append("</p>\n");
        }
        HtmlReport.table(h, common(profile));
        HtmlReport.figure(h, figures, LatencyCharts.P99);
        HtmlReport.figure(h, figures, LatencyCharts.P50);
        if (!profile.curves().isEmpty()) {
            h.append("<h3>Each probe along its own curve</h3>\n");
            HtmlReport.table(h, curves(profile));
        }
        h.append("<p>").append(HtmlReport.esc(LEGEND)).append("</p></section>\n");
    }

    private static String title(LatencyProfile profile) {
        LatencyProfile.Peak slowest = profile.peaks().stream().filter(p -> p.probe().equals(profile.slowest()))
                .findFirst().orElseThrow();
        return String.format(Locale.ROOT, "Latency at common rates, open loop: %s of %s's peak (%s req/s at %d"
                + " clients), %d rounds of %s s slices, paired with the static file in each round; stopped: %s",
                Format.list(profile.fractions().stream().map(Format::percentWords).toList()), slowest.probe(),
                Format.num(slowest.peakRps(), 0), slowest.clients(), profile.rounds(), Format.num(profile.sliceS(), 1),
                profile.stoppedBy());
    }

    private static List<String[]> common(LatencyProfile profile) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"probe", "req/s", "achieved", "p50 ms", "p90 ms", "p99 ms", "p99.9 ms", "max ms",
            "p50 × static", "p99 × static", "cpu µs/req", "cpu × static", "failed", "limited"});
        for (LatencyProfile.AtRate f : profile.common()) {
            boolean reference = f.probe().equals(Reference.STATIC);
            rows.add(new String[] {f.probe(), Format.num(f.offeredRps(), 0), Format.num(f.achievedRps(), 1),
                OpenLoopTable.ms(f.p50Ms()), OpenLoopTable.ms(f.p90Ms()), OpenLoopTable.ms(f.p99Ms()),
                OpenLoopTable.ms(f.p999Ms()), OpenLoopTable.ms(f.maxMs()),
                reference ? "1" : ratio(f.p50Ratio(), f.p50RatioCi()), reference ? "1" : ratio(f.p99Ratio(), f.p99RatioCi()),
                Format.num(f.cpuUsPerReq(), 1), reference ? "1" : ratio(f.cpuRatio(), f.cpuRatioCi()),
                Long.toString(f.failed()), f.generatorLimitedSlices() + "/" + f.slices()});
        }
        return rows;
    }

    private static List<String[]> curves(LatencyProfile profile) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"probe", "× peak", "offered", "achieved", "p50 ms", "p90 ms", "p99 ms", "p99.9 ms",
            "max ms", "failed", "dropped", "lag p99 ms", "cpu µs/req", "generator"});
        for (OpenLoopRun r : profile.curves()) {
            double peak = profile.peaks().stream().filter(p -> p.probe().equals(r.probe())).findFirst()
                    .map(LatencyProfile.Peak::peakRps).orElse(Double.NaN);
            rows.add(new String[] {r.probe(), Format.num(r.offeredRps() / peak, 2), Format.num(r.offeredRps(), 0),
                Format.num(r.achievedRps(), 1), OpenLoopTable.ms(r.p50Ms()), OpenLoopTable.ms(r.p90Ms()),
                OpenLoopTable.ms(r.p99Ms()), OpenLoopTable.ms(r.p999Ms()),
                OpenLoopTable.ms(r.maxMs()), Long.toString(r.errors() + r.timeouts()), Long.toString(r.dropped()),
                Format.num(r.generatorLagP99Ms(), 3), Format.num(r.serverCpuUsPerReq(), 1),
                r.generatorLimited() ? "LIMITED" : r.cut() ? "cut short" : "ok"});
        }
        return rows;
    }

    private static String ratio(double ratio, double ci) {
        return Format.ratio(ratio) + (Double.isNaN(ci) ? "" : " " + Format.percentOf(ci, ratio));
    }
}
