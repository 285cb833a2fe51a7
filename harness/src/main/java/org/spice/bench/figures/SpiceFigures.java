package org.spice.bench.figures;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * All the arithmetic of the SPICE figures, as pure functions of measured numbers, so it can be checked
 * on known inputs. Undefined results (no static run at that client count, no requests) are NaN, which
 * the JSON writer turns into null and the table into "-".
 */
public final class SpiceFigures {

    /** Jain's index at or above which clients count as treated equally (1 = perfectly equal, 1/n = one client gets everything). */
    public static final double FAIR = 0.95;

    /** From this many repeats on, the repeats themselves are the batches of an interval (t with n − 1 ≥ 2 df). */
    public static final int MIN_REPEATS_AS_BATCHES = 3;

    private SpiceFigures() {
    }

    /** Jain's fairness index (Σx)² / (n·Σx²). NaN for no values or all zeros. */
    public static double jain(double[] x) {
        double sum = 0;
        double squares = 0;
        for (double v : x) {
            sum += v;
            squares += v * v;
        }
        return x.length == 0 || squares == 0 ? Double.NaN : sum * sum / (x.length * squares);
    }

    /** Coefficient of variation: population standard deviation / mean. NaN values are skipped. */
    public static double coefficientOfVariation(double[] x) {
        double sum = 0;
        int n = 0;
        for (double v : x) {
            if (!Double.isNaN(v)) {
                sum += v;
                n++;
            }
        }
        if (n == 0 || sum == 0) {
            return Double.NaN;
        }
        double mean = sum / n;
        double squares = 0;
        for (double v : x) {
            if (!Double.isNaN(v)) {
                squares += (v - mean) * (v - mean);
            }
        }
        return Math.sqrt(squares / n) / mean;
    }

    /**
     * Little's law for a closed loop: the clients equal rate × mean latency when every client is always
     * waiting on a request. The ratio (rate × latency) / clients is then 1; below 1 means the clients
     * spend time outside the measured latency (their own overhead, or waits after errors).
     */
    public static double littleRatio(int clients, double rateRps, double meanLatencyMs) {
        return clients <= 0 ? Double.NaN : rateRps * meanLatencyMs / 1000.0 / clients;
    }

    /** SPICE request efficiency = SPICE request rate / static request rate. */
    public static double requestEfficiency(double rateRps, double staticRateRps) {
        return staticRateRps > 0 && !Double.isNaN(rateRps) ? rateRps / staticRateRps : Double.NaN;
    }

    /** SPICE latency efficiency = static latency / SPICE latency. */
    public static double latencyEfficiency(double staticLatencyMs, double latencyMs) {
        return latencyMs > 0 && !Double.isNaN(staticLatencyMs) ? staticLatencyMs / latencyMs : Double.NaN;
    }

    /** One mix of a ladder, as the figures need it. */
    public record Point(int clients, double rateRps, double meanLatencyMs, double fairness, double serverCpuUsPerReq,
            double machineCpuUsPerReq, boolean failed, Noise noise) {

        /** A point without intervals. */
        public Point(int clients, double rateRps, double meanLatencyMs, double fairness, double serverCpuUsPerReq,
                double machineCpuUsPerReq, boolean failed) {
            this(clients, rateRps, meanLatencyMs, fairness, serverCpuUsPerReq, machineCpuUsPerReq, failed, Noise.NONE);
        }
    }

    /** The 95 % intervals' half-widths of a point's figures (see {@link Intervals}); NaN where unknown. */
    public record Noise(double rateRps, double meanLatencyMs, double serverCpuUsPerReq, double machineCpuUsPerReq) {
        public static final Noise NONE = new Noise(Double.NaN, Double.NaN, Double.NaN, Double.NaN);
    }

