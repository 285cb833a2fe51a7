package org.spice.bench.analysis;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.spice.bench.figures.CpuSources;
import org.spice.bench.figures.Judge;
import org.spice.bench.figures.PairedRatio;
import org.spice.bench.model.Across.Own;
import org.spice.bench.model.CpuRounds;
import org.spice.bench.model.Reference;

/** Each server's probes against its own static file in a side by side, over every start of the servers. */
public final class OwnRatios {

    private OwnRatios() {
    }

    /** Every arm's probes against its static file, over every start ({@code restarts}, each one's rounds). */
    public static List<Own> acrossRestarts(List<CpuRounds> restarts,
            CpuSources sourceOf) {
        CpuRounds last = restarts.get(restarts.size() - 1);
        List<Own> all = new ArrayList<>();
        for (Map.Entry<String, List<String>> arm : CrossFigures.probes(last).entrySet()) {
            if (!arm.getValue().contains(Reference.STATIC)) {
                continue;
            }
            for (String probe : arm.getValue()) {
                if (probe.equals(Reference.STATIC)) {
                    continue;
                }
                double[] estimates = new double[restarts.size()];
                List<double[]> logs = new ArrayList<>();
                int rounds = 0;
                PairedRatio only = PairedRatio.NONE;
                for (int k = 0; k < restarts.size(); k++) {
                    CpuRounds view = restarts.get(k).of(arm.getKey());
                    double[] x = RoundFigures.series(view, probe, sourceOf.of(arm.getKey(), probe));
                    double[] y = RoundFigures.referenceSeries(view, probe, sourceOf.of(arm.getKey(), Reference.STATIC));
                    only = PairedRatio.of(x, y);
                    estimates[k] = Math.log(only.ratio());
                    rounds += only.rounds();
                    logs.add(PairedRatio.logRatios(x, y));
                }
                double[] across = restarts.size() == 1 ? new double[] {only.ratio(), only.low(), only.high()}
                        : Restarts.meanWithInterval(estimates);
                Judge.Interval interval = new Judge.Interval(across[0], across[1], across[2]);
                all.add(new Own(arm.getKey(), probe, across[0], interval.largerHalf(), across[1], across[2], rounds,
                        restarts.size(),
                        restarts.size() == 1 ? Double.NaN : Restarts.betweenShare(logs)));
            }
        }
        return all;
    }
}
