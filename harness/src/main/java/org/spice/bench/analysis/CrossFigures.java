package org.spice.bench.analysis;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.spice.bench.figures.CpuSources;
import org.spice.bench.figures.Judge;
import org.spice.bench.figures.PairedRatio;
import org.spice.bench.figures.SpiceFigures;
import org.spice.bench.model.Across;
import org.spice.bench.model.Across.ArmCpu;
import org.spice.bench.model.Across.Cross;
import org.spice.bench.model.Arm;
import org.spice.bench.model.CpuRounds;
import org.spice.bench.model.CpuSlice;
import org.spice.bench.model.Reference;
import org.spice.page.Probe;

/**
 * The figures of servers measured side by side, from the rounds' counts: per probe and pair of servers, the CPU per
 * request on one against the other's, paired by round (each round ran both, a slice each, within seconds of each
 * other, so the machine's drift cancels as it does between a probe and the static file); and beside it the ratio of
 * the two servers' own ratios to their static files, which says whose interface is leaner for what it serves.
 */
public final class CrossFigures {

    private CrossFigures() {
    }

    /**
     * The arms of side-by-side rounds, in the order they were named (else the order their slices first ran); empty
     * for one server's rounds.
     */
    public static List<String> servers(CpuRounds rounds) {
        Set<String> servers = new LinkedHashSet<>(rounds.arms());
        rounds.rounds().forEach(r -> r.slices().forEach(t -> {
            if (t.server() != null) {
                servers.add(t.server());
            }
        }));
        return List.copyOf(servers);
    }

    /** Each server's probes: SPICE's in their own order (static first), then any other workload as it first ran. */
    static Map<String, List<String>> probes(CpuRounds rounds) {
        Map<String, Set<String>> probes = new LinkedHashMap<>();
        rounds.arms().forEach(arm -> probes.put(arm, new LinkedHashSet<>()));
        rounds.rounds().forEach(r -> r.slices().forEach(t -> {
            if (t.server() != null) {
                probes.computeIfAbsent(t.server(), k -> new LinkedHashSet<>()).add(t.probe());
            }
        }));
        Map<String, List<String>> lists = new LinkedHashMap<>();
        probes.forEach((server, set) -> {
            if (!set.isEmpty()) {
                lists.put(server, set.stream().sorted(Comparator.comparingInt(CrossFigures::rank)).toList());
            }
        });
        return lists;
    }

    /** A probe's place in SPICE's order of probes; any other workload after them all. */
    private static int rank(String workload) {
        return Arrays.stream(Probe.values()).filter(p -> p.id().equals(workload)).mapToInt(Probe::ordinal).findFirst()
                .orElse(Integer.MAX_VALUE);
    }

    /**
     * A comparison asked for by name (--pairs, kept in the rounds): arm {@code a} against arm {@code b}, on every probe
     * both ran, or on one probe each ({@code php-fpm@apache/mod-php@apache-prefork}: the same page from two interfaces
     * on two servers).
     *
     * @param probeA a's probe, or null for every probe both ran
     * @param probeB b's probe, or null (then so is probeA)
     */
    public record Pair(String probeA, String a, String probeB, String b) {

        /** {@code [probe@]arm/[probe@]arm}, both sides with a probe or neither; an IllegalArgumentException says why. */
        public static Pair parse(String spec) {
            String[] sides = spec.split("/", -1);
            if (sides.length != 2) {
                throw new IllegalArgumentException("a pair is A/B, each side an arm or probe@arm, not \"" + spec + "\"");
            }
            String[] a = sides[0].split("@", -1);
            String[] b = sides[1].split("@", -1);
            if (a.length > 2 || b.length > 2 || a.length != b.length || Arrays.stream(a).anyMatch(String::isBlank)
                    || Arrays.stream(b).anyMatch(String::isBlank)) {
                throw new IllegalArgumentException("a pair is A/B or probe@A/probe@B, not \"" + spec + "\"");
            }
            return a.length == 1 ? new Pair(null, a[0], null, b[0]) : new Pair(a[0], a[1], b[0], b[1]);
        }

        @Override
        public String toString() {
            return probeA == null ? a + "/" + b : probeA + "@" + a + "/" + probeB + "@" + b;
        }
    }