    /**
     * The intervals of a summary, as results.json writes them beside its figures ({@code *_ci}, half-widths of 95 %
     * intervals): the rate and the CPU per request at the peak, static's CPU at the same client count, and the CPU
     * efficiency. NaN where unknown (a window of under two seconds without repeats, or results from before slices).
     */
    public record PeakNoise(double peakRateRpsCi, double cpuUsPerReqAtPeakCi, double staticCpuUsPerReq,
            double staticCpuUsPerReqCi, double cpuEfficiencyCi) {
        public static final PeakNoise NONE = new PeakNoise(Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
    }

    /**
     * A probe's CPU figures from the paired rounds (results.json's summary, beside the ladder's): its mean CPU per
     * request and interval, its ratio to the static file's and the ratio's interval (in the ratio's unit), the rounds'
     * client count, how many rounds counted, the aim its interval had to reach ({@code cpu_aim}, relative: its ratio's,
     * or alone its CPU per request's; none for the static file beside probes) and whether it was reached; the load
     * tool's own CPU per request through its slices ({@code client_cpu_us_per_req}) and the share of the machine's CPUs
     * busy meanwhile ({@code machine_busy_share}: the load tool shares these cores); the rate the ratio was
     * taken at ({@code rate_rps}: the one both its arms were offered, open loop; closed loop, the probe's own), the
     * static file's where it ran at another ({@code static_rate_rps}: closed loop, each arm at the rate its clients
     * reached), and whether they were offered or achieved ({@code rate_kind}: one word for both, or two in their order
     * where they differ, as in results from before every ratio was taken at one load: "achieved, offered"); where the
     * probe's ratio took the static file's slices at a rate of the probe's own (a far probe), the static file's CPU per
     * request at that rate ({@code static_cpu_us_at_rate}, µs: the probe's CPU per request is it times the ratio).
     * Null where no rounds ran.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Rounds(Double cpuUsPerReq, Double cpuUsPerReqCi, Double cpuRatio, Double cpuRatioCi,
            Double cpuRatioLow, Double cpuRatioHigh, Integer cpuClients, Integer cpuRounds, Double cpuAim,
            Boolean cpuPrecisionReached, Double rateRps, Double staticRateRps, String rateKind, Double clientCpuUsPerReq,
            Double machineBusyShare, Double staticCpuUsAtRate) {
        public static final Rounds NONE = new Rounds(null, null, null, null, null, null, null, null, null, null, null, null,
                null, null, null, null);

        /** Whether the rounds measured this probe. */
        public boolean measured() {
            return cpuUsPerReq != null && !cpuUsPerReq.isNaN();
        }

        /** The ratio to the static file and its interval's two ends ({@link Judge}); {@link Judge.Interval#NONE} without. */
        public Judge.Interval cpuRatioInterval() {
            if (cpuRatio == null) {
                return Judge.Interval.NONE;
            }
            return cpuRatioLow != null && cpuRatioHigh != null ? new Judge.Interval(cpuRatio, cpuRatioLow, cpuRatioHigh)
                    : Judge.Interval.symmetric(cpuRatio, cpuRatioCi == null ? Double.NaN : cpuRatioCi);
        }
    }

    /**
     * Averages repeats of the same mix: rate, latency, fairness and server CPU are arithmetic means over
     * the repeats that did not fail, their intervals taken across those repeats when there are at least
     * {@link #MIN_REPEATS_AS_BATCHES} (the repeats are the batches); with fewer, the first point's own (its slices,
     * or every repeat's slices pooled, as the caller gave it). The result fails only if every repeat failed.
     */
    public static List<Point> combineRepeats(List<Point> points) {
        Map<Integer, List<Point>> byClients = new TreeMap<>();
        for (Point point : points) {
            byClients.computeIfAbsent(point.clients(), k -> new ArrayList<>()).add(point);
        }
        List<Point> combined = new ArrayList<>();
        for (Map.Entry<Integer, List<Point>> entry : byClients.entrySet()) {
            List<Point> ok = entry.getValue().stream().filter(p -> !p.failed()).toList();
            if (ok.isEmpty()) {
                combined.add(new Point(entry.getKey(), Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, true));
                continue;
            }
            Noise noise = ok.size() < MIN_REPEATS_AS_BATCHES ? ok.get(0).noise() : new Noise(spread(ok, Point::rateRps),
                    spread(ok, Point::meanLatencyMs), spread(ok, Point::serverCpuUsPerReq), spread(ok, Point::machineCpuUsPerReq));
            combined.add(new Point(entry.getKey(), mean(ok, Point::rateRps), mean(ok, Point::meanLatencyMs),
                    mean(ok, Point::fairness), mean(ok, Point::serverCpuUsPerReq), mean(ok, Point::machineCpuUsPerReq),
                    false, noise));
        }
        return combined;
    }

