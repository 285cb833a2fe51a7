package org.spice.bench.report;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.spice.bench.figures.Judge;
import org.spice.bench.figures.SpiceFigures;
import org.spice.bench.model.Overload;
import org.spice.bench.model.Results;

/**
 * Several servers' SPICE summaries side by side, the white paper's Tables 1-6 for more than two servers:
 * per probe, each server's peak rate and latency with how many times faster it is than the slowest server
 * there, its efficiencies, and its CPU per request.
 */
public final class Comparison {

    private final List<String> servers = new ArrayList<>();
    private final List<String> probes = new ArrayList<>();
    private final Map<String, Map<String, SpiceFigures.Summary>> byServer = new LinkedHashMap<>();
    private final Map<String, Map<String, Spread>> spreads = new LinkedHashMap<>();
    private final long bodyBytes;
    private final boolean beforeAfter;
    private final List<String> notComparable = new ArrayList<>();
    private final Map<String, List<Overload>> overload = new LinkedHashMap<>();

    /**
     * The noise of a probe's figures at its peak in one run: the 95 % intervals' half-widths relative to the
     * figures (from the 1 s slices, or across repeats), for the rate and the CPU per request; NaN where unknown.
     */
    public record Spread(int repeats, double rate, double cpu) {
        public static final Spread UNKNOWN = new Spread(1, Double.NaN, Double.NaN);
    }

    /** @param summaries per server (in report order), its per-probe summaries */
    public Comparison(Map<String, List<SpiceFigures.Summary>> summaries, long bodyBytes) {
        this(summaries, Map.of(), bodyBytes, false);
    }

    /**
     * @param spreads     per server, per probe, the spread of its repeats at the peak (absent: unknown)
     * @param beforeAfter true when the two columns are two runs of the same server, the first one before a change
     */
    public Comparison(Map<String, List<SpiceFigures.Summary>> summaries, Map<String, Map<String, Spread>> spreads,
            long bodyBytes, boolean beforeAfter) {
        this(summaries, spreads, bodyBytes, beforeAfter, List.of());
    }

    /**
     * @param notComparable how the runs' methods differ (protocol, page size, engine), one phrase each: when any,
     *                      the runs are side by side, never before and after
     */
    Comparison(Map<String, List<SpiceFigures.Summary>> summaries, Map<String, Map<String, Spread>> spreads,
            long bodyBytes, boolean beforeAfter, List<String> notComparable) {
        this.bodyBytes = bodyBytes;
        this.notComparable.addAll(notComparable);
        this.beforeAfter = beforeAfter && summaries.size() == 2 && notComparable.isEmpty();
        this.spreads.putAll(spreads);
        summaries.forEach((server, list) -> {
            servers.add(server);
            Map<String, SpiceFigures.Summary> byProbe = new LinkedHashMap<>();
            for (SpiceFigures.Summary s : list) {
                byProbe.put(s.probe(), s);
                if (!probes.contains(s.probe())) {
                    probes.add(s.probe());
                }
            }
            byServer.put(server, byProbe);
        });
    }

    /** Records what went past the peak on {@code server} (a column), when its run had the overload profile. */
    void overload(String server, List<Overload> flooded) {
        if (!flooded.isEmpty()) {
            overload.put(server, flooded);
        }
    }

    /** What went past the peak of {@code probe} on {@code server}, or null. */
    public Overload overload(String server, String probe) {
        return overload.getOrDefault(server, List.of()).stream().filter(o -> o.probe().equals(probe)).findFirst()
                .orElse(null);
    }

    /** True when some run went past its peak. */
    public boolean anyOverload() {
        return !overload.isEmpty();
    }

    public List<String> servers() {
        return servers;
    }

    public List<String> probes() {
        return probes;
    }

    public long bodyBytes() {
        return bodyBytes;
    }

    /** How the runs' methods differ, one phrase each; empty when they were measured alike. */
    public List<String> notComparable() {
        return notComparable;
    }

    /**
     * The CPU per request at the peak that compares across the runs for a probe: each run's counted figure when
     * every run counts the same measure (the server's processes, or the machine less the client); otherwise the
     * machine less the client for all, the measure every local run has.
     */
    public double cpu(String server, String probe) {
        SpiceFigures.Summary s = summary(server, probe);
        if (s == null) {
            return Double.NaN;
        }
        return mixedCpuSources(probe) ? s.machineCpuUsPerReqAtPeak() : s.cpuUs();
    }

    /** A probe's CPU against its run's static file and its interval ({@link SpiceFigures.Summary#cpuRatioInterval}). */
    public Judge.Interval ratio(String server, String probe) {
        SpiceFigures.Summary s = summary(server, probe);
        return s == null || s.failed() && !s.rounds().measured() ? Judge.Interval.NONE : s.cpuRatioInterval();
    }

    /** True when the runs count a probe's CPU by different measures (srv in one, mach in another). */
    public boolean mixedCpuSources(String probe) {
        return servers.stream().map(server -> summary(server, probe)).filter(s -> s != null && !s.failed()
                && !Double.isNaN(s.cpuUsPerReqAtPeak())).map(SpiceFigures.Summary::cpuSource).distinct().count() > 1;
    }

