package org.spice.bench.run;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.spice.bench.model.CpuPlan;
import org.spice.bench.model.CpuRounds;
import org.spice.bench.model.LoadEngine;
import org.spice.bench.model.Reference;

/**
 * The one rate of open-loop CPU rounds (--cpu-rate): the rate given, or with auto a share of the slowest arm's rate in
 * one closed-loop round at the rounds' client count, run just before them (every arm a slice, as the rounds will).
 * The slowest arm sets it because every arm must hold the rate: an arm offered more than it can serve builds a queue,
 * and its slices would measure the queue.
 *
 * @param rps       requests a second, offered to every slice (but those of the arms {@code atClients})
 * @param from      how it was chosen, for the answer and results.json
 * @param atClients the arms too slow for it, far from the static file ({@link #nearStatic}): they run closed loop
 * @param far       side by side, the arms too slow for it ({@link #apart}), each with the rate it is offered instead
 */
record RoundRate(double rps, String from, List<String> atClients, Map<String, Double> far) {

    RoundRate {
        atClients = List.copyOf(atClients);
        far = Collections.unmodifiableMap(new LinkedHashMap<>(far));
    }

    RoundRate(double rps, String from) {
        this(rps, from, List.of(), Map.of());
    }

    /** The rate {@code arm} ("server/probe" side by side) is offered. */
    double of(String arm) {
        return far.getOrDefault(arm, rps);
    }

    /** The rate --cpu-rate R gave. */
    static RoundRate given(double rps) {
        return new RoundRate(rps, "--cpu-rate");
    }

    /** {@code fraction} of the slowest arm's rate in {@code pace}, a closed-loop round at {@code clients}; null if none served. */
    static RoundRate auto(LoadEngine.Round pace, double fraction, int clients) {
        return auto(rates(pace), fraction, clients, List.of());
    }

    /**
     * {@code fraction} of the slowest rate in {@code pace} of the arms near the static file's (at least {@code near} of
     * it), the others {@link #atClients}; as {@link #auto(LoadEngine.Round, double, int)} where the static file did
     * not run or was not served. Null if none served.
     */
    static RoundRate nearStatic(LoadEngine.Round pace, double fraction, int clients, double near) {
        Map<String, Double> rates = rates(pace);
        Double reference = rates.get(Reference.STATIC);
        if (reference == null || !(reference >= 1)) {
            return auto(rates, fraction, clients, List.of());
        }
        Map<String, Double> held = new LinkedHashMap<>();
        List<String> far = new ArrayList<>();
        rates.forEach((arm, rate) -> {
            if (rate >= near * reference) {
                held.put(arm, rate);
            } else {
                far.add(arm);
            }
        });
        return auto(held, fraction, clients, far);
    }

    /**
     * Servers side by side: as {@link #nearStatic}, each arm near or far from its own server's static file, and a probe
     * far on any server far on all; but each far probe is offered {@code fraction} of its slowest server's rate, the
     * same on every server, so that each ratio across servers is still taken at one load; a far probe whose own rate
     * would be the held one or more holds the held one (a part of the round fewer). As {@link #auto(LoadEngine.Round,
     * double, int)} where a server's static file did not run or was not served. Null if none served.
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
            Double reference = rates.get(CpuRounds.Taken.arm(serverOf.get(e.getKey()), Reference.STATIC));
            if (reference == null || !(reference >= 1)) {
                return auto(rates, fraction, clients, List.of());
            }
            if (e.getValue() < near * reference) {
                farProbes.add(probeOf.get(e.getKey()));
            }
        }
        Map<String, Double> held = new LinkedHashMap<>(rates);
        held.keySet().removeIf(arm -> farProbes.contains(probeOf.get(arm)));
        RoundRate rate = auto(held, fraction, clients, List.of());
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
            return auto(rates, fraction, clients, List.of());
        }
        return new RoundRate(rate.rps(), rate.from() + "; " + String.join(" and ", farProbes) + ", under " + share()
                + " of a server's static file's rate, each at " + fmt(fraction) + " × its slowest server's", List.of(),
                far);
    }

    private static RoundRate auto(Map<String, Double> rates, double fraction, int clients, List<String> atClients) {
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
        return new RoundRate(rps, from + (atClients.isEmpty() ? "the slowest arm's rate in a round before the rounds"
                : "in a round before the rounds the slowest arm's at " + share() + " of the static file's rate or more"),
                atClients, Map.of());
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

    /** The one load of the rounds, as their first line says it. */
    static String load(RoundRate rate, int clients) {
        if (rate != null && !rate.far().isEmpty()) {
            return String.format(Locale.ROOT, "%,.0f req/s offered (%s)", rate.rps(), rate.from())
                    + CpuRounds.farLoads(rate.far(), "; ");
        }
        return rate == null ? clients + " clients"
                : rate.atClients().isEmpty() ? String.format(Locale.ROOT, "%,.0f req/s offered to every slice (%s)",
                        rate.rps(), rate.from())
                : String.format(Locale.ROOT, "%,.0f req/s offered (%s); %s, under %s of the static file's rate, at %d clients,"
                        + " each as fast as it goes", rate.rps(), rate.from(), String.join(" and ", rate.atClients()),
                        share(), clients);
    }

    /** {@link CpuPlan#NEAR} in words: "67 %". */
    private static String share() {
        return String.format(Locale.ROOT, "%.0f %%", 100 * CpuPlan.NEAR);
    }

    private static String fmt(double value) {
        return String.format(Locale.ROOT, "%.2f", value).replaceAll("0+$", "").replaceAll("\\.$", "");
    }
}
