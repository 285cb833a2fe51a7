package org.spice.bench.report;

import java.util.ArrayList;
import java.util.IntSummaryStatistics;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

import org.spice.bench.figures.Counts;
import org.spice.bench.figures.SpiceFigures;
import org.spice.bench.model.Results;
import org.spice.bench.model.RunRecord;
import org.spice.page.Probe;

/**
 * The terminal tables. The summary has the shape of the white paper's Tables 1-9: per probe the peak
 * request rate and the latency there, then the SPICE efficiencies at the peak and at the maximum load.
 * A second table gives rate and mean latency per client count, the numbers behind the figures.
 */
public final class SummaryTable {

    private SummaryTable() {
    }

    /** The run's line, then the ladder's table. */
    public static String of(Results results) {
        return title(results) + rates(results);
    }

    /** What was measured, and how: the first line of the answer. */
    static String title(Results results) {
        return String.format(Locale.ROOT, "SPICE summary: %s%s; %s%n", results.target(), results.server() == null ? ""
                : " (" + results.server() + ")", Method.of(results).describe());
    }

    /**
     * The ladder's table: per probe its peak rate and the request efficiencies, the notes that go with them; nothing
     * for a run at offered rates alone (--rate, an open-loop import), whose table is the open loop's.
     */
    static String rates(Results results) {
        if (results.runs().isEmpty() && !results.openLoop().isEmpty()) {
            return "";
        }
        StringBuilder out = new StringBuilder();
        List<SpiceFigures.Summary> summaries = results.summary();
        // With the CPU rounds, the CPU figures are theirs alone (the CPU table); the ladder's then give rates only.
        boolean ladderCpu = ladderCpu(results);
        boolean useful = summaries.stream().anyMatch(SummaryTable::usefulPeakDiffers);
        IntSummaryStatistics clients = results.runs().stream().mapToInt(RunRecord::clients).summaryStatistics();
        out.append(String.format(Locale.ROOT, "Request rates from the ladder (%s, closed loop: each client sends its next"
                + " request when the last is answered), each probe against %s at the same client count%n",
                clients.getCount() == 0 ? "no mix ran" : clients.getMin() == clients.getMax()
                        ? Counts.clients(clients.getMax()) : clients.getMin() + " to " + clients.getMax() + " clients",
                results.baseline().equals("fileset") ? "the static fileset" : "the static file"));
        List<String[]> rows = rows(results);
        out.append(columns(rows, nameWidth(results)));
        out.append("request eff. = the probe's rate / the static file's at the probe's peak client count, and at the"
                + " largest that ran; peak-to-peak = the probe's peak / the static file's, whatever their client counts"
                + " (as the white paper's Table 5 reads); the latency efficiency (static's latency / the probe's) is the"
                + " request efficiency again in a closed loop (Little's law): results.json keeps it\n");
        if (useful) {
            out.append(String.format(Locale.ROOT, "useful peak: the highest rate with Jain fairness ≥ %.2f and mean latency"
                    + " ≤ %s ms%n", SpiceFigures.FAIR, Format.num(results.latencyBoundMs(), 0)));
        }
        if (ladderCpu) {
            out.append("CPU µs/req @ peak: the server's CPU in the ladder's window at the probe's peak (no CPU rounds ran),"
                    + " from the server's processes and the children they reap, or, marked (mach), the whole machine less"
                    + " this client; CPU eff. = the static file's at the same client count / the probe's; ±: 95 % interval"
                    + " (batch means of the 1 s slices, or across repeats)\n");
            if (summaries.stream().anyMatch(s -> s.probe().equals(Probe.CGI.id())
                    && results.cpuSource(Probe.CGI.id()) == SpiceFigures.CpuSource.MACHINE)) {
                out.append("  (mach counts for cgi here: ").append(results.cgiUnseenBecause()).append(")\n");
            }
        }
        out.append(responseSizes(results));
        out.append('\n').append(ladder(results));
        for (RunRecord run : results.runs()) {
            if (run.failed()) {
                out.append(String.format(Locale.ROOT, "FAILED %s, %s, repeat %d: %s; errors %s%n", run.probe(),
                        Counts.clients(run.clients()), run.repeat(), run.reason(), nonZero(run)));
            }
        }
        if (results.partial()) {
            out.append("PARTIAL RESULTS: ").append(results.partialReason()).append('\n');
        }
        return out.toString();
    }

    /** Whether the ladder's CPU figures are printed: no CPU rounds ran, and some probe has one. */
    static boolean ladderCpu(Results results) {
        List<SpiceFigures.Summary> summaries = results.summary();
        return summaries.stream().noneMatch(s -> s.rounds().measured())
                && summaries.stream().anyMatch(s -> !Double.isNaN(s.cpuUsPerReqAtPeak()));
    }

