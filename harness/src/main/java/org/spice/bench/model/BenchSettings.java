package org.spice.bench.model;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.spice.bench.figures.SpiceFigures;
import org.spice.bench.mix.Mix;
import org.spice.bench.net.Endpoint;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.core.type.TypeReference;

/**
 * What one bench run does, fixed before it starts: made by the bench command from its typed options, in one place
 * ({@code BenchCommand.settings}), which checks every value. The components results.json records are mapped to
 * {@link Settings} by name ({@link #recorded}); those marked {@code @JsonIgnore} are recorded elsewhere or not at all.
 *
 * @param baseline what the efficiencies divide by
 * @param serverPids the server's processes (e.g. httpd and the Tomcat behind it): their trees' CPU is the server's
 * @param serverMetrics the Prometheus exporters on the server's machine, where its CPU is read instead of /proc
 * @param warmUpS seconds of unmeasured load before the ladder, so the client is warm when timing starts
 * @param flood   what goes past the peak (profile overload), else null
 * @param serverCgroup the server's cgroup on this machine, whose CPU is the server's (every process it started), or null
 * @param cpu     how the CPU figure is taken: paired rounds at one load, to a precision, within a time
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record BenchSettings(@JsonIgnore Endpoint target, @JsonIgnore Endpoint tlsTarget, @JsonIgnore List<Mix> mixes,
        List<Integer> clients, Profile profile, double rampUpS, double durationS, double rampDownS, double pauseS,
        @JsonIgnore boolean keepAlive, int repeat, @JsonProperty("timeout_ms") int timeoutMillis, double latencyBoundMs,
        double warmUpS, Baseline baseline,
        @JsonProperty("server_pid") @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Long> serverPids,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<URI> serverMetrics, @JsonIgnore String serverName,
        @JsonIgnore boolean pin, long seed, @JsonIgnore Path outDir, @JsonIgnore Path trustCert,
        @JsonProperty("tls_session_resumption") boolean tlsResume, @JsonIgnore long bytes, Engine engine,
        @JsonIgnore JMeter jmeter, @JsonIgnore Flood flood, @JsonIgnore Path serverCgroup, @JsonUnwrapped CpuPlan cpu,
        @JsonIgnore OpenRate open, @JsonIgnore LatencyPlan latency, @JsonIgnore CostPlan cost) {

    /**
     * The open loop in the ladder's place (--rate): each probe at {@code rps} requests per second for the duration,
     * at most {@code maxInFlight} under way (results.json keeps each run with its rate, {@code open_loop}).
     */
    public record OpenRate(double rps, int maxInFlight) {
    }

    /**
     * The latency profile (--profile latency; bench.run.LatencyRounds): after the ladder, every probe open loop at the
     * same rates, {@code fractions} of the slowest probe's peak, in paired rounds of slices of the duration for at most
     * {@code timeS} (0: {@link #ROUNDS} rounds) or until every ratio to static is within {@code precision}; then each probe along its own curve,
     * {@code curve} fractions of its own peak.
     */
    public record LatencyPlan(List<Double> fractions, List<Double> curve, int maxInFlight, double timeS,
            double precision) {
        /** Common rates unless told otherwise: a quarter, half and three quarters of the slowest probe's peak. */
        public static final List<Double> FRACTIONS = List.of(0.25, 0.5, 0.75);
        /** Each probe's curve unless told otherwise: from a tenth of its peak to past it. */
        public static final List<Double> CURVE = List.of(0.1, 0.3, 0.5, 0.7, 0.9, 1.1, 1.3);
        /**
         * The rounds unless --cpu-time bounds them: an interval's six and two more (the default six probes at three
         * rates in 2 s slices take 36 s a round, so some 300 s).
         */
        public static final int ROUNDS = 8;

        /** The rounds' time bound, seconds, for rounds of {@code roundS}: --cpu-time, else {@link #ROUNDS} rounds. */
        public double boundS(double roundS) {
            return timeS > 0 ? timeS : ROUNDS * roundS;
        }

        public LatencyPlan {
            fractions = List.copyOf(fractions);
            curve = List.copyOf(curve);
        }
    }

    /**
     * The cost curve (--profile cost; bench.run.CostRounds): after the ladder, each probe open loop at {@code fractions}
     * of its own peak, a slice of {@code sliceS} per probe and rate in each of {@code rounds} shuffled rounds; the
     * marginal cost's line from {@code fitFrom} up.
     */
    public record CostPlan(List<Double> fractions, double fitFrom, double sliceS, int rounds, int maxInFlight) {
        /**
         * From a tenth of the peak, where a request still finds the server asleep, to nine tenths, short of the
         * saturation that stops the curve.
         */
        public static final List<Double> FRACTIONS = List.of(0.1, 0.25, 0.5, 0.75, 0.9);
        /** The line from a quarter of the peak: below it each request pays a wake-up of its own. */
        public static final double FIT_FROM = 0.25;
        /** Rounds unless told otherwise: an interval's six. */
        public static final int ROUNDS = 6;
        /** A slice: the CPU rounds' second. */
        public static final double SLICE_S = 1;

        public CostPlan {
            fractions = List.copyOf(fractions);
        }
    }

    /** The timing of a ladder's mixes. */
    public enum Profile {
        /**
         * Enough to see a curve in a couple of minutes: the default ladder of 6 probes x 7 client counts in about 2
         * minutes. Half a second of ramp-up and no pause between mixes: measured here after the warm-up (embedded and
         * Tomcat, 1 to 64 clients, 70 windows run with no ramp-up and no pause), a window's first second ran at 0.99 and
         * 1.01 × the rate of its next two, within their own second-to-second spread (6 %), where a 1 s ramp-up and a
         * 0.5 s pause had given 0.96; the CPU rounds' slices have neither. Windows of 2 s, not 3: the CPU figure comes
         * from the rounds, which need the time more (a default bench's rounds stopped at ±5.0 % after 29 rounds with
         * 3 s windows), and a rate over 2 s spreads √1.5 times what it does over 3, some 5 % here.
         */
        QUICK(0.5, 2, 0.5, 0),
        /** The timing of the 1999 and 2000 reports. */
        WEBBENCH(30, 240, 30, 30),
        /** The quick ladder to find each workload's peak, then the flood past it ({@link Flood}). */
        OVERLOAD(0.5, 2, 0.5, 0),
        /**
         * The quick ladder to find each probe's peak, then every probe open loop at common rates in paired rounds of
         * 2 s slices, and each along its own curve ({@link LatencyPlan}).
         */
        LATENCY(0.5, 2, 0.5, 0),
        /** The quick ladder to find each probe's peak, then each probe's CPU along its rates ({@link CostPlan}). */
        COST(0.5, 2, 0.5, 0);

        public final double rampUpS;
        public final double durationS;
        public final double rampDownS;
        public final double pauseS;

        Profile(double rampUpS, double durationS, double rampDownS, double pauseS) {
            this.rampUpS = rampUpS;
            this.durationS = durationS;
            this.rampDownS = rampDownS;
            this.pauseS = pauseS;
        }

        @JsonValue
        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** What the efficiencies divide by. */
    public enum Baseline {
        /** The static fileset if it runs, else the single static file. */
        AUTO,
        FILESET,
        /** The single static file, even when the fileset runs. */
        FILE;

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** As results.json records it: not at all when left to the run. */
        @JsonValue
        String recorded() {
            return this == AUTO ? null : toString();
        }
    }

    /** The load engine. */
    public enum Engine {
        /** Closed-loop clients on event-loop threads, plain HTTP and TLS alike. */
        EVENT_LOOP(true),
        /** Apache JMeter in non-GUI mode, here or on JMeter server engines on other machines. */
        JMETER(false);

        private final boolean windowed;

        Engine(boolean windowed) {
            this.windowed = windowed;
        }

        /**
         * Whether the engine runs windows of any timing (slices to a steady state, a flood's steps): the one place that
         * says so before an engine exists; its class is then a {@link LoadEngine.Windowed} (EnginesTest checks both agree).
         */
        public boolean windowed() {
            return windowed;
        }

        @JsonValue
        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    /**
     * How JMeter runs (engine jmeter only).
     *
     * @param home        JMeter's home (jmeter/target/jmeter, assembled by the build)
     * @param remotes     JMeter server engines, HOST:PORT; empty to run JMeter here
     * @param rmiKeystore the keystore both sides share for RMI over TLS; null when RMI runs without TLS (loopback tests)
     * @param rmiPassword its password
     */
    public record JMeter(Path home, List<String> remotes, Path rmiKeystore, String rmiPassword) {
        public JMeter {
            remotes = List.copyOf(remotes);
        }
    }

    /**
     * The overload profile's flood: each workload at its peak's client count, then at these multiples of it.
     *
     * @param peakClients the peak's client count for every workload, or 0 to take each one's from the ladder
     * @param timing      each step's ramp-up, window, ramp-down and the pause before it, seconds
     */
    public record Flood(int peakClients, List<Integer> multiples, List<Double> timing) {
        /** The multiples past the peak: 2, 4, 8 and 16 times its clients. */
        public static final List<Integer> MULTIPLES = List.of(2, 4, 8, 16);

        /**
         * A step's timing unless told otherwise. Thousands of clients connect at once, and a SYN the full accept queue
         * drops is sent again 1 s, then 3 s later: 3 s of ramp-up let the closed loop settle, a 5 s window averages
         * over those retransmissions, and 2 s of pause let the server close what the last step left.
         */
        public static final List<Double> TIMING = List.of(3.0, 5.0, 1.0, 2.0);

        public double rampUpS() {
            return timing.get(0);
        }

        public double windowS() {
            return timing.get(1);
        }

        public double rampDownS() {
            return timing.get(2);
        }

        public double pauseS() {
            return timing.get(3);
        }

        public Flood {
            multiples = List.copyOf(multiples);
            timing = List.copyOf(timing);
        }
    }

    /**
     * The CPU rounds: after the warm-up, every workload in rounds of one-second slices at {@code clients}, the order
     * shuffled per round from the seed, until every probe's ratio to static is known within {@code precision} (a
     * fraction: 0.05 is ±5 %) or their time bound has passed: {@code timeS}, or where {@code withWarmUpS} is set (the
     * default) what the warm-up left of it, at least {@link #LEAST_S} and at most {@code timeS}; {@code timeS} 0 runs none.
     * With {@code rateRps} (--cpu-rate R) or {@code rateFraction} (--cpu-rate auto: that share of the slowest arm's
     * rate at {@code clients}) every slice runs open loop at one offered rate instead, the same for every arm. With
     * {@code farAtClients} (one server's default) the rate is that share of the slowest arm's near the static file's
     * speed (at least {@link #NEAR} of it), and the arms slower than that run at {@code clients}, closed loop.
     */
    public record CpuPlan(@JsonProperty("cpu_clients") int clients, @JsonProperty("cpu_precision") double precision,
            @JsonProperty("cpu_time_s") double timeS,
            @JsonProperty("cpu_time_with_warm_up_s") @JsonInclude(JsonInclude.Include.NON_NULL) Double withWarmUpS,
            @JsonProperty("cpu_rate_rps") @JsonInclude(JsonInclude.Include.NON_NULL) Double rateRps,
            @JsonProperty("cpu_rate_fraction") @JsonInclude(JsonInclude.Include.NON_NULL) Double rateFraction,
            @JsonProperty("cpu_far_at_clients") @JsonInclude(JsonInclude.Include.NON_NULL) Boolean farAtClients) {

        /**
         * The share of the slowest arm's rate at {@link #CLIENTS} clients that --cpu-rate auto offers every arm: low
         * enough that every arm holds it with room (no queue builds, the open loop keeps its schedule), high enough
         * that a server is busy as under load.
         */
        public static final double AUTO_FRACTION = 0.5;

        /**
         * An arm whose rate at {@link #CLIENTS} clients is under this share of the static file's is far from it: one
         * rate for both would be a share of the far arm's, where the static file's CPU per request is not what it is
         * under load (at CGI's 270 req/s here, embedded static 250-2,900 µs a slice with the hypervisor's steal, against
         * 84 at 8 clients: docs/method.md, "One load"). Measured here at 8 clients against the static file: servlet,
         * JSP and module 0.95-1.08, SSI 0.43-0.50, CGI 0.04; at a half, SSI fell on either side from run to run.
         */
        public static final double NEAR = 2.0 / 3;
        /** {@link #NEAR} in words, for the options' help (an annotation takes constants only). */
        public static final String NEAR_WORDS = "two thirds";

        /** Rounds at {@code clients} clients, closed loop. */
        public CpuPlan(int clients, double precision, double timeS, Double withWarmUpS) {
            this(clients, precision, timeS, withWarmUpS, null, null, null);
        }

        /** Rounds at one offered rate ({@code rateRps}, or {@code rateFraction} of the slowest arm's) for every arm. */
        public CpuPlan(int clients, double precision, double timeS, Double withWarmUpS, Double rateRps,
                Double rateFraction) {
            this(clients, precision, timeS, withWarmUpS, rateRps, rateFraction, null);
        }

        /** Whether arms far slower than the static file run at the client count while the others hold one rate. */
        public boolean farArmsAtClients() {
            return Boolean.TRUE.equals(farAtClients);
        }

        /** Whether the rounds run open loop, every arm at one offered rate. */
        public boolean openLoop() {
            return rateRps != null || rateFraction != null;
        }

        /**
         * The load of the rounds unless told otherwise: 8 clients. Measured here (2 cores, loopback): the static file's
         * per-slice CPU spread was 5–7 % at 8 clients against about 10 % at 64, and at 8 the client is not the limit.
         */
        public static final int CLIENTS = 8;
        public static final double PRECISION = 0.05;
        /**
         * The least time the default bound leaves the rounds after a long warm-up, seconds: the first {@link
         * CpuRounds#MIN_ROUNDS} rounds of the default six probes take 36 s, and a few more make an interval.
         */
        public static final double LEAST_S = 60;

        /** The rounds' time bound, seconds, once the warm-up (its idle reading included) has taken {@code warmUpS}. */
        public double boundS(double warmUpS) {
            return withWarmUpS == null ? timeS : Math.min(timeS, Math.max(LEAST_S, withWarmUpS - warmUpS));
        }
    }

    /** Settings made by name, group by group as the bench command's options are ({@link Builder}). */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Builds settings by name, in the bench command's groups: where the load goes, what it is, its timing, the
     * server's side, the engine and the run. What is not set keeps the default a test would expect.
     */
    public static final class Builder {
        private Endpoint target;
        private Endpoint tlsTarget;
        private Path trustCert;
        private boolean tlsResume;
        private boolean keepAlive;
        private int timeoutMillis = 10_000;
        private List<Mix> mixes = List.of();
        private long bytes = 6_250;
        private Baseline baseline = Baseline.AUTO;
        private List<Integer> clients = List.of(1);
        private int repeat = 1;
        private double latencyBoundMs = 100;
        private Profile profile = Profile.QUICK;
        private double rampUpS = Profile.QUICK.rampUpS;
        private double durationS = Profile.QUICK.durationS;
        private double rampDownS = Profile.QUICK.rampDownS;
        private double pauseS = Profile.QUICK.pauseS;
        private double warmUpS;
        private String serverName;
        private List<Long> serverPids = List.of();
        private List<URI> serverMetrics = List.of();
        private Path serverCgroup;
        private boolean pin;
        private Engine engine = Engine.EVENT_LOOP;
        private JMeter jmeter;
        private long seed = 1;
        private Path outDir;
        private Flood flood;
        private CpuPlan cpu = new CpuPlan(CpuPlan.CLIENTS, CpuPlan.PRECISION, 0, null);
        private OpenRate open;
        private LatencyPlan latency;
        private CostPlan cost;

        private Builder() {
        }

        // Where the load goes.
        public Builder target(Endpoint value) { target = value; return this; }
        public Builder tlsTarget(Endpoint value) { tlsTarget = value; return this; }
        public Builder trustCert(Path value) { trustCert = value; return this; }
        public Builder tlsResume(boolean value) { tlsResume = value; return this; }
        public Builder keepAlive(boolean value) { keepAlive = value; return this; }
        public Builder timeoutMillis(int value) { timeoutMillis = value; return this; }

        // What it is.
        public Builder mixes(List<Mix> value) { mixes = value; return this; }
        public Builder bytes(long value) { bytes = value; return this; }
        public Builder baseline(Baseline value) { baseline = value; return this; }
        public Builder clients(List<Integer> value) { clients = value; return this; }
        public Builder repeat(int value) { repeat = value; return this; }
        public Builder latencyBoundMs(double value) { latencyBoundMs = value; return this; }

        // Its timing.
        public Builder profile(Profile value) { profile = value; return this; }
        public Builder rampUpS(double value) { rampUpS = value; return this; }
        public Builder durationS(double value) { durationS = value; return this; }
        public Builder rampDownS(double value) { rampDownS = value; return this; }
        public Builder pauseS(double value) { pauseS = value; return this; }
        public Builder warmUpS(double value) { warmUpS = value; return this; }

        // The server's side.
        public Builder serverName(String value) { serverName = value; return this; }
        public Builder serverPids(List<Long> value) { serverPids = value; return this; }
        public Builder serverMetrics(List<URI> value) { serverMetrics = value; return this; }
        public Builder serverCgroup(Path value) { serverCgroup = value; return this; }
        public Builder pin(boolean value) { pin = value; return this; }

        // The engine, the run, what follows the ladder.
        public Builder engine(Engine value) { engine = value; return this; }
        public Builder jmeter(JMeter value) { jmeter = value; return this; }
        public Builder seed(long value) { seed = value; return this; }
        public Builder outDir(Path value) { outDir = value; return this; }
        public Builder flood(Flood value) { flood = value; return this; }
        public Builder cpu(CpuPlan value) { cpu = value; return this; }
        public Builder open(OpenRate value) { open = value; return this; }
        public Builder latency(LatencyPlan value) { latency = value; return this; }
        public Builder cost(CostPlan value) { cost = value; return this; }

        public BenchSettings build() {
            return new BenchSettings(target, tlsTarget, mixes, clients, profile, rampUpS, durationS, rampDownS, pauseS,
                    keepAlive, repeat, timeoutMillis, latencyBoundMs, warmUpS, baseline, serverPids, serverMetrics,
                    serverName, pin, seed, outDir, trustCert, tlsResume, bytes, engine, jmeter, flood, serverCgroup, cpu,
                    open, latency, cost);
        }
    }

    /** A builder holding these settings, to change some by name. */
    public Builder toBuilder() {
        return builder().target(target).tlsTarget(tlsTarget).trustCert(trustCert).tlsResume(tlsResume)
                .keepAlive(keepAlive).timeoutMillis(timeoutMillis).mixes(mixes).bytes(bytes).baseline(baseline)
                .clients(clients).repeat(repeat).latencyBoundMs(latencyBoundMs).profile(profile).rampUpS(rampUpS)
                .durationS(durationS).rampDownS(rampDownS).pauseS(pauseS).warmUpS(warmUpS).serverName(serverName)
                .serverPids(serverPids).serverMetrics(serverMetrics).serverCgroup(serverCgroup).pin(pin).engine(engine)
                .jmeter(jmeter).seed(seed).outDir(outDir).flood(flood).cpu(cpu).open(open).latency(latency).cost(cost);
    }

    public BenchSettings {
        mixes = List.copyOf(mixes);
        clients = List.copyOf(clients);
        serverPids = List.copyOf(serverPids);
        serverMetrics = List.copyOf(serverMetrics);
    }

    /** Where this run reads the server's CPU. */
    public CpuFrom cpuFrom() {
        return CpuFrom.of(!serverMetrics.isEmpty(), serverCgroup != null);
    }

    /** The CPU figure that stands for {@code workload}'s cost in this run (see {@link CpuFrom#sourceFor}). */
    public SpiceFigures.CpuSource cpuSource(String workload) {
        return cpuFrom().sourceFor(serverName, workload);
    }

    @JsonProperty("server_cgroup")
    String recordedServerCgroup() {
        return serverCgroup == null ? null : serverCgroup.toString();
    }

    /** The endpoints {@code used} send requests to: the target for plain entries, the TLS target for tls ones. */
    public List<Endpoint> endpoints(List<Mix> used) {
        List<Endpoint> endpoints = new ArrayList<>();
        if (used.stream().anyMatch(Mix::hasPlain)) {
            endpoints.add(target);
        }
        if (tlsTarget != null && tlsTarget != target && used.stream().anyMatch(Mix::hasTls)) {
            endpoints.add(tlsTarget);
        }
        return endpoints;
    }

    public int maxClients() {
        return clients.stream().mapToInt(Integer::intValue).max().orElse(1);
    }

    /**
     * The settings as results.json records them: Jackson maps every component not marked {@code @JsonIgnore} by its
     * name, with what is derived from the others (the protocol, the workloads' names), the machine's facts, the
     * pinning, the ladder's order and the steady-state rule; {@link Settings} keeps what it has a component for.
     */
    public Settings recorded(Settings.Machine machine, String pinning, String order, String steadyStateRule) {
        Map<String, Object> values = new LinkedHashMap<>();
        values.putAll(ResultsJson.MAPPER.convertValue(this, MAP));
        values.putAll(ResultsJson.MAPPER.convertValue(machine, MAP));
        values.put("pinning", pinning);
        values.put("order", order);
        values.put("steady_state_rule", steadyStateRule);
        return ResultsJson.MAPPER.convertValue(values, Settings.class);
    }

    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {
    };

    @JsonProperty
    List<String> workloads() {
        return mixes.stream().map(Mix::name).toList();
    }

    @JsonProperty
    List<String> workloadSources() {
        return mixes.stream().map(Mix::source).toList();
    }

    /** The weighted mean body size of each workload whose entries differ in size. */
    @JsonProperty
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    Map<String, Double> mixMeanBytes() {
        Map<String, Double> means = new LinkedHashMap<>();
        for (Mix mix : mixes) {
            if (mix.entries().stream().mapToLong(e -> e.bytes() >= 0 ? e.bytes() : bytes).distinct().count() > 1) {
                means.put(mix.name(), mix.weightedMeanBytes(bytes));
            }
        }
        return means;
    }

    @JsonProperty
    String protocol() {
        return keepAlive ? "HTTP/1.1 keep-alive" : "HTTP/1.0, one connection per request";
    }

    @JsonProperty
    String latencyEnd() {
        return keepAlive ? "last body byte" : "the server's close of the connection (HTTP/1.0)";
    }

    @JsonProperty
    String windowRule() {
        return "requests that start in the window, completed even if in the ramp-down";
    }

    @JsonProperty
    double fairnessMin() {
        return SpiceFigures.FAIR;
    }

    @JsonProperty("tls_target")
    String recordedTlsTarget() {
        return tlsTarget == null ? null : tlsTarget.toString();
    }

    @JsonProperty
    List<String> jmeterEngines() {
        return jmeter == null ? null : jmeter.remotes().isEmpty() ? List.of("local") : jmeter.remotes();
    }

    @JsonProperty
    Boolean jmeterRmiTls() {
        return jmeter == null || jmeter.remotes().isEmpty() ? null : jmeter.rmiKeystore() != null;
    }

}