    /** True when the comparison is of two runs of the same server: before and after. */
    public boolean beforeAfter() {
        return beforeAfter;
    }

    public Spread spread(String server, String probe) {
        return spreads.getOrDefault(server, Map.of()).getOrDefault(probe, Spread.UNKNOWN);
    }

    /**
     * Whether a relative change lies inside the noise of the two runs: the two figures' intervals (each its relative
     * half-width of its own figure) overlap, as {@link Judge#apart} decides. Null when either interval is unknown.
     */
    public static Boolean insideNoise(double change, double noiseBefore, double noiseAfter) {
        if (Double.isNaN(noiseBefore) || Double.isNaN(noiseAfter)) {
            return null;
        }
        return !Judge.apart(Judge.Interval.symmetric(1, noiseBefore), Judge.Interval.symmetric(1 + change,
                (1 + change) * noiseAfter));
    }

    /** The summary of a probe on a server, or null if that server did not run it. */
    public SpiceFigures.Summary summary(String server, String probe) {
        return byServer.get(server).get(probe);
    }

    /** Peak rate of each server (in {@link #servers()} order) divided by the lowest: 1.0 for the slowest. */
    public double[] rateTimesSlowest(String probe) {
        double[] rates = column(probe, true);
        double slowest = min(rates);
        double[] times = new double[rates.length];
        for (int i = 0; i < rates.length; i++) {
            times[i] = rates[i] / slowest;
        }
        return times;
    }

    /** The highest latency at peak divided by each server's: how many times faster it answers than the slowest. */
    public double[] latencyTimesSlowest(String probe) {
        double[] latencies = column(probe, false);
        double slowest = max(latencies);
        double[] times = new double[latencies.length];
        for (int i = 0; i < latencies.length; i++) {
            times[i] = slowest / latencies[i];
        }
        return times;
    }

    private double[] column(String probe, boolean rate) {
        double[] values = new double[servers.size()];
        for (int i = 0; i < values.length; i++) {
            SpiceFigures.Summary s = summary(servers.get(i), probe);
            values[i] = s == null ? Double.NaN : rate ? s.peakRateRps() : s.latencyAtPeakMs();
        }
        return values;
    }

    private static double min(double[] values) {
        double min = Double.NaN;
        for (double v : values) {
            if (!Double.isNaN(v) && (Double.isNaN(min) || v < min)) {
                min = v;
            }
        }
        return min;
    }

    private static double max(double[] values) {
        double max = Double.NaN;
        for (double v : values) {
            if (!Double.isNaN(v) && (Double.isNaN(max) || v > max)) {
                max = v;
            }
        }
        return max;
    }

    /**
     * The runs of results files side by side, each a column (each file's results as read, their figures concluded);
     * where they were measured differently, said so.
     */
    public static Comparison of(List<Path> files, List<Results> read) {
        Map<String, List<SpiceFigures.Summary>> summaries = new LinkedHashMap<>();
        Map<String, Map<String, Comparison.Spread>> spreads = new LinkedHashMap<>();
        List<String> serverNames = new ArrayList<>();
        long bodyBytes = -1;
        List<String> notComparable = new ArrayList<>();
        Map<String, List<Overload>> flooded = new LinkedHashMap<>();
        Method first = null;
        String firstName = null;
        for (int i = 0; i < files.size(); i++) {
            Path file = files.get(i);
            Results results = read.get(i);
            bodyBytes = bodyBytes < 0 ? results.bodyBytes() : bodyBytes;
            String name = results.server() != null ? results.server() : results.target();
            serverNames.add(name);
            String column = summaries.containsKey(name) ? name + " (" + file.toAbsolutePath().getParent().getFileName() + ")" : name;
            Method method = Method.of(results);
            if (first == null) {
                first = method;
                firstName = column;
            } else {
                for (String difference : first.differences(method, firstName, column)) {
                    if (!notComparable.contains(difference)) {
                        notComparable.add(difference);
                    }
                }
            }
            summaries.put(column, results.summary());
            spreads.put(column, spreads(results));
            flooded.put(column, results.overload());
        }
        // Two runs of one server: the first is "before", the second "after".
        boolean beforeAfter = serverNames.size() == 2 && serverNames.get(0).equals(serverNames.get(1));
        Comparison comparison = new Comparison(summaries, spreads, bodyBytes, beforeAfter, notComparable);
        flooded.forEach(comparison::overload);
        return comparison;
    }

    /** Per probe, the noise of its figures at its peak: their intervals relative to them (see {@link Comparison.Spread}). */
    static Map<String, Comparison.Spread> spreads(Results results) {
        Map<String, Comparison.Spread> spreads = new LinkedHashMap<>();
        for (SpiceFigures.Summary s : results.summary()) {
            spreads.put(s.probe(), new Comparison.Spread(s.repeats(), s.noise().peakRateRpsCi() / s.peakRateRps(),
                    s.cpuUsCi() / s.cpuUs()));
        }
        return spreads;
    }
}
