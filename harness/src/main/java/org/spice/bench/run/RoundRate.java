package org.spice.bench.run;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.spice.bench.model.CpuPlan;
import org.spice.bench.model.CpuRounds;
import org.spice.bench.model.CpuSlice;
import org.spice.bench.model.LoadEngine;
import org.spice.bench.model.Reference;

/**
 * The rates of open-loop CPU rounds (--cpu-rate): the rate given, or with auto a share of the slowest arm's rate in
 * one closed-loop round at the rounds' client count, run just before them (every arm a slice, as the rounds will).
 * The slowest arm sets it because every arm must hold the rate: an arm offered more than it can serve builds a queue,
 * and its slices would measure the queue. By default ({@link #apart}) a probe far slower than the static file (CGI)
 * does not set the rate for the others: it is offered one of its own, and the static file runs slices at that rate
 * beside it ({@link RateParts}), so that each ratio is taken at one load, said once in its row.
 *
 * @param rps  requests a second, offered to every slice but the far ones'
 * @param from how it was chosen, for the answer and results.json
 * @param far  the arms too slow for it ({@link #apart}), each with the rate it is offered instead
 */
record RoundRate(double rps, String from, Map<String, Double> far) {

    RoundRate {
        far = Collections.unmodifiableMap(new LinkedHashMap<>(far));
    }

    RoundRate(double rps, String from) {
        this(rps, from, Map.of());
    }

    /** The rate {@code arm} ("server/probe" side by side) is offered. */
    double of(String arm) {
        return far.getOrDefault(arm, rps);
    }

    /**
     * The rounds' rate as {@code plan} asks for it: none closed loop; the one given (--cpu-rate R); else from
     * {@code pace}, a closed-loop round of every arm just before the rounds, by {@link #apart} (the default) or
     * {@link #auto}. Null where none can be had (nothing served in {@code pace}) or none is asked for.
     */
    static RoundRate of(CpuPlan plan, LoadEngine.Round pace) {
        if (!plan.openLoop()) {
            return null;
        }
        return plan.rateRps() != null ? given(plan.rateRps()) : plan.farArmsApart()
                ? apart(pace, plan.rateFraction(), plan.clients(), CpuPlan.NEAR)
                : auto(pace, plan.rateFraction(), plan.clients());
    }

    /** The rate --cpu-rate R gave. */
    static RoundRate given(double rps) {
        return new RoundRate(rps, "--cpu-rate");
    }

    /** {@code fraction} of the slowest arm's rate in {@code pace}, a closed-loop round at {@code clients}; null if none served. */
    static RoundRate auto(LoadEngine.Round pace, double fraction, int clients) {
        return auto(rates(pace), fraction, clients);
    }

