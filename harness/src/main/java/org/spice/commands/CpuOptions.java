package org.spice.commands;


import java.util.List;

import org.spice.bench.model.BenchSettings;
import org.spice.bench.model.CpuPlan;
import org.spice.bench.model.Runner;
import org.spice.cli.Cli;
import org.spice.page.Probe;

import picocli.CommandLine.Option;

/** How bench takes the CPU figure: the paired rounds at one load ({@link ServerCpuOptions}: where it is read). */
final class CpuOptions {

    /**
     * The most the rounds last unless told otherwise, seconds: on a server that warms in seconds (httpd, nginx), what
     * the rounds may take of the shared bound below. Default benches needed 18 to 26 rounds (120-170 s) for ±5 %.
     */
    static final double TIME_S = 180;

    /**
     * Unless --cpu-time is given, the warm-up and the rounds together last at most this per workload, seconds, counting
     * at least the default six (both run every workload in turn, so their time grows with the workloads; fewer
     * workloads make shorter rounds, not fewer needed): the default bench's six then take 300 s, so that a fresh
     * clone's `scripts/spice bench` (its build 26 s, its ladder about 115 s, at most 126) takes at most 8 minutes here.
     * The warm-up takes 84-108 s (JSP's 100 pages until C2 has compiled them, at the thresholds of
     * conf/java/jvm.options); the rounds then need 18 rounds where a slice's log-ratio spreads 9 %, 25 where it
     * spreads 11 %, as it did here on 2026-11-25: 153 and 177 s of rounds (33 and 29 rounds) left a ratio at ±5.0 %
     * in one fresh bench of two.
     */
    static final double WITH_WARM_UP_PER_WORKLOAD_S = 50;

    @Option(names = "--cpu-clients", paramLabel = "N", converter = Converters.ClientCount.class, description = "The"
            + " CPU rounds at N clients, closed loop, each arm at the rate it reaches (by default they run at one"
            + " offered rate: --cpu-rate).")
    Integer clients;

    @Option(names = "--cpu-precision", paramLabel = "PCT", converter = Converters.Positive.class, description = "The CPU"
            + " rounds go on until every probe's ratio to the static file is known within ±PCT %% (95 %% interval;"
            + " default 5), or --cpu-time.")
    double precisionPct = 100 * CpuPlan.PRECISION;

    @Option(names = "--cpu-rate", paramLabel = "R|auto", converter = Converters.CpuRate.class, description = "The CPU"
            + " rounds open loop, every slice of every arm at one offered rate: R requests per second, or auto ("
            + "half the slowest arm's rate at " + CpuPlan.CLIENTS + " clients, found in one round before"
            + " them). Default: auto, but probes under " + CpuPlan.NEAR_WORDS
            + " of the static file's rate there (CGI, SSI) run apart, paired with the static file at the rate, which is"
            + " half the slowest of the others': one server's at " + CpuPlan.CLIENTS + " clients; servers side by side"
            + " each such probe at half its slowest server's rate, the same on every server. --cpu-clients N"
            + " instead runs every arm at N clients, each at its own rate.")
    Double rate;

    @Option(names = "--cpu-time", paramLabel = "S", converter = Converters.Seconds.class, description = "The most the CPU"
            + " rounds last, seconds (default: what the warm-up left of " + (int) WITH_WARM_UP_PER_WORKLOAD_S + " s per"
            + " workload, six at least, for the two, at least " + (int) CpuPlan.LEAST_S + " and at most " + (int) TIME_S
            + "; 0: no rounds, the CPU figure from the ladder).")
    Double timeS;

    /**
     * The rounds of a bench of {@code workloads} workloads, open loop possible where {@code onEngine} (SPICE's engine,
     * not the latency profile's rounds). Unless told otherwise (--cpu-rate, or --cpu-clients for a client count) the
     * rounds hold their arms at one offered rate: at a client count each arm runs at the rate its own speed and the
     * client's allow, and its CPU per request moves with that rate (Tomcat against Jetty read 0.75-0.91 with SPICE's
     * engine where wrk and ab, faster clients, gave 0.65-0.74; a probe's rate against the static file's moved 16-26 %
     * from round to round at 8 clients, and its ratio with it: docs/measurements.md, "One load"). But not the probes
     * far slower than the static file (CGI, SSI): one rate for all would be a share of CGI's, where the static file's
     * CPU per request is wake-ups and the machine's steal, not its cost under load (side by side over two deployments,
     * httpd's static file against Tomcat's read ± 31-44 % after 6 rounds at CGI's 170 req/s). One server's run at the
     * client count against the static file at the rate; servers side by side hold each at a rate of its own, the
     * same on every server, so that each cross ratio is still taken at one load.
     */
    CpuPlan rounds(int workloads, boolean sideBySide, boolean onEngine) {
        boolean told = rate != null || clients != null;
        boolean auto = rate != null ? rate == Converters.CpuRate.AUTO : !told && (sideBySide || onEngine);
        return new CpuPlan(clients != null ? clients : CpuPlan.CLIENTS, precisionPct / 100,
                timeS != null ? timeS : TIME_S,
                timeS != null ? null : WITH_WARM_UP_PER_WORKLOAD_S * Math.max(Probe.standard().size(), workloads),
                rate != null && rate > 0 ? rate : null, auto ? CpuPlan.AUTO_FRACTION : null,
                !told && (onEngine || sideBySide) ? Boolean.TRUE : null, List.of());
    }

    /** --cpu-rate's rules: it sets the rounds' load, so it needs rounds, on the engine that runs them. */
    void check(Cli.Checks check, BenchSettings settings) {
        if (rate == null) {
            return;
        }
        if (settings.cpu().timeS() == 0 || settings.latency() != null
                || settings.runner().engine() != Runner.Engine.EVENT_LOOP) {
            throw check.fail("--cpu-rate sets the load of the CPU rounds, which run on SPICE's own engine: not with"
                    + " --cpu-time 0, --profile latency or --engine jmeter");
        }
        if (clients != null) {
            throw check.fail("--cpu-rate and --cpu-clients: the rounds run at one rate or at one client count, not both"
                    + " (with auto, the rate is half the slowest arm's at " + CpuPlan.CLIENTS + " clients)");
        }
    }
}
