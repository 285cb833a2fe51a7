package org.spice.bench.report;

import java.util.ArrayList;
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

    public static String of(Results results) {
        StringBuilder out = new StringBuilder();
        List<SpiceFigures.Summary> summaries = results.summary();
        out.append(String.format(Locale.ROOT, "SPICE summary: %s%s; %s; efficiencies against %s at the"
                + " same client count%n", results.target(), results.server() == null ? "" : " (" + results.server() + ")",
                Method.of(results).describe(), results.baseline().equals("fileset") ? "the static fileset" : "the static file"));
        String format = "%-" + nameWidth(results) + "s %17s %12s %9s %9s %9s %9s %19s %14s %17s%n";
        out.append(String.format(Locale.ROOT, format, "probe", "peak req/s @ cl", "lat@peak ms", "req eff", "lat eff",
                "req eff", "lat eff", "CPU us/req", "CPU eff", "useful peak"));
        out.append(String.format(Locale.ROOT, format, "", "", "", "@ peak", "@ peak", "@ max cl", "@ max cl",
                "srv/mach @pk", "@ peak", "req/s @ cl"));
        boolean machine = false;
        for (SpiceFigures.Summary s : summaries) {
            boolean fromMachine = s.cpuSource() == SpiceFigures.CpuSource.MACHINE;
            machine |= fromMachine;
            String counted = Format.plusMinus(s.noise().cpuUsPerReqAtPeakCi(), 0);
            String cpu = Format.num(s.serverCpuUsPerReqAtPeak(), 0) + (fromMachine ? "/" : counted + "*/")
                    + Format.num(s.machineCpuUsPerReqAtPeak(), 0) + (fromMachine ? counted + "*" : "");
            out.append(String.format(Locale.ROOT, format, s.probe(), Format.at(s.peakRateRps(), s.peakClients()),
                    Format.num(s.latencyAtPeakMs(), 2), Format.percent(s.requestEfficiencyAtPeak()),
                    Format.percent(s.latencyEfficiencyAtPeak()), Format.percent(s.requestEfficiencyAtMaxLoad()),
                    Format.percent(s.latencyEfficiencyAtMaxLoad()), cpu,
                    Format.percent(s.cpuEfficiency()) + Format.plusMinusPercent(s.noise().cpuEfficiencyCi()),
                    Format.at(s.usefulPeakRps(), s.usefulPeakClients())));
        }
        out.append(String.format(Locale.ROOT, "useful peak: Jain fairness >= %.2f and mean latency <= %s ms;"
                + " max cl = the largest client count that ran%n", SpiceFigures.FAIR, Format.num(results.latencyBoundMs(), 0)));
        out.append("CPU us/req: srv = the server's processes and the children they reap; mach = the whole machine less"
                + " this client (also children the kernel reaps, like httpd mod_cgid's CGI programs); * = the figure"
                + " that counts, and CPU eff = static's / the probe's, from that figure; ±: its 95 % interval (batch"
                + " means of the 1 s slices, or across repeats)\n");
        if (machine && summaries.stream().anyMatch(s -> s.probe().equals(Probe.CGI.id())
                && results.cpuSource(Probe.CGI.id()) == SpiceFigures.CpuSource.MACHINE)) {
            out.append("  (mach counts for cgi here: ").append(results.cgiUnseenBecause()).append(")\n");
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
