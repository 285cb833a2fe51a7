package org.spice.bench.analysis;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.spice.bench.figures.CpuSources;
import org.spice.bench.figures.SpiceFigures;
import org.spice.bench.model.Across.CarryOver;
import org.spice.bench.model.Across.Checks;
import org.spice.bench.model.Across.Spread;
import org.spice.bench.model.CpuRounds;
import org.spice.bench.model.CpuSlice;

/**
 * Whether side-by-side rounds measured what they claim (results.json {@code checks}): that a slice's cost is its own
 * server's and not what ran before it (carry-over), that the idle servers took next to nothing while another was
 * measured, and how much of the machine its hypervisor took away while the slices ran (steal).
 */
public final class CrossChecks {

    private static final double Z95 = 1.959964;

    private CrossChecks() {
    }

    /** The checks of one start's rounds, each slice's CPU from the source {@code sourceOf} names. */
    public static Checks of(CpuRounds rounds, CpuSources sourceOf) {
        List<Double> idle = new ArrayList<>();
        List<Double> steal = new ArrayList<>();
        rounds.rounds().stream().filter(r -> !r.jitBusy()).forEach(r -> r.slices().forEach(t -> {
            if (t.server() != null && t.serverCpuS() > 0) {
                idle.add(t.othersCpuS() / t.serverCpuS());
                steal.add(t.durationS() > 0 ? t.stealS() / t.durationS() : Double.NaN);
            }
        }));
        return new Checks(carryOver(rounds, sourceOf), Spread.of(idle), Spread.of(steal));
    }

    /** Per server, its slices after its own against after another's ({@link CarryOver}). */
    static List<CarryOver> carryOver(CpuRounds rounds, CpuSources sourceOf) {
        List<CpuRounds.Round> counted = rounds.rounds().stream().filter(r -> !r.jitBusy()).toList();
        List<double[]> residuals = residuals(counted, sourceOf);
        Map<String, List<Double>> same = new LinkedHashMap<>();
        Map<String, List<Double>> other = new LinkedHashMap<>();
        CrossFigures.servers(rounds).forEach(s -> {
            same.put(s, new ArrayList<>());
            other.put(s, new ArrayList<>());
        });
        for (int k = 0; k < counted.size(); k++) {
            List<CpuSlice> slices = counted.get(k).slices();
            double[] e = residuals.get(k);
            double level = median(e);   // the round's own level: the machine's drift, alike for every slice in it
            for (int i = 1; i < e.length; i++) {
                String server = slices.get(i).server();
                if (Double.isNaN(e[i]) || !same.containsKey(server)) {
                    continue;   // the first slice follows the lead-in, whose server is not recorded
                }
                (server.equals(slices.get(i - 1).server()) ? same : other).get(server).add(e[i] - level);
            }
        }
        List<CarryOver> all = new ArrayList<>();
        for (String server : same.keySet()) {
            all.add(carryOver(server, same.get(server).stream().mapToDouble(Double::doubleValue).toArray(),
                    other.get(server).stream().mapToDouble(Double::doubleValue).toArray()));
        }
        return all;
    }

    /**
     * Each counted round's slices as their log CPU per request less their arm's mean over the rounds, so that what is
     * left is the round's and the slice's own; NaN where a slice has no figure.
     */
    private static List<double[]> residuals(List<CpuRounds.Round> counted,
            CpuSources sourceOf) {
        Map<String, double[]> sums = new HashMap<>();
        List<double[]> logs = new ArrayList<>();
        for (CpuRounds.Round round : counted) {
            double[] y = new double[round.slices().size()];
            for (int i = 0; i < y.length; i++) {
                CpuSlice t = round.slices().get(i);
                y[i] = t.server() == null ? Double.NaN : Math.log(perRequest(t, sourceOf.of(t.server(), t.probe())));
                if (!Double.isNaN(y[i]) && !Double.isInfinite(y[i])) {
                    double[] s = sums.computeIfAbsent(t.arm(), k -> new double[2]);
                    s[0] += y[i];
                    s[1]++;
                } else {
                    y[i] = Double.NaN;
                }
            }
            logs.add(y);
        }
        for (int k = 0; k < counted.size(); k++) {
            List<CpuSlice> slices = counted.get(k).slices();
            double[] y = logs.get(k);
            for (int i = 0; i < y.length; i++) {
                double[] s = Double.isNaN(y[i]) ? null : sums.get(slices.get(i).arm());
                y[i] = s == null ? Double.NaN : y[i] - s[0] / s[1];
            }
        }
        return logs;
    }

    /** {@code server}'s carry-over from its residuals after its own slice ({@code a}) and after another's ({@code b}). */
    private static CarryOver carryOver(String server, double[] a, double[] b) {
        if (a.length < 2 || b.length < 2) {
            return new CarryOver(server, a.length, b.length, Double.NaN, Double.NaN);
        }
        double d = mean(b) - mean(a);
        double se = Math.sqrt(variance(a) / a.length + variance(b) / b.length);
        return new CarryOver(server, a.length, b.length, Math.exp(d),
                (Math.exp(d + Z95 * se) - Math.exp(d - Z95 * se)) / 2);
    }

    private static double perRequest(CpuSlice t, SpiceFigures.CpuSource source) {
        double cpu = source == SpiceFigures.CpuSource.MACHINE ? t.machineCpuS() : t.serverCpuS();
        return t.requests() > 0 && t.errors() == 0 && cpu > 0 ? cpu / t.requests() : Double.NaN;
    }

    private static double median(double[] x) {
        double[] v = Arrays.stream(x).filter(d -> !Double.isNaN(d)).sorted().toArray();
        return v.length == 0 ? 0 : quantile(v, 0.5);
    }

    /** The {@code q} quantile of sorted {@code v}, linear between order statistics. */
    private static double quantile(double[] v, double q) {
        double at = q * (v.length - 1);
        int i = (int) Math.floor(at);
        return i + 1 < v.length ? v[i] + (at - i) * (v[i + 1] - v[i]) : v[i];
    }

    private static double mean(double[] x) {
        return Arrays.stream(x).average().orElse(Double.NaN);
    }

    private static double variance(double[] x) {
        double m = mean(x);
        return Arrays.stream(x).map(v -> (v - m) * (v - m)).sum() / (x.length - 1);
    }
}
