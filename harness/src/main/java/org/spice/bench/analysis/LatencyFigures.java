package org.spice.bench.analysis;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.HdrHistogram.Histogram;
import org.spice.bench.figures.Histograms;
import org.spice.bench.figures.OpenFigures;
import org.spice.bench.figures.PairedRatio;
import org.spice.bench.model.LatencyProfile;
import org.spice.bench.model.Reference;

/**
 * The latency profile's figures at the common rates: per rate and probe, the percentiles of every slice's requests
 * together, and the ratios of its p50, p99 and CPU per request to the static file's, paired by round as the CPU
 * rounds' are ({@link PairedRatio}): a slice of the probe and one of the static file ran at the same rate in the
 * same round, so what drifts from round to round (the machine, the server's state) cancels in their ratio.
 */
public final class LatencyFigures {

    private LatencyFigures() {
    }

    /** The key of a probe at a rate, for the pooled histograms. */
    public static String key(String probe, double rate) {
        return probe + "@" + rate;
    }

    /**
     * The figures of every probe (in {@code probes}' order) at every rate (in {@code rates}' order), from
     * {@code slices} of rounds 1 to {@code rounds} and the histograms pooled by {@link #key}; {@code slowestPeak} the
     * rate the fractions are of.
     */
    public static List<LatencyProfile.AtRate> of(List<LatencyProfile.Slice> slices, Map<String, Histogram> pooled,
            List<String> probes, List<Double> rates, double slowestPeak, int rounds) {
        List<LatencyProfile.AtRate> figures = new ArrayList<>();
        for (double rate : rates) {
            double[][] reference = perRound(slices, Reference.STATIC, rate, rounds);
            for (String probe : probes) {
                List<LatencyProfile.Slice> mine = slices.stream().filter(s -> s.probe().equals(probe)
                        && s.offeredRps() == rate).toList();
                if (mine.isEmpty()) {
                    continue;
                }
                double[][] own = perRound(slices, probe, rate, rounds);
                boolean isReference = probe.equals(Reference.STATIC);
                PairedRatio p50 = isReference ? PairedRatio.NONE : PairedRatio.of(own[0], reference[0]);
                PairedRatio p99 = isReference ? PairedRatio.NONE : PairedRatio.of(own[1], reference[1]);
                PairedRatio cpu = isReference ? PairedRatio.NONE : PairedRatio.of(own[2], reference[2]);
                Histogram h = pooled.get(key(probe, rate));
                figures.add(new LatencyProfile.AtRate(probe, rate, rate / slowestPeak, mine.size(),
                        mine.stream().mapToDouble(LatencyProfile.Slice::achievedRps).average().orElse(Double.NaN),
                        ms(h, 50), ms(h, 90), ms(h, 99), ms(h, 99.9),
                        h == null ? Double.NaN : OpenFigures.maxMs(h),
                        mine.stream().mapToLong(LatencyProfile.Slice::failed).sum(),
                        (int) mine.stream().filter(LatencyProfile.Slice::generatorLimited).count(),
                        p50.ratio(), p50.ratioCi(), p99.ratio(), p99.ratioCi(),
                        PairedRatio.estimateAndRelativeCi(own[2])[0], cpu.ratio(), cpu.ratioCi(),
                        h == null ? null : Histograms.encoded(h)));
            }
        }
        return figures;
    }

    /**
     * Whether every probe's p50 and p99 ratios are known within {@code precision} (relative half-width): the rounds
     * may stop.
     */
    public static boolean preciseEnough(List<LatencyProfile.AtRate> figures, double precision) {
        return figures.stream().filter(f -> !f.probe().equals(Reference.STATIC)).allMatch(f ->
                f.p50RatioCi() / f.p50Ratio() <= precision && f.p99RatioCi() / f.p99Ratio() <= precision);
    }

    /**
     * The probe's p50, p99 and CPU per request at {@code rate} in rounds 1 to {@code rounds}, NaN where it has none:
     * what the paired ratios are taken from.
     */
    public static double[][] perRound(List<LatencyProfile.Slice> slices, String probe, double rate, int rounds) {
        double[][] values = new double[3][rounds];
        for (double[] v : values) {
            java.util.Arrays.fill(v, Double.NaN);
        }
        for (LatencyProfile.Slice s : slices) {
            if (s.probe().equals(probe) && s.offeredRps() == rate && s.round() >= 1 && s.round() <= rounds) {
                values[0][s.round() - 1] = s.p50Ms();
                values[1][s.round() - 1] = s.p99Ms();
                values[2][s.round() - 1] = s.serverCpuUsPerReq();
            }
        }
        return values;
    }

    private static double ms(Histogram h, double percentile) {
        return h == null ? Double.NaN : OpenFigures.ms(h, percentile);
    }
}