    /**
     * The comparisons the rounds make: the pairs they name ({@link CpuRounds#pairs}), else every pair of arms that make
     * a comparison ({@link #comparable}; in the order they ran: the first against each later one) on every probe both
     * ran; each CPU read from the source {@code sourceOf} names for that arm and probe.
     */
    public static List<Cross> of(CpuRounds rounds, CpuSources sourceOf) {
        Map<String, List<String>> probes = probes(rounds);
        List<String> servers = new ArrayList<>(probes.keySet());
        Map<String, double[]> series = new LinkedHashMap<>();
        probes.forEach((server, list) -> list.forEach(probe -> series.put(CpuSlice.arm(server, probe),
                RoundFigures.series(rounds, CpuSlice.arm(server, probe), sourceOf.of(server, probe)))));
        List<Pair> pairs = new ArrayList<>();
        if (!rounds.pairs().isEmpty()) {
            rounds.pairs().forEach(p -> pairs.add(Pair.parse(p)));
        } else {
            for (int i = 0; i < servers.size(); i++) {
                for (int j = i + 1; j < servers.size(); j++) {
                    if (comparable(servers.get(i), servers.get(j))) {
                        pairs.add(new Pair(null, servers.get(i), null, servers.get(j)));
                    }
                }
            }
        }
        List<Cross> all = new ArrayList<>();
        for (Pair pair : pairs) {
            List<String> onA = probes.getOrDefault(pair.a(), List.of());
            List<String> onB = probes.getOrDefault(pair.b(), List.of());
            if (pair.probeA() != null) {
                if (onA.contains(pair.probeA()) && onB.contains(pair.probeB())) {
                    all.add(cross(pair.probeA(), pair.a(), pair.probeB(), pair.b(), series, rounds));
                }
                continue;
            }
            for (String probe : onA) {
                if (onB.contains(probe)) {
                    all.add(cross(probe, pair.a(), probe, pair.b(), series, rounds));
                }
            }
        }
        return all;
    }

    /**
     * Whether two arms make a comparison: two servers, or one server under two protocols, or two servers under one
     * (an arm is "server" or "server:protocol"); two servers under two protocols differ in both, and say neither.
     */
    static boolean comparable(String a, String b) {
        return Arm.parse(a).comparableWith(Arm.parse(b));
    }

    private static Cross cross(String probe, String a, String probeB, String b, Map<String, double[]> series,
            CpuRounds rounds) {
        double precision = rounds.precision();
        double[] onA = series.get(CpuSlice.arm(a, probe));
        double[] onB = series.get(CpuSlice.arm(b, probeB));
        double[] staticA = series.get(CpuSlice.arm(a, Reference.STATIC));
        double[] staticB = series.get(CpuSlice.arm(b, Reference.STATIC));
        PairedRatio ratio = PairedRatio.of(onA, onB);
        PairedRatio relative = PairedRatio.NONE;
        double aim = precision;
        if (!probe.equals(Reference.STATIC) && staticA != null && staticB != null) {
            relative = PairedRatio.of(divided(onA, staticA), divided(onB, staticB));
            aim = RoundFigures.aim(precision, PairedRatio.of(onA, staticA).ratio());
        }
        return new Cross(probe, a, b, ratio.ratio(), ratio.ratioCi(), ratio.low(), ratio.high(), ratio.rounds(), 1,
                relative.ratio(),
                relative.ratioCi(), aim, ratio.relativeCi() <= aim, Double.NaN, probe.equals(probeB) ? null : probeB,
                List.of(rounds.rateRps(CpuSlice.arm(a, probe)), rounds.rateRps(CpuSlice.arm(b, probeB))),
                rateKind(rounds, CpuSlice.arm(a, probe), CpuSlice.arm(b, probeB)), ratio.ratioCi(), Double.NaN);
    }

    /** What the two arms' rates are: offered, or achieved, or (one of each) both words. */
    private static String rateKind(CpuRounds rounds, String a, String b) {
        String kind = rounds.rateKind(a);
        return kind.equals(rounds.rateKind(b)) ? kind : CpuRounds.OFFERED + " or " + CpuRounds.ACHIEVED;
    }

    /**
     * Whether side-by-side rounds may stop: from {@link RoundFigures#MIN_ROUNDS} counted rounds on, every cross ratio
     * within its aim, and every server's own ratios to its static file within theirs (each server's results show
     * them).
     */
    public static boolean preciseEnough(CpuRounds rounds, CpuSources sourceOf) {
        if (rounds.counted() < RoundFigures.MIN_ROUNDS || !of(rounds, sourceOf).stream().allMatch(Cross::precise)) {
            return false;
        }
        return servers(rounds).stream().allMatch(server -> RoundFigures.preciseEnough(rounds.of(server),
                probe -> sourceOf.of(server, probe)));
    }

