package org.spice.bench.run;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.spice.bench.analysis.CostFigures;
import org.spice.bench.mix.Mix;
import org.spice.bench.model.BenchSettings;
import org.spice.bench.model.CostCurve;
import org.spice.bench.model.CostPlan;
import org.spice.bench.model.Failure;
import org.spice.bench.model.LatencyProfile;
import org.spice.bench.model.LoadEngine;
import org.spice.bench.model.OpenLoopRun;
import org.spice.bench.model.Stop;
import org.spice.bench.report.CostReport;

/**
 * The cost curve, after the ladder has found each probe's peak: in every round each probe open loop at each fraction
 * of its own peak for a slice, the slices shuffled per round as the CPU rounds' are ({@link PairedRounds#arranged}),
 * the server's CPU read around each. A server's CPU per request falls as its rate rises (it wakes once for several
 * requests), so a probe's cost is a curve, and the slope of CPU seconds a second against requests a second where that
 * curve is straight is the one figure that holds at any rate: the marginal cost ({@link CostFigures}).
 */
final class CostRounds {

    private final BenchSettings settings;
    private final CostPlan plan;
    private final LoadEngine engine;
    private final Stop stop;
    private final PrintStream err;
    private final Recorder recorder;
    private final List<CostCurve.Slice> slices = new ArrayList<>();

    CostRounds(BenchSettings settings, LoadEngine engine, Stop stop, PrintStream err, Recorder recorder) {
        this.settings = settings;
        this.plan = settings.cost();
        this.engine = engine;
        this.stop = stop;
        this.err = err;
        this.recorder = recorder;
    }

    /** @return null when every round ran, else why the run was cut short */
    Failure run() throws InterruptedException, IOException {
        Map<String, LatencyProfile.Peak> peaks = LatencyRounds.peaks(recorder.runs(), settings.load().mixes());
        if (peaks.size() < settings.load().mixes().size()) {
            return Failure.of(Failure.Kind.OTHER, "the cost curve needs every probe's peak, and the ladder measured"
                    + " none for " + settings.load().mixes().stream().map(Mix::name).filter(n -> !peaks.containsKey(n)).toList());
        }
        List<Cell> cells = new ArrayList<>();
        for (Mix mix : settings.load().mixes()) {
            for (double fraction : plan.fractions()) {
                cells.add(new Cell(mix, fraction, Math.max(1, Math.round(fraction * peaks.get(mix.name()).peakRps()))));
            }
        }
        err.println(String.format(Locale.ROOT, "cost curve: each probe open loop at %s of its peak in the ladder (%s),"
                + " %s s slices, %d rounds of %d", plan.fractions(), String.join(", ", peaks.values().stream()
                        .map(p -> p.probe() + " " + Math.round(p.peakRps()) + " req/s").toList()),
                fmt(plan.sliceS()), plan.rounds(), cells.size()));
        return RoundsLoop.run(new Kind(cells), new RoundsLoop.Bound(Double.POSITIVE_INFINITY, cells.size() * plan.sliceS(),
                "every rate", true), stop, err);
    }

    /** The cost curve's rounds as {@link RoundsLoop} runs them: a fixed number, each cell a slice, the curve recorded after each. */
    private final class Kind implements RoundsLoop.Kind {
        private final List<Cell> cells;
        private int round;

        Kind(List<Cell> cells) {
            this.cells = cells;
        }

        @Override
        public Failure round(int r) throws InterruptedException {
            round = r;
            for (Cell cell : PairedRounds.arranged(cells, settings.runner().seed(), r)) {
                slices.add(slice(r, cell));
                if (stop.requested()) {
                    break;
                }
            }
            return null;
        }

        @Override
        public String progress() {
            return CostReport.progress(round, curve(round, RoundsLoop.IN_PROGRESS));
        }

        @Override
        public boolean precise() {
            return round >= plan.rounds();
        }

        @Override
        public String finished() {
            return "its " + round + " rounds";
        }

        @Override
        public void record(String stoppedBy) throws IOException {
            recorder.costCurve(curve(round, stoppedBy));
        }
    }

    /** One probe at one rate for a slice, the server's CPU read around it by the engine. */
    private CostCurve.Slice slice(int round, Cell cell) throws InterruptedException {
        LoadEngine.Open open = engine.open(cell.mix, cell.rate, plan.maxInFlight(), plan.sliceS());
        double cpuS = open.serverCpuS();
        OpenLoopRun run = open.run();
        return new CostCurve.Slice(round, run.probe(), cell.fraction, run.offeredRps(), run.achievedRps(),
                run.succeeded(), run.errors() + run.timeouts() + run.dropped(),
                run.achievedRps() > 0 ? run.succeeded() / run.achievedRps() : plan.sliceS(), cpuS, run.generatorLagP99Ms());
    }

    /** The curve after {@code upTo} rounds, stopped for {@code why}. */
    private CostCurve curve(int upTo, String why) {
        List<String> probes = settings.load().mixes().stream().map(Mix::name).toList();
        return CostFigures.curve(plan.fractions(), plan.fitFrom(), plan.sliceS(), upTo, why, slices, probes);
    }

    /** A probe at one rate: a slice of every round. */
    private record Cell(Mix mix, double fraction, double rate) {
    }

    private static String fmt(double value) {
        return value == Math.rint(value) ? String.format(Locale.ROOT, "%.0f", value)
                : String.format(Locale.ROOT, "%.2f", value);
    }
}
