package org.spice.bench.run;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import org.spice.bench.model.BenchSettings;
import org.spice.bench.model.CpuRounds;
import org.spice.bench.model.LoadEngine;

/**
 * The one rate of open-loop CPU rounds (--cpu-rate): the rate given, or with auto a share of the slowest arm's rate in
 * one closed-loop round at the rounds' client count, run just before them (every arm a slice, as the rounds will).
 * The slowest arm sets it because every arm must hold the rate: an arm offered more than it can serve builds a queue,
 * and its slices would measure the queue.
 *
 * @param rps  requests a second, offered to every slice
 * @param from how it was chosen, for the answer and results.json
 */
record RoundRate(double rps, String from) {

    /** The rate --cpu-rate R gave. */
    static RoundRate given(double rps) {
        return new RoundRate(rps, "--cpu-rate");
    }

    /** {@code fraction} of the slowest arm's rate in {@code pace}, a closed-loop round at {@code clients}; null if none served. */
    static RoundRate auto(LoadEngine.Round pace, double fraction, int clients) {
        Map<String, double[]> served = new LinkedHashMap<>();
        for (CpuRounds.Taken taken : pace.slices()) {
            double[] sum = served.computeIfAbsent(taken.arm(), k -> new double[2]);
            sum[0] += taken.requests();
            sum[1] += taken.durationS();
        }
        String slowest = null;
        double least = Double.POSITIVE_INFINITY;
        for (Map.Entry<String, double[]> e : served.entrySet()) {
            double rate = e.getValue()[1] > 0 ? e.getValue()[0] / e.getValue()[1] : 0;
            if (rate < least) {
                least = rate;
                slowest = e.getKey();
            }
        }
        if (slowest == null || !(least >= 1)) {
            return null;
        }
        double rps = roundedDown(fraction * least);
        return new RoundRate(rps, String.format(Locale.ROOT, "auto: %s × %s's %,.0f req/s at %d clients, the slowest"
                + " arm's rate in a round before the rounds", fmt(fraction), slowest, least, clients));
    }

    /** The rate to two significant figures, down (11,234 → 11,000; 437 → 430), at least 1. */
    static double roundedDown(double rps) {
        if (rps < 10) {
            return Math.max(1, Math.floor(rps));
        }
        double unit = Math.pow(10, Math.floor(Math.log10(rps)) - 1);
        return Math.floor(rps / unit) * unit;
    }

    /** The one load of the rounds, as their first line says it. */
    static String load(RoundRate rate, int clients) {
        return rate == null ? clients + " clients"
                : String.format(Locale.ROOT, "%,.0f req/s offered to every slice (%s)", rate.rps(), rate.from());
    }

    private static String fmt(double value) {
        return String.format(Locale.ROOT, "%.2f", value).replaceAll("0+$", "").replaceAll("\\.$", "");
    }
}