    /**
     * The cross ratios over several starts of the same servers ({@code restarts}, each one's rounds): per probe and
     * pair, the mean of the starts' log-ratio estimates with Student's interval across the starts, which holds what
     * differs from one start to the next as well as the rounds' own noise; and the share of a round's variance that is
     * between starts (the restarts' means' variance less what the rounds' own would give them, over the sum of the
     * two levels). One start: its own figures.
     */
    public static List<Cross> acrossRestarts(List<CpuRounds> restarts,
            CpuSources sourceOf) {
        List<List<Cross>> perStart = restarts.stream().map(r -> of(r, sourceOf)).toList();
        if (restarts.size() == 1) {
            return perStart.get(0);
        }
        List<Cross> all = new ArrayList<>();
        for (Cross c : perStart.get(0)) {
            double[] estimates = new double[restarts.size()];
            double[] relatives = new double[restarts.size()];
            List<double[]> logs = new ArrayList<>();
            int rounds = 0;
            double[] rates = new double[2];
            double lastCi = Double.NaN;
            for (int k = 0; k < restarts.size(); k++) {
                CpuRounds r = restarts.get(k);
                Cross each = perStart.get(k).stream().filter(c::samePair).findFirst().orElse(null);
                for (int i = 0; i < 2; i++) {
                    rates[i] += (each == null ? Double.NaN : each.rateRps().get(i)) / restarts.size();
                }
                estimates[k] = each == null ? Double.NaN : Math.log(each.ratio());
                lastCi = each == null ? Double.NaN : each.roundsCi();
                relatives[k] = each == null ? Double.NaN : Math.log(each.relative());
                rounds += each == null ? 0 : each.rounds();
                logs.add(PairedRatio.logRatios(RoundFigures.series(r, CpuSlice.arm(c.a(), c.probe()),
                        sourceOf.of(c.a(), c.probe())), RoundFigures.series(r, CpuSlice.arm(c.b(), c.probeOfB()),
                        sourceOf.of(c.b(), c.probeOfB()))));
            }
            double[] ratio = Restarts.meanWithInterval(estimates);
            double[] relative = Restarts.meanWithInterval(relatives);
            Judge.Interval across = new Judge.Interval(ratio[0], ratio[1], ratio[2]);
            all.add(new Cross(c.probe(), c.a(), c.b(), ratio[0], across.largerHalf(), ratio[1], ratio[2], rounds,
                    restarts.size(), relative[0], new Judge.Interval(relative[0], relative[1], relative[2]).largerHalf(),
                    c.aim(), across.relativeHalf() <= c.aim(), Restarts.betweenShare(logs), c.bProbe(),
                    List.of(rates[0], rates[1]), c.rateKind(), lastCi, Restarts.betweenSd(logs)));
        }
        return all;
    }

    /** Value i of {@code x} over value i of {@code y}: NaN where either is missing. */
    private static double[] divided(double[] x, double[] y) {
        double[] q = new double[Math.min(x.length, y.length)];
        for (int i = 0; i < q.length; i++) {
            q[i] = x[i] > 0 && y[i] > 0 ? x[i] / y[i] : Double.NaN;
        }
        return q;
    }

    /** The figures of every start's rounds across their arms: one start's intervals are its rounds' alone, and say so. */
    public static Across all(List<CpuRounds> starts, CpuSources sourceOf) {
        CpuRounds last = starts.get(starts.size() - 1);
        List<String> servers = servers(last);
        boolean cgroups = servers.stream().allMatch(s -> sourceOf.of(s, Probe.STATIC.id())
                == SpiceFigures.CpuSource.CGROUP);
        return new Across(last, starts.size(), servers, cgroups, acrossRestarts(starts, sourceOf),
                OwnRatios.acrossRestarts(starts, sourceOf), CrossChecks.of(last, sourceOf), cpu(last, sourceOf));
    }

    /** Every arm's probes' CPU per request in {@code last}. */
    static List<ArmCpu> cpu(CpuRounds last, CpuSources sourceOf) {
        List<ArmCpu> cpu = new ArrayList<>();
        for (String arm : servers(last)) {
            CpuRounds own = last.of(arm);
            RoundFigures.of(own, probe -> sourceOf.of(arm, probe)).forEach((probe, f) -> cpu.add(new ArmCpu(arm, probe,
                    f.cpuUsPerReq(), f.cpuUsPerReqCi(), Reference.STATIC.equals(probe) ? own.counted()
                            : f.paired().rounds())));
        }
        return cpu;
    }
}