    /**
     * Which CPU figure stands for the server's cost of a probe: its process tree ({@code SERVER}, exact, but
     * blind to children the kernel reaps) or the whole machine less the client ({@code MACHINE}, which
     * sees them, and anything else the machine ran).
     */
    public enum CpuSource {
        SERVER("srv", "the server's processes"), MACHINE("mach", "the whole machine less the client"),
        CGROUP("cgroup", "the server's cgroup: every process it started, each once");

        private final String id;
        private final String meaning;

        CpuSource(String id, String meaning) {
            this.id = id;
            this.meaning = meaning;
        }

        @com.fasterxml.jackson.annotation.JsonValue
        public String id() {
            return id;
        }

        public String meaning() {
            return meaning;
        }

        double of(Point point) {
            return this != MACHINE ? point.serverCpuUsPerReq() : point.machineCpuUsPerReq();
        }

        double ci(Point point) {
            return this != MACHINE ? point.noise().serverCpuUsPerReq() : point.noise().machineCpuUsPerReq();
        }
    }

    /**
     * The summary of one probe against the static probe of the same run.
     *
     * @param cpuUsPerReqAtPeak the CPU per request that stands for the server's cost (from {@code cpuSource})
     * @param cpuEfficiency     static CPU per request / this probe's, both from {@code cpuSource} at the same
     *                          client count (the probe's peak): what the request efficiency would be if the
     *                          server's CPU were the only limit
     */
    public record Summary(String probe, int repeats, double peakRateRps, int peakClients, double latencyAtPeakMs,
            double requestEfficiencyAtPeak, double latencyEfficiencyAtPeak, int maxLoadClients,
            double requestEfficiencyAtMaxLoad, double latencyEfficiencyAtMaxLoad, double usefulPeakRps,
            int usefulPeakClients, double requestEfficiencyPeakToPeak, double serverCpuUsPerReqAtPeak,
            double machineCpuUsPerReqAtPeak, CpuSource cpuSource, double cpuUsPerReqAtPeak, double cpuEfficiency,
            @JsonUnwrapped PeakNoise noise, @JsonUnwrapped Rounds rounds) {

        /** A summary with the ladder's figures only. */
        public Summary(String probe, int repeats, double peakRateRps, int peakClients, double latencyAtPeakMs,
                double requestEfficiencyAtPeak, double latencyEfficiencyAtPeak, int maxLoadClients,
                double requestEfficiencyAtMaxLoad, double latencyEfficiencyAtMaxLoad, double usefulPeakRps,
                int usefulPeakClients, double requestEfficiencyPeakToPeak, double serverCpuUsPerReqAtPeak,
                double machineCpuUsPerReqAtPeak, CpuSource cpuSource, double cpuUsPerReqAtPeak, double cpuEfficiency,
                PeakNoise noise) {
            this(probe, repeats, peakRateRps, peakClients, latencyAtPeakMs, requestEfficiencyAtPeak, latencyEfficiencyAtPeak,
                    maxLoadClients, requestEfficiencyAtMaxLoad, latencyEfficiencyAtMaxLoad, usefulPeakRps, usefulPeakClients,
                    requestEfficiencyPeakToPeak, serverCpuUsPerReqAtPeak, machineCpuUsPerReqAtPeak, cpuSource,
                    cpuUsPerReqAtPeak, cpuEfficiency, noise, Rounds.NONE);
        }

        /** A summary without intervals. */
        public Summary(String probe, int repeats, double peakRateRps, int peakClients, double latencyAtPeakMs,
                double requestEfficiencyAtPeak, double latencyEfficiencyAtPeak, int maxLoadClients,
                double requestEfficiencyAtMaxLoad, double latencyEfficiencyAtMaxLoad, double usefulPeakRps,
                int usefulPeakClients, double requestEfficiencyPeakToPeak, double serverCpuUsPerReqAtPeak,
                double machineCpuUsPerReqAtPeak, CpuSource cpuSource, double cpuUsPerReqAtPeak, double cpuEfficiency) {
            this(probe, repeats, peakRateRps, peakClients, latencyAtPeakMs, requestEfficiencyAtPeak, latencyEfficiencyAtPeak,
                    maxLoadClients, requestEfficiencyAtMaxLoad, latencyEfficiencyAtMaxLoad, usefulPeakRps, usefulPeakClients,
                    requestEfficiencyPeakToPeak, serverCpuUsPerReqAtPeak, machineCpuUsPerReqAtPeak, cpuSource,
                    cpuUsPerReqAtPeak, cpuEfficiency, PeakNoise.NONE);
        }

        /**
         * The probe's CPU per request over the static file's with its 95 % interval: the paired rounds' ends where they
         * ran; from the ladder, the reciprocal of the CPU efficiency with the interval propagated from the probe's and
         * the static file's at the probe's peak. {@link Judge} decides what it says.
         */
        public Judge.Interval cpuRatioInterval() {
            return rounds.measured() ? rounds.cpuRatioInterval() : Judge.Interval.symmetric(cpuRatio(), cpuRatioCi());
        }

        /** True when the difference from the static file is a finding: the ratio's interval lies wholly on one side of 1. */
        public boolean cpuDistinguishableFromStatic() {
            return Judge.call(cpuRatioInterval()).differs();
        }

        /** True when the ratio to the static file has an interval. */
        public boolean cpuIntervalsKnown() {
            return cpuRatioInterval().known();
        }

        /** The CPU per request that stands for the probe's cost: the rounds' where they ran, else the ladder's at its peak. */
        public double cpuUs() {
            return rounds.measured() ? rounds.cpuUsPerReq() : cpuUsPerReqAtPeak;
        }

        /**
         * The probe's CPU per request / the static file's: the paired rounds' where they ran, else the reciprocal of
         * the ladder's CPU efficiency at the probe's peak.
         */
        public double cpuRatio() {
            return rounds.measured() && rounds.cpuRatio() != null ? rounds.cpuRatio()
                    : cpuEfficiency > 0 ? 1 / cpuEfficiency : Double.NaN;
        }

        /** That ratio's 95 % half-width, in the ratio's unit (from the ladder: propagated from the efficiency's). */
        public double cpuRatioCi() {
            return rounds.measured() && rounds.cpuRatioCi() != null ? rounds.cpuRatioCi()
                    : cpuEfficiency > 0 ? noise.cpuEfficiencyCi() / (cpuEfficiency * cpuEfficiency) : Double.NaN;
        }

        /** That figure's 95 % half-width. */
        public double cpuUsCi() {
            return rounds.measured() ? rounds.cpuUsPerReqCi() : noise.cpuUsPerReqAtPeakCi();
        }

        /** These figures with the CPU rounds': the ratio, and the CPU efficiency paired by round with its interval. */
        public Summary withRounds(Rounds measured, double pairedEfficiency, double pairedEfficiencyCi) {
            PeakNoise paired = new PeakNoise(noise.peakRateRpsCi(), noise.cpuUsPerReqAtPeakCi(), noise.staticCpuUsPerReq(),
                    noise.staticCpuUsPerReqCi(), pairedEfficiencyCi);
            return new Summary(probe, repeats, peakRateRps, peakClients, latencyAtPeakMs, requestEfficiencyAtPeak,
                    latencyEfficiencyAtPeak, maxLoadClients, requestEfficiencyAtMaxLoad, latencyEfficiencyAtMaxLoad,
                    usefulPeakRps, usefulPeakClients, requestEfficiencyPeakToPeak, serverCpuUsPerReqAtPeak,
                    machineCpuUsPerReqAtPeak, cpuSource, cpuUsPerReqAtPeak, pairedEfficiency, paired, measured);
        }

        /** True when no mix of the probe counted. */
        public boolean failed() {
            return Double.isNaN(peakRateRps);
        }
    }

