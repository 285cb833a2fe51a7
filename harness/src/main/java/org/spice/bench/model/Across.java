package org.spice.bench.model;

import java.util.List;

import org.spice.bench.figures.Judge;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * What a run of several arms concluded across them, computed once from the rounds of every start
 * ({@code CrossFigures.all}, where the run ends and where its file is read) and carried by its {@link Results} for the
 * tables, the pages, the gate and results.json to draw as they are: each probe on one server against another
 * ({@code cross_ratios}), each against its own static file ({@code own_ratios}), each arm's CPU per request
 * ({@code arm_cpu}) and the checks of the rounds. One server's run has none of these (its figures are its summary's).
 *
 * @param last    the last start's rounds (its load, its count, why it stopped); null for one server
 * @param starts  how many starts of the servers the figures are over
 * @param servers the servers' names, in their order
 * @param cgroups whether every server's CPU was read from its own cgroup
 * @param cpu     each arm's probes' CPU per request in the last start, as one server's rounds give it
 */
public record Across(CpuRounds last, int starts, List<String> servers, boolean cgroups, List<Cross> cross, List<Own> own,
        Checks checks, List<ArmCpu> cpu) {

    /** What one server's run concludes across arms: nothing (its figures are its summary's). */
    public static final Across NONE = new Across(null, 1, List.of(), false, List.of(), List.of(), null, List.of());

    public Across {
        servers = List.copyOf(servers);
        cross = List.copyOf(cross);
        own = List.copyOf(own);
        cpu = List.copyOf(cpu);
    }

    /**
     * One probe on server {@code a} against server {@code b} (results.json {@code cross_ratios}).
     *
     * @param ratio      a's CPU per request / b's: the Hodges-Lehmann estimate of the rounds' log-ratios
     * @param ratioCi    the larger half of its 95 % interval, in the ratio's unit: over one start, the rounds'
     *                   (Wilcoxon's signed-rank); over several, Student's across the starts
     * @param low        the interval's lower end ({@link Judge} judges the ends)
     * @param high       its upper end
     * @param rounds     the rounds both were measured in
     * @param restarts   the server starts the rounds span (one: the interval is the rounds' alone, and cannot see
     *                   what differs between one start of a server and the next)
     * @param relative   (a's probe / a's static file) / (b's probe / b's static file), paired by round; NaN for the
     *                   static file itself, or where a server has none
     * @param relativeCi half its interval's width
     * @param aim        the relative half-width the ratio had to reach: the precision, twice that for a probe that costs
     *                   more than twice its static file on {@code a} (as within a server)
     * @param precise    whether it did
     * @param betweenRestarts over several restarts, the share of a round's log-ratio variance that is between one
     *                   start of the servers and the next (Kalibera and Jones's two levels); NaN with one start
     * @param bProbe     b's probe where a pair set two probes side by side ({@code CrossFigures.Pair}: php-fpm on one server
     *                   against mod-php on another); null where both are {@code probe}
     * @param rateRps    the rates the ratio's two arms ran at, a's then b's, requests a second (over several starts,
     *                   their mean): one offered rate twice where the rounds ran open loop, else what each achieved
     * @param rateKind   which: {@link CpuRounds#OFFERED} or {@link CpuRounds#ACHIEVED}
     * @param roundsCi   the last start's rounds' own interval (Wilcoxon's), the one its aim and stopping rule judge
     * @param betweenStartsSd how far the ratio moves from one start of the servers to the next beyond its rounds'
     *                   noise, in log units, measured across the starts; NaN over one start, which cannot see it
     */
    @JsonPropertyOrder({"probe", "a", "b", "b_probe", "ratio", "ratio_ci", "ratio_low", "ratio_high", "rounds_ci", "between_starts_sd",
        "rate_rps", "rate_kind", "rounds", "restarts", "relative", "relative_ci", "aim", "precise", "between_restarts"})
    public record Cross(String probe, String a, String b, double ratio, double ratioCi,
            @JsonProperty("ratio_low") double low, @JsonProperty("ratio_high") double high,
            int rounds, int restarts,
            double relative, double relativeCi, double aim, boolean precise, double betweenRestarts,
            @JsonInclude(JsonInclude.Include.NON_NULL) String bProbe, List<Double> rateRps, String rateKind,
            double roundsCi, double betweenStartsSd) {

        /** The ratio and its interval's ends, as {@link Judge} reads them. */
        public Judge.Interval interval() {
            return new Judge.Interval(ratio, low, high);
        }

        /** Whether its two arms ran at different rates (closed loop, each at its own): the ratio then carries them. */
        public boolean ratesDiffer() {
            return rateRps.size() == 2 && !rateRps.get(0).equals(rateRps.get(1));
        }

        /** b's probe: {@code probe}, unless the pair set another against it. */
        public String probeOfB() {
            return bProbe == null ? probe : bProbe;
        }

        /** What the pair compares: the probe, or "a's probe / b's probe". */
        public String label() {
            return bProbe == null ? probe : probe + " / " + bProbe;
        }

        /** Whether {@code other} is the same comparison (its probes and arms). */
        public boolean samePair(Cross other) {
            return probe.equals(other.probe) && a.equals(other.a) && b.equals(other.b)
                    && probeOfB().equals(other.probeOfB());
        }

        /** The interval relative to the ratio (0.03: ±3 %); NaN without one. */
        public double relativeCiOfRatio() {
            return ratio > 0 ? ratioCi / ratio : Double.NaN;
        }

        /** Whether the interval holds 1 ({@link Judge}): the probe costs the same on both, as far as the rounds can tell. */
        public boolean holdsOne() {
            return Judge.holdsOne(interval());
        }
    }

    /**
     * One arm's probe's CPU per request in the last start (results.json {@code arm_cpu}): the static file's estimate
     * over its rounds times the probe's paired ratio to it, as one server's own rounds give it.
     *
     * @param cpuUsPerReqCi its 95 % interval's half-width, µs
     * @param rounds        the rounds it counts (the static file: every counted round)
     */
    @JsonPropertyOrder({"arm", "probe", "cpu_us_per_req", "cpu_us_per_req_ci", "rounds"})
    public record ArmCpu(String arm, String probe, double cpuUsPerReq, double cpuUsPerReqCi, int rounds) {
    }

    /**
     * One arm's probe against its own static file over the starts (results.json {@code own_ratios}): as each server's
     * own results give it for one start, here over them all.
     *
     * @param arm             the server, or "server:protocol"
     * @param ratio           the probe's CPU per request / the static file's: with several starts exp of the mean of
     *                        their log-ratio estimates
     * @param ratioCi         its 95 % interval's larger half: Wilcoxon's for one start, Student's across several
     * @param low             the interval's lower end ({@link Judge} judges the ends)
     * @param high            its upper end
     * @param betweenRestarts the share of a round's variance that lies between starts; NaN with one
     */
    @JsonPropertyOrder({"arm", "probe", "ratio", "ratio_ci", "ratio_low", "ratio_high", "rounds", "restarts",
        "between_restarts"})
    public record Own(String arm, String probe, double ratio, double ratioCi, @JsonProperty("ratio_low") double low,
            @JsonProperty("ratio_high") double high, int rounds,
            int restarts, double betweenRestarts) {

        /** The ratio and its interval's ends, as {@link Judge} reads them. */
        public Judge.Interval interval() {
            return new Judge.Interval(ratio, low, high);
        }
    }

    /**
     * One server's slices by what ran just before them: the same server (another of its probes) or another server.
     * A cache or a CPU frequency that one server leaves behind for the next would make the second group dearer.
     *
     * @param server     the arm
     * @param afterSame  its slices that followed one of its own
     * @param afterOther its slices that followed another server's
     * @param effect     their CPU per request after another server / after its own (geometric means, each slice
     *                   taken against its probe's mean over the rounds and its round's level): 1 is no carry-over
     * @param effectCi   half the 95 % interval's width (normal, Welch's standard error), in the effect's unit
     */
    @JsonPropertyOrder({"server", "after_same", "after_other", "effect", "effect_ci"})
    public record CarryOver(String server, int afterSame, int afterOther, double effect, double effectCi) {

        /** Whether the interval (normal, so symmetric) holds 1 ({@link Judge}): no carry-over the rounds can see. */
        public boolean holdsOne() {
            return Judge.holdsOne(Judge.Interval.symmetric(effect, effectCi));
        }
    }

    /** A per-slice share's median, 95th percentile and largest over the rounds' slices; NaN where none was read. */
    @JsonPropertyOrder({"median", "p95", "max", "slices"})
    public record Spread(double median, double p95, double max, int slices) {
        public static Spread of(List<Double> values) {
            double[] v = values.stream().filter(x -> !Double.isNaN(x)).mapToDouble(Double::doubleValue).sorted().toArray();
            if (v.length == 0) {
                return new Spread(Double.NaN, Double.NaN, Double.NaN, 0);
            }
            return new Spread(Across.quantile(v, 0.5), Across.quantile(v, 0.95), v[v.length - 1], v.length);
        }
    }

    /**
     * @param carryOver  per server, its slices after its own against after another's
     * @param idleShare  per slice, the CPU the servers not under load took, over the measured server's
     * @param stealShare per slice, the steal time over its duration (the share of one CPU the hypervisor took)
     */
    @JsonPropertyOrder({"carry_over", "idle_share", "steal_share"})
    public record Checks(List<CarryOver> carryOver, Spread idleShare, Spread stealShare) {
    }

    /** The {@code q} quantile of sorted {@code v}, linear between order statistics. */
    static double quantile(double[] v, double q) {
        double at = q * (v.length - 1);
        int i = (int) Math.floor(at);
        return i + 1 < v.length ? v[i] + (at - i) * (v[i + 1] - v[i]) : v[i];
    }
}
