package org.spice.bench.analysis;

import org.spice.bench.model.Across;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.spice.bench.figures.SpiceFigures;
import org.spice.bench.model.CpuRounds;

/** Figures over several starts of the servers: Student's interval across them, and the share between starts. */
@Tag("unit")
class RestartsTest {

    @Test
    void theStartsEstimatesMakeOneRatioWithStudentsIntervalAcrossThem() {
        double[] ratio = Restarts.meanWithInterval(new double[] {Math.log(0.9), 0, Math.log(1.1)});
        assertEquals(0.99666, ratio[0], 1e-5, "exp of the mean log");
        // the logs' sd 0.10038, t(0.975, 2 df) = 4.3027: the half-width 0.24935 in log units
        assertEquals(0.77670, ratio[1], 1e-5, "exp(mean − t × sd / √3)");
        assertEquals(1.27890, ratio[2], 1e-5, "exp(mean + t × sd / √3): the interval leans up, as the logs' does");
        assertTrue(Double.isNaN(Restarts.meanWithInterval(new double[] {0.1})[1]), "one start has no such interval");
    }

    @Test
    void theShareBetweenStartsIsTheirMeansVarianceLessWhatTheRoundsWouldGiveIt() {
        // three starts 0.1 apart, each round ±0.05 about its start's mean: within 0.05² × 4 / 3, means' variance 0.01
        List<double[]> starts = List.of(new double[] {0.15, 0.05, 0.15, 0.05}, new double[] {0.05, -0.05, 0.05, -0.05},
                new double[] {-0.05, -0.15, -0.05, -0.15});
        double within = 4 * 0.0025 / 3;
        double between = 0.01 - within / 4;
        assertEquals(between / (between + within), Restarts.betweenShare(starts), 1e-9);
        assertEquals(Math.sqrt(between), Restarts.betweenSd(starts), 1e-9, "the between level as a log sd");
        List<double[]> alike = List.of(new double[] {0.05, -0.05}, new double[] {-0.05, 0.05});
        assertEquals(0, Restarts.betweenShare(alike), 1e-12, "starts no further apart than their rounds: none between");
        assertEquals(0, Restarts.betweenSd(alike), 1e-12);
        assertTrue(Double.isNaN(Restarts.betweenSd(List.of(new double[] {0.1, 0.2}))), "one start: unknown");
    }

    @Test
    void crossRatiosOverStartsCarryTheirCountAndShare() {
        CpuRounds one = CrossFiguresTest.rounds(8, 0.1, 0.02);
        CpuRounds two = CrossFiguresTest.rounds(8, 0.05, 0.03);
        List<Across.Cross> all = CrossFigures.acrossRestarts(List.of(one, two), (s, p) -> SpiceFigures.CpuSource.SERVER);
        Across.Cross servlet = all.stream().filter(c -> c.probe().equals("servlet")).findFirst().orElseThrow();
        assertEquals(2, servlet.restarts());
        assertEquals(16, servlet.rounds());
        assertEquals(0.8, servlet.ratio(), 0.02);
        assertTrue(!Double.isNaN(servlet.betweenRestarts()));
        assertEquals(Math.sqrt(servlet.betweenRestarts()), servlet.betweenStartsSd(), 1e-12,
                "the machine's drift cancels in the pairing: nothing between these starts");
        assertEquals(CrossFigures.of(one, (s, p) -> SpiceFigures.CpuSource.SERVER),
                CrossFigures.acrossRestarts(List.of(one), (s, p) -> SpiceFigures.CpuSource.SERVER), "one start: its own");
    }
}