    /**
     * Summarizes one probe's ladder.
     *
     * <ul>
     * <li>Peak: the mix with the highest rate (the fewest clients on a tie).</li>
     * <li>Efficiencies at the peak and at the maximum load (the largest client count that did not fail)
     * compare with the static probe at the same client count.</li>
     * <li>requestEfficiencyPeakToPeak compares the two peaks whatever their client counts: this is how the
     * white paper's Table 5 reads (iWS servlet 1080/2759 = 39.2%), kept for comparison.</li>
     * <li>Useful peak: the highest rate among mixes with Jain's fairness ≥ {@link #FAIR} and mean latency
     * within the bound; NaN if no mix qualifies.</li>
     * </ul>
     *
     * @param probePoints  the probe's mixes, repeats already combined
     * @param staticPoints the static probe's mixes, repeats combined (empty if static did not run)
     */
    public static Summary summarize(String probe, int repeats, List<Point> probePoints, List<Point> staticPoints,
            double latencyBoundMs) {
        return summarize(probe, repeats, probePoints, staticPoints, latencyBoundMs, CpuSource.SERVER);
    }

    /**
     * As above, with the CPU figure that stands for the server's cost: {@code preferred}, or the other one
     * when the preferred was not measured at the peak.
     */
    public static Summary summarize(String probe, int repeats, List<Point> probePoints, List<Point> staticPoints,
            double latencyBoundMs, CpuSource preferred) {
        List<Point> ok = probePoints.stream().filter(p -> !p.failed()).toList();
        if (ok.isEmpty()) {
            return new Summary(probe, repeats, Double.NaN, 0, Double.NaN, Double.NaN, Double.NaN, 0, Double.NaN,
                    Double.NaN, Double.NaN, 0, Double.NaN, Double.NaN, Double.NaN, preferred, Double.NaN, Double.NaN);
        }
        Point peak = ok.stream().max(Comparator.comparingDouble(Point::rateRps)
                .thenComparing(Comparator.comparingInt(Point::clients).reversed())).orElseThrow();
        Point maxLoad = ok.stream().max(Comparator.comparingInt(Point::clients)).orElseThrow();
        Point staticAtPeak = at(staticPoints, peak.clients());
        Point staticAtMax = at(staticPoints, maxLoad.clients());
        Point staticPeak = staticPoints.stream().filter(p -> !p.failed())
                .max(Comparator.comparingDouble(Point::rateRps)).orElse(null);
        Point useful = ok.stream()
                .filter(p -> p.fairness() >= FAIR && p.meanLatencyMs() <= latencyBoundMs)
                .max(Comparator.comparingDouble(Point::rateRps)).orElse(null);
        CpuSource source = Double.isNaN(preferred.of(peak)) && preferred != CpuSource.MACHINE ? CpuSource.MACHINE : preferred;
        double cpu = source.of(peak);
        double staticCpu = staticAtPeak == null ? Double.NaN : source.of(staticAtPeak);
        double cpuCi = source.ci(peak);
        double staticCpuCi = staticAtPeak == null ? Double.NaN : source.ci(staticAtPeak);
        PeakNoise noise = new PeakNoise(peak.noise().rateRps(), cpuCi, staticCpu, staticCpuCi,
                Intervals.ratioHalfWidth(staticCpu, staticCpuCi, cpu, cpuCi));
        return new Summary(probe, repeats, peak.rateRps(), peak.clients(), peak.meanLatencyMs(),
                requestEfficiency(peak.rateRps(), rate(staticAtPeak)),
                latencyEfficiency(latency(staticAtPeak), peak.meanLatencyMs()),
                maxLoad.clients(),
                requestEfficiency(maxLoad.rateRps(), rate(staticAtMax)),
                latencyEfficiency(latency(staticAtMax), maxLoad.meanLatencyMs()),
                useful == null ? Double.NaN : useful.rateRps(), useful == null ? 0 : useful.clients(),
                requestEfficiency(peak.rateRps(), rate(staticPeak)),
                peak.serverCpuUsPerReq(), peak.machineCpuUsPerReq(), source, cpu, cpuEfficiency(staticCpu, cpu), noise);
    }

    /** SPICE CPU efficiency = static CPU per request / the probe's CPU per request. */
    public static double cpuEfficiency(double staticCpuUs, double cpuUs) {
        return cpuUs > 0 && staticCpuUs > 0 ? staticCpuUs / cpuUs : Double.NaN;
    }

    private static Point at(List<Point> points, int clients) {
        return points.stream().filter(p -> p.clients() == clients && !p.failed()).findFirst().orElse(null);
    }

    private static double rate(Point point) {
        return point == null ? Double.NaN : point.rateRps();
    }

    private static double latency(Point point) {
        return point == null ? Double.NaN : point.meanLatencyMs();
    }

    /** The interval's half-width of a figure across repeats. */
    private static double spread(List<Point> points, java.util.function.ToDoubleFunction<Point> field) {
        return Intervals.halfWidth(points.stream().mapToDouble(field).toArray());
    }

    private static double mean(List<Point> points, java.util.function.ToDoubleFunction<Point> field) {
        double sum = 0;
        int n = 0;
        for (Point point : points) {
            double v = field.applyAsDouble(point);
            if (!Double.isNaN(v)) {
                sum += v;
                n++;
            }
        }
        return n == 0 ? Double.NaN : sum / n;
    }
}
