package org.spice.bench.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.spice.bench.figures.Judge;
import org.spice.bench.figures.SpiceFigures;
import org.spice.bench.model.Across;
import org.spice.bench.model.CpuRounds;

/**
 * The answer of servers side by side, in the terminal: per pair of servers, each probe's CPU per request on one
 * against the other (paired by round), the same for the two servers' ratios to their own static files, and one
 * sentence per probe that says it in words.
 */
public final class CrossTable {

    private CrossTable() {
    }

    /** What the tables' columns mean, in the terminal and in the report: a line a term. */
    static final List<String> LEGEND = List.of(
            "± : 95 % intervals, the larger half where an interval leans (Hodges-Lehmann estimates of the rounds'",
            "    log-ratios, Wilcoxon's signed-rank intervals; over several starts, Student's across them)",
            "× own static file: (the probe / the static file on one) / (the same on the other): whose interface is",
            "    leaner for what its static file costs",
            "holds 1?: whether the interval holds 1: no difference the rounds can tell (two instances of one server should)",
            "aim: the interval a ratio had to reach, twice the precision past 2 × its static file, judged on the ± printed",
            "starts: one start's rounds cannot see what differs from one start of a server to the next; --restarts N",
            "    gives the interval across N starts, the share of a round's variance between them and its sd (log units)");

    /** The tables of every pair of servers over every start ({@code starts}: each one's rounds), then the sentences. */
    public static String text(Across all) {
        return text(all, Map.of());
    }