    /**
     * {@code fraction} of the slowest rate in {@code pace} of the arms near their server's static file (at least
     * {@code near} of its rate); a probe under that on any server is far on all, and is offered {@code fraction} of its
     * slowest server's rate (one server: its own), the same on every server, so that each ratio across servers is
     * taken at one load, and its server's static file runs slices at that rate beside it, so that each ratio to the
     * static file is too ({@link RateParts}). A far probe whose own rate would be the held one or more holds the held
     * one (a part of the round fewer). As {@link #auto(LoadEngine.Round, double, int)} where a server's static file did
     * not run or was not served. Null if none served.
     */
    static RoundRate apart(LoadEngine.Round pace, double fraction, int clients, double near) {
        Map<String, Double> rates = rates(pace);
        Map<String, String> serverOf = new LinkedHashMap<>();
        Map<String, String> probeOf = new LinkedHashMap<>();
        pace.slices().forEach(t -> {
            serverOf.put(t.arm(), t.server());
            probeOf.put(t.arm(), t.probe());
        });
        Set<String> farProbes = new LinkedHashSet<>();
        for (Map.Entry<String, Double> e : rates.entrySet()) {
            Double reference = rates.get(CpuSlice.arm(serverOf.get(e.getKey()), Reference.STATIC));
            if (reference == null || !(reference >= 1)) {
                return auto(rates, fraction, clients);
            }
            if (e.getValue() < near * reference) {
                farProbes.add(probeOf.get(e.getKey()));
            }
        }
        Map<String, Double> held = new LinkedHashMap<>(rates);
        held.keySet().removeIf(arm -> farProbes.contains(probeOf.get(arm)));
        RoundRate rate = auto(held, fraction, clients);
        if (rate == null || farProbes.isEmpty()) {
            return rate;
        }
        Map<String, Double> far = new LinkedHashMap<>();
        for (String probe : List.copyOf(farProbes)) {
            List<String> arms = rates.keySet().stream().filter(arm -> probe.equals(probeOf.get(arm))).toList();
            double own = roundedDown(fraction * arms.stream().mapToDouble(rates::get).filter(r -> r > 0).min().orElse(1));
            if (own >= rate.rps()) {
                farProbes.remove(probe);   // far from its static file, but it holds the held rate: a part fewer
            } else {
                arms.forEach(arm -> far.put(arm, own));
            }
        }
        if (far.isEmpty()) {
            return auto(rates, fraction, clients);
        }
        return new RoundRate(rate.rps(), rate.from() + "; " + String.join(" and ", farProbes) + ", under " + share()
                + " of the static file's rate, " + (farProbes.size() == 1 ? "" : "each ") + "at " + fmt(fraction)
                + " × its own" + (serverOf.values().stream()
                .distinct().count() > 1 ? " (its slowest server's)" : "") + ", the static file beside it at that rate",
                far);
    }

    private static RoundRate auto(Map<String, Double> rates, double fraction, int clients) {
        String slowest = null;
        double least = Double.POSITIVE_INFINITY;
        for (Map.Entry<String, Double> e : rates.entrySet()) {
            if (e.getValue() < least) {
                least = e.getValue();
                slowest = e.getKey();
            }
        }
        if (slowest == null || !(least >= 1)) {
            return null;
        }
        double rps = roundedDown(fraction * least);
        String from = String.format(Locale.ROOT, "auto: %s × %s's %,.0f req/s at %d clients, ", fmt(fraction), slowest,
                least, clients);
        return new RoundRate(rps, from + "the slowest arm's rate in a round before the rounds");
    }

    /** Each arm's successes a second over its slices in {@code pace}, in the order they first ran. */
    private static Map<String, Double> rates(LoadEngine.Round pace) {
        CpuRounds.Round round = new CpuRounds.Round(0, pace.slices());
        Map<String, Double> rates = new LinkedHashMap<>();
        pace.slices().forEach(taken -> rates.computeIfAbsent(taken.arm(), round::rate));
        return rates;
    }

    /** The rate to two significant figures, down (11,234 → 11,000; 437 → 430), at least 1. */
    static double roundedDown(double rps) {
        if (rps < 10) {
            return Math.max(1, Math.floor(rps));
        }
        double unit = Math.pow(10, Math.floor(Math.log10(rps)) - 1);
        return Math.floor(rps / unit) * unit;
    }

    /** The load of the rounds, as their first line says it. */
    static String load(RoundRate rate, int clients) {
        if (rate == null) {
            return clients + " clients";
        }
        return String.format(Locale.ROOT, "%,.0f req/s offered%s (%s)", rate.rps(), rate.far().isEmpty()
                ? " to every slice" : "", rate.from()) + CpuRounds.farLoads(rate.far(), "; ");
    }

    /** {@link CpuPlan#NEAR} in words: "67 %". */
    private static String share() {
        return String.format(Locale.ROOT, "%.0f %%", 100 * CpuPlan.NEAR);
    }

    private static String fmt(double value) {
        return String.format(Locale.ROOT, "%.2f", value).replaceAll("0+$", "").replaceAll("\\.$", "");
    }
}
