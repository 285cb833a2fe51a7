package org.spice.bench.analysis;

import java.util.Arrays;
import java.util.List;

import org.spice.bench.figures.Intervals;

/**
 * The arithmetic of measurements repeated over several starts of a server (Kalibera and Jones, "Rigorous Benchmarking
 * in Reasonable Time", ISMM 2013): a JVM's compilation decisions and a process's memory layout are drawn anew at each
 * start, and the rounds inside one start cannot see that; the starts can.
 */
final class Restarts {

    private Restarts() {
    }

    /**
     * The estimates of several starts (logs of ratios; NaN left out) as one ratio: exp of their mean, and its 95 %
     * interval's two ends (exp of the mean ∓ Student's half-width, one less degree of freedom than starts); NaN ends with
     * fewer than two.
     */
    static double[] meanWithInterval(double[] logs) {
        double[] x = Arrays.stream(logs).filter(v -> !Double.isNaN(v)).toArray();
        if (x.length == 0) {
            return new double[] {Double.NaN, Double.NaN, Double.NaN};
        }
        double mean = Arrays.stream(x).average().orElseThrow();
        double half = Intervals.halfWidth(x);
        return new double[] {Math.exp(mean), Math.exp(mean - half), Math.exp(mean + half)};
    }

    /**
     * The share of one round's variance that lies between starts, from each start's rounds ({@code perStart}, one
     * value per round): between / (between + within) of {@link #levels}. NaN with fewer than two starts of two rounds.
     */
    static double betweenShare(List<double[]> perStart) {
        double[] levels = levels(perStart);
        return levels[0] + levels[1] > 0 ? levels[0] / (levels[0] + levels[1]) : levels[0] == 0 ? 0 : Double.NaN;
    }

    /**
     * How far a start's estimate moves from one start to the next beyond what its rounds' own noise moves it: the
     * square root of the between-start variance of {@link #levels}, in log units (0.05: about 5 %). NaN with fewer
     * than two starts of two rounds.
     */
    static double betweenSd(List<double[]> perStart) {
        return Math.sqrt(levels(perStart)[0]);
    }

    /**
     * The two levels of a round's variance (Kalibera and Jones): the within-start variance pooled over the starts,
     * and the between-start variance, that of the starts' means less the within part over the rounds per start (never
     * below 0); {between, within}, NaN both with fewer than two starts of two rounds.
     */
    static double[] levels(List<double[]> perStart) {
        List<double[]> starts = perStart.stream().filter(x -> x.length >= 2).toList();
        if (starts.size() < 2) {
            return new double[] {Double.NaN, Double.NaN};
        }
        double within = 0;
        int df = 0;
        double[] means = new double[starts.size()];
        double rounds = 0;
        for (int k = 0; k < starts.size(); k++) {
            double[] x = starts.get(k);
            double mean = Arrays.stream(x).average().orElseThrow();
            means[k] = mean;
            within += Arrays.stream(x).map(v -> (v - mean) * (v - mean)).sum();
            df += x.length - 1;
            rounds += x.length;
        }
        within /= df;
        rounds /= starts.size();
        double grand = Arrays.stream(means).average().orElseThrow();
        double ofMeans = Arrays.stream(means).map(m -> (m - grand) * (m - grand)).sum() / (means.length - 1);
        return new double[] {Math.max(0, ofMeans - within / rounds), within};
    }
}