    /**
     * The one answer of servers side by side: the cross ratios, each server's probes against its own static file, the
     * ladder's peaks of each server ({@code ladders}, its summary by name; none where empty), the legend, a sentence a
     * cross ratio and the design's checks.
     */
    public static String text(Across all, Map<String, List<SpiceFigures.Summary>> ladders) {
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "%n%s%n", title(all)));
        pairs(all.cross()).forEach((pair, figures) -> out.append(columns(rows(pair, figures))));
        if (!all.own().isEmpty()) {
            out.append(all.starts() > 1 ? String.format(Locale.ROOT, "Each against its own static file, over the %d"
                    + " starts:%n", all.starts()) : String.format(Locale.ROOT, "Each against its own static file:%n"));
            out.append(columns(ownRows(all.own(), all.starts() > 1)));
        }
        if (!ladders.isEmpty()) {
            out.append(String.format(Locale.ROOT, "The ladder's peaks, req/s @ clients (each server alone, closed"
                    + " loop):%n")).append(columns(peakRows(ladders)));
        }
        LEGEND.forEach(line -> out.append(line).append('\n'));
        all.cross().forEach(c -> out.append(sentence(c)).append('\n'));
        out.append(checks(all.checks())).append('\n');
        return out.toString();
    }

    /** Per probe, each server's ladder peak: "12,641 @ 32"; "-" where it did not run there. */
    static List<String[]> peakRows(Map<String, List<SpiceFigures.Summary>> ladders) {
        List<String> servers = List.copyOf(ladders.keySet());
        List<String> probes = ladders.values().stream().flatMap(List::stream).map(SpiceFigures.Summary::probe)
                .distinct().toList();
        List<String[]> rows = new ArrayList<>();
        List<String> head = new ArrayList<>(List.of("probe"));
        head.addAll(servers);
        rows.add(head.toArray(String[]::new));
        for (String probe : probes) {
            List<String> row = new ArrayList<>(List.of(probe));
            for (String server : servers) {
                SpiceFigures.Summary s = ladders.get(server).stream().filter(x -> x.probe().equals(probe)).findFirst()
                        .orElse(null);
                row.add(s == null || s.failed() ? "-" : String.format(Locale.ROOT, "%,.0f @ %d", s.peakRateRps(),
                        s.peakClients()));
            }
            rows.add(row.toArray(String[]::new));
        }
        return rows;
    }

    /**
     * The design's checks, a line each: carry-over per server, the idle servers' CPU and the steal time per slice
     * ("checks: a slice after another server's / after its own: tomcat 1.004 ± 1.2 % (holds 1) …").
     */
    static String checks(Across.Checks checks) {
        StringBuilder line = new StringBuilder("checks: a slice after another server's / after its own:");
        for (Across.CarryOver c : checks.carryOver()) {
            line.append(Double.isNaN(c.effectCi()) ? String.format(Locale.ROOT, " %s -;", c.server())
                    : String.format(Locale.ROOT, " %s %.3f ± %.1f %% (%s);", c.server(), c.effect(),
                            100 * c.effectCi() / c.effect(), c.holdsOne() ? "holds 1" : "does NOT hold 1"));
        }
        line.append(String.format(Locale.ROOT, "%nchecks: the idle servers' CPU per slice, of the measured one's: median %s,"
                + " 95th percentile %s%nchecks: the steal time per slice, of a CPU: median %s, largest %s",
                percent(checks.idleShare().median()), percent(checks.idleShare().p95()),
                percent(checks.stealShare().median()), percent(checks.stealShare().max())));
        return line.toString();
    }

    private static String percent(double share) {
        return Double.isNaN(share) ? "not read" : String.format(Locale.ROOT, "%.2f %%", 100 * share);
    }

    /** The line above the tables: which arms, how many starts and rounds, why the last start's stopped. */
    static String title(Across all) {
        CpuRounds rounds = all.last();
        String over = all.starts() > 1 ? all.starts() + " starts of the servers, the interval Student's across them"
                : "one start of each server, the intervals its rounds' alone (blind to what differs from one start to"
                        + " the next: --restarts 3 measures that)";
        return String.format(Locale.ROOT, "Servers side by side (%s): server CPU per request, each server's from its %s,"
                + " paired by round,%n%s:%nthe last start's %d rounds at %s, %d counted; stopped: %s",
                String.join(", ", all.servers()), all.cgroups() ? "own cgroup" : "processes or exporters (results.json: servers[]"
                + ".cpu_from)", over, rounds.rounds().size(), rounds.load(), rounds.counted(), rounds.stopped());
    }

    /** The figures by pair of arms ("a / b"), in order. */
    static Map<String, List<Across.Cross>> pairs(List<Across.Cross> all) {
        Map<String, List<Across.Cross>> pairs = new LinkedHashMap<>();
        all.forEach(c -> pairs.computeIfAbsent(c.a() + " / " + c.b(), k -> new ArrayList<>()).add(c));
        return pairs;
    }

    /** One pair's table: its head, then a row per probe. */
    static List<String[]> rows(String pair, List<Across.Cross> figures) {
        List<String[]> rows = new ArrayList<>();
        boolean restarted = figures.stream().anyMatch(c -> c.restarts() > 1);
        List<String> head = new ArrayList<>(List.of("probe", pair));
        head.addAll(List.of("req/s " + pair, "× own static file, " + pair, "rounds"));
        if (restarted) {
            head.addAll(List.of("starts", "between starts", "between starts (sd)"));
        }
        head.addAll(List.of("holds 1?", "aim: reached?"));
        rows.add(head.toArray(String[]::new));
        for (Across.Cross c : figures) {
            List<String> row = new ArrayList<>(List.of(c.label(), ratio(c.ratio(), c.ratioCi())));
            row.addAll(List.of(rates(c), Double.isNaN(c.relative()) ? "-" : ratio(c.relative(), c.relativeCi()),
                    Integer.toString(c.rounds())));
            if (restarted) {
                row.add(Integer.toString(c.restarts()));
                row.add(Double.isNaN(c.betweenRestarts()) ? "-"
                        : String.format(Locale.ROOT, "%.0f %%", 100 * c.betweenRestarts()));
                row.add(Double.isNaN(c.betweenStartsSd()) ? "-"
                        : String.format(Locale.ROOT, "%.3f", c.betweenStartsSd()));
            }
            row.add(holdsOne(c.interval()));
            row.add(String.format(Locale.ROOT, "±%s %%: %s", Format.num(100 * c.aim(), c.aim() < 0.01 ? 1 : 0),
                    c.precise() ? "reached" : "NOT reached"));
            rows.add(row.toArray(String[]::new));
        }
        return rows;
    }

    /** "5,600 offered" where both arms were offered one rate; "22,400 / 27,100" where each reached its own. */
    static String rates(Across.Cross c) {
        if (!c.ratesDiffer()) {
            return String.format(Locale.ROOT, "%,.0f %s", c.rateRps().get(0), c.rateKind());
        }
        return String.format(Locale.ROOT, "%,.0f / %,.0f", c.rateRps().get(0), c.rateRps().get(1));
    }

    /**
     * "servlet on tomcat costs 0.737 × what it costs on jetty (0.715 to 0.760), over 18 rounds, both at 600 req/s
     * offered";
     * for two probes, "php-fpm on apache costs 2.10 × what mod-php costs on apache-prefork (…)": {@link Judge}'s words.
     */
    static String sentence(Across.Cross c) {
        String over = String.format(Locale.ROOT, ", over %d rounds%s, %s", c.rounds(),
                c.restarts() > 1 ? " over " + c.restarts() + " starts" : "", c.ratesDiffer()
                        ? String.format(Locale.ROOT, "at %,.0f req/s against %,.0f, each side at its own rate",
                                c.rateRps().get(0), c.rateRps().get(1))
                        : String.format(Locale.ROOT, "both at %,.0f req/s %s", c.rateRps().get(0), c.rateKind()));
        String what = c.bProbe() != null ? "what " + c.bProbe() + " costs on " + c.b() : "what it costs on " + c.b();
        return String.format(Locale.ROOT, "%s on %s costs %s%s", c.probe(), c.a(), Judge.words(c.interval(), what), over);
    }

    /** Each arm's probes against its own static file (over the starts, with the share between them, where several). */
    static List<String[]> ownRows(List<Across.Own> own, boolean restarted) {
        List<String[]> rows = new ArrayList<>();
        List<String> head = new ArrayList<>(List.of("arm", "probe", "× its static file", "rounds", "holds 1?"));
        if (restarted) {
            head.addAll(List.of("starts", "between starts"));
        }
        rows.add(head.toArray(String[]::new));
        for (Across.Own o : own) {
            List<String> row = new ArrayList<>(List.of(o.arm(), o.probe(), ratio(o.ratio(), o.ratioCi()),
                    Integer.toString(o.rounds()), holdsOne(o.interval())));
            if (restarted) {
                row.addAll(List.of(Integer.toString(o.restarts()), Double.isNaN(o.betweenRestarts()) ? "-"
                        : String.format(Locale.ROOT, "%.0f %%", 100 * o.betweenRestarts())));
            }
            rows.add(row.toArray(String[]::new));
        }
        return rows;
    }

    /** The "holds 1?" cell: "yes" or "no" as {@link Judge} calls the interval, "-" without one. */
    private static String holdsOne(Judge.Interval interval) {
        Judge.Call call = Judge.call(interval);
        return call == Judge.Call.UNKNOWN ? "-" : call.holdsOne() ? "yes" : "no";
    }

    /** "0.465 ±4.1 %": the ratio and its interval's larger half ({@link Judge}); "-" without a ratio. */
    private static String ratio(double ratio, double ci) {
        if (Double.isNaN(ratio)) {
            return "-";
        }
        return Double.isNaN(ci) ? String.format(Locale.ROOT, "%.3f", ratio)
                : String.format(Locale.ROOT, "%.3f ±%.1f %%", ratio, 100 * ci / ratio);
    }

    /** {@code rows} in aligned columns, the first left-aligned, the rest right-aligned (the open loop's table too). */
    static String columns(List<String[]> rows) {
        int[] widths = new int[rows.get(0).length];
        rows.forEach(r -> {
            for (int i = 0; i < r.length; i++) {
                widths[i] = Math.max(widths[i], r[i].length());
            }
        });
        StringBuilder out = new StringBuilder();
        for (String[] r : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < r.length; i++) {
                line.append(i == 0 ? String.format("%-" + widths[i] + "s", r[i])
                        : String.format("  %" + widths[i] + "s", r[i]));
            }
            out.append(line.toString().stripTrailing()).append('\n');
        }
        return out.toString();
    }
}