    /**
     * The ladder's table as cells, its heads first: the terminal and report.html print the same. The useful peak only
     * where it is not the peak for some probe; the ladder's CPU only where no CPU rounds ran.
     */
    static List<String[]> rows(Results results) {
        List<SpiceFigures.Summary> summaries = results.summary();
        boolean useful = summaries.stream().anyMatch(SummaryTable::usefulPeakDiffers);
        boolean ladderCpu = ladderCpu(results);
        List<String[]> rows = new ArrayList<>();
        List<String> heads = new ArrayList<>(List.of("probe", "peak req/s @ clients", "latency @ peak, ms",
                "request eff. @ peak", "request eff. @ max clients", "peak-to-peak"));
        if (useful) {
            heads.add("useful peak req/s @ clients");
        }
        if (ladderCpu) {
            heads.addAll(List.of("CPU µs/req @ peak", "CPU eff. @ peak"));
        }
        rows.add(heads.toArray(String[]::new));
        for (SpiceFigures.Summary s : summaries) {
            List<String> row = new ArrayList<>(List.of(s.probe(), Format.at(s.peakRateRps(), s.peakClients()),
                    Format.num(s.latencyAtPeakMs(), 2), Format.percent(s.requestEfficiencyAtPeak()),
                    Format.percent(s.requestEfficiencyAtMaxLoad()) + (s.failed() ? "" : " @ " + s.maxLoadClients()),
                    Format.percent(s.requestEfficiencyPeakToPeak())));
            if (useful) {
                row.add(Format.at(s.usefulPeakRps(), s.usefulPeakClients()));
            }
            if (ladderCpu) {
                row.add(Format.num(s.cpuUsPerReqAtPeak(), 0) + " " + Format.percentOf(s.noise().cpuUsPerReqAtPeakCi(),
                        s.cpuUsPerReqAtPeak()) + (s.cpuSource() == SpiceFigures.CpuSource.MACHINE ? " (mach)" : ""));
                row.add(Format.percent(s.cpuEfficiency()) + " " + Format.percentOf(s.noise().cpuEfficiencyCi(), s.cpuEfficiency()));
            }
            rows.add(row.toArray(String[]::new));
        }
        return rows;
    }

    /** Whether the probe's useful peak is not its peak (none, or at another client count). */
    static boolean usefulPeakDiffers(SpiceFigures.Summary s) {
        return !s.failed() && (Double.isNaN(s.usefulPeakRps()) || s.usefulPeakClients() != s.peakClients());
    }

    /** Rows of cells as columns: the first left-aligned at {@code nameWidth}, each other as wide as its widest cell. */
    static String columns(List<String[]> rows, int nameWidth) {
        int[] widths = new int[rows.get(0).length];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                widths[i] = Math.max(widths[i], i == 0 ? Math.max(nameWidth, row[i].length()) : row[i].length());
            }
        }
        StringBuilder out = new StringBuilder();
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.length; i++) {
                line.append(i == 0 ? String.format(Locale.ROOT, "%-" + widths[0] + "s", row[0])
                        : String.format(Locale.ROOT, "  %" + widths[i] + "s", row[i]));
            }
            out.append(line.toString().stripTrailing()).append('\n');
        }
        return out.toString();
    }

    /**
     * For mixes of many sizes (a fileset): the measured bytes per response against the mix's weighted mean,
     * the check that the load had the size distribution it was meant to have.
     */
    static String responseSizes(Results results) {
        StringBuilder out = new StringBuilder();
        Map<String, Double> means = results.settings().mixMeanBytes();
        if (means != null) {
            for (Map.Entry<String, Double> mean : means.entrySet()) {
                long bytes = 0;
                long requests = 0;
                for (RunRecord run : results.runs()) {
                    if (run.probe().equals(mean.getKey()) && !run.failed()) {
                        bytes += run.bodyBytes();
                        requests += run.requests();
                    }
                }
                double expected = ((Number) mean.getValue()).doubleValue();
                if (requests > 0) {
                    double measured = bytes / (double) requests;
                    out.append(String.format(Locale.ROOT, "%s: %.1f bytes per response measured, %.1f expected from the"
                            + " mix's weights (%+.2f %%)%n", mean.getKey(), measured, expected,
                            100 * (measured - expected) / expected));
                }
            }
        }
        return out.toString();
    }

    /** Wide enough for the longest workload name (mix files can have long names). */
    private static int nameWidth(Results results) {
        return Math.max(10, results.runs().stream().mapToInt(r -> r.probe().length()).max().orElse(0));
    }

    /** Rate (req/s) and mean latency (ms) per probe and client count, repeats averaged. */
    static String ladder(Results results) {
        List<String> probes = new ArrayList<>();
        TreeSet<Integer> clients = new TreeSet<>();
        for (RunRecord run : results.runs()) {
            if (!probes.contains(run.probe())) {
                probes.add(run.probe());
            }
            clients.add(run.clients());
        }
        StringBuilder out = new StringBuilder("request rate req/s | mean latency ms, by clients\n");
        String name = "%-" + nameWidth(results) + "s";
        out.append(String.format(Locale.ROOT, name, "clients"));
        for (int c : clients) {
            out.append(String.format(Locale.ROOT, " %17d", c));
        }
        out.append('\n');
        for (String probe : probes) {
            List<SpiceFigures.Point> points = SpiceFigures.combineRepeats(results.runs().stream()
                    .filter(r -> r.probe().equals(probe)).map(RunRecord::point).toList());
            out.append(String.format(Locale.ROOT, name, probe));
            for (int c : clients) {
                SpiceFigures.Point p = points.stream().filter(x -> x.clients() == c).findFirst().orElse(null);
                String cell = p == null ? "" : p.failed() ? "failed"
                        : Format.num(p.rateRps(), 1) + " | " + Format.num(p.meanLatencyMs(), 2);
                out.append(String.format(Locale.ROOT, " %17s", cell));
            }
            out.append('\n');
        }
        return out.toString();
    }

    static String nonZero(RunRecord run) {
        StringBuilder out = new StringBuilder();
        run.errors().forEach((k, v) -> {
            if (v > 0) {
                out.append(out.length() == 0 ? "" : ", ").append(k).append('=').append(v);
            }
        });
        return out.length() == 0 ? "none" : out.toString();
    }
}
