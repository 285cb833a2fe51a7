package org.spice.bench.run;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.spice.bench.mix.Mix;
import org.spice.bench.model.CpuSlice;
import org.spice.bench.model.LoadEngine;
import org.spice.bench.model.Reference;
import org.spice.bench.model.Stop;

/**
 * One open-loop round at a {@link RoundRate}, within one server or across servers alike: its slices in parts, one per
 * rate offered. The rounds' rate's part holds every arm near the static file; each probe too slow for it is offered a
 * rate of its own ({@link RoundRate#far}) in a part of its own, and beside it its server's static file runs slices at
 * that rate too ({@link PairedRounds#staticSlices} of them per server), so that every ratio to the static file is taken
 * at one load. Every slice says the rate it was offered ({@link CpuSlice#offeredRps}), which is how the figures
 * pair a probe with the static file's slices at its rate. Two probes of one server named to be compared at one load
 * (--pairs cgi/fastcgi) are: the faster one's slices run in the slower one's part too. The parts run one after
 * another ({@link PairedRounds#inParts}:
 * each with its own lead-in, the load changing between them, in reverse order every other round), and within a far
 * part the order follows the seed as a round's does ({@link PairedRounds#arranged}).
 */
final class RateParts {

    private RateParts() {
    }

    /**
     * Round {@code r} of {@code order} (the round's slices, shuffled) at {@code rate}: one part per rate offered, each
     * of {@code together} ("cgi/fastcgi": one server's probes) at one load.
     */
    static LoadEngine.Round run(LoadEngine.Windowed engine, List<Mix> order, RoundRate rate, List<String> together,
            long seed, int r, boolean readsJit, Stop stop) throws InterruptedException, IOException {
        List<PairedRounds.Part> parts = new ArrayList<>();
        of(order, rate, together, seed, r).forEach((rps, slices) -> parts.add(() -> tagged(
                engine.openRound(slices, rps, PairedRounds.LEAD_IN_S, readsJit), rps)));
        return PairedRounds.inParts(parts, r, stop);
    }

    /**
     * The parts of round {@code r}: by rate offered, the rounds' one first, each far rate's slices with their servers'
     * static file beside them, and beside each far probe the faster probe {@code together} pairs it with; the parts
     * with no slice left out.
     */
    static Map<Double, List<Mix>> of(List<Mix> order, RoundRate rate, List<String> together, long seed, int r) {
        Map<Double, List<Mix>> byRate = new LinkedHashMap<>();
        byRate.put(rate.rps(), new ArrayList<>());
        Map<Double, List<Mix>> far = new LinkedHashMap<>();
        for (Mix slice : order) {
            double rps = rate.of(CpuSlice.arm(slice.server(), slice.name()));
            (rps == rate.rps() ? byRate : far).computeIfAbsent(rps, k -> new ArrayList<>()).add(slice);
        }
        for (String pair : together) {
            String[] ab = pair.split("/", 2);
            double atA = rate.of(ab[0]);
            double atB = rate.of(ab[1]);
            String faster = atA < atB ? ab[1] : ab[0];
            List<Mix> slower = far.get(Math.min(atA, atB));
            if (atA != atB && slower != null) {
                order.stream().filter(m -> CpuSlice.arm(m.server(), m.name()).equals(faster)).findFirst()
                        .filter(m -> !slower.contains(m)).ifPresent(slower::add);
            }
        }
        far.forEach((rps, slices) -> byRate.put(rps, PairedRounds.arranged(withReference(slices, order), seed, r)));
        byRate.values().removeIf(List::isEmpty);
        return byRate;
    }

    /** A far part's slices, with each of their servers' static file (from {@code order}) √k times beside its k probes. */
    private static List<Mix> withReference(List<Mix> slices, List<Mix> order) {
        List<Mix> part = new ArrayList<>(slices);
        slices.stream().map(Mix::server).distinct().forEach(server -> order.stream()
                .filter(m -> m.name().equals(Reference.STATIC) && Objects.equals(server, m.server())).findFirst()
                .ifPresent(reference -> part.addAll(Collections.nCopies(PairedRounds.staticSlices(
                        (int) slices.stream().filter(m -> Objects.equals(server, m.server())).count()), reference))));
        return part;
    }

    /** {@code round}'s slices, each saying it was offered {@code rps}. */
    private static LoadEngine.Round tagged(LoadEngine.Round round, double rps) {
        return new LoadEngine.Round(round.whole(), round.slices().stream().map(t -> t.at(rps)).toList(), round.ends(),
                round.note());
    }

    /** The parts a round of {@code order} runs in, for its expected length: one lead-in each. */
    static int count(List<Mix> order, RoundRate rate, List<String> together) {
        return rate == null ? 1 : of(order, rate, together, 0, 1).size();
    }

    /** The slices a round of {@code order} runs, far parts' static slices and paired probes included. */
    static int slices(List<Mix> order, RoundRate rate, List<String> together) {
        return rate == null ? order.size() : of(order, rate, together, 0, 1).values().stream().mapToInt(List::size)
                .sum();
    }
}
