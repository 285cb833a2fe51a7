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
import org.spice.bench.proc.ServerCpu;
import org.spice.bench.plan.BenchCommand;
import org.spice.page.CanonicalPage;

/**
 * What one bench run does, fixed before it starts: built from the command line by {@link BenchCommand}
 * (which checks every value) or directly by tests through {@link #builder}.
 *
 * @param baseline what the efficiencies divide by
 * @param serverPids the server's processes (e.g. httpd and the Tomcat behind it): their trees' CPU is the server's
 * @param serverMetrics the Prometheus exporters on the server's machine, where its CPU is read instead of /proc
 * @param warmUpS seconds of unmeasured load before the ladder, so the client is warm when timing starts
 * @param flood   what goes past the peak (profile overload), else null
 */
public record BenchSettings(Endpoint target, Endpoint tlsTarget, List<Mix> mixes, List<Integer> clients,
        Profile profile, double rampUpS, double durationS, double rampDownS, double pauseS, boolean keepAlive,
        int repeat, int timeoutMillis, double latencyBoundMs, double warmUpS, Baseline baseline,
        List<Long> serverPids, List<URI> serverMetrics, String serverName, boolean pin, long seed, Path outDir, Path trustCert,
        boolean tlsResume, long bytes, Engine engine, JMeter jmeter, Flood flood) {

    /** The timing of a ladder's mixes. */
    public enum Profile {
        /** Enough to see a curve in a couple of minutes: the default ladder of 6 probes x 7 client counts within 5 minutes. */
        QUICK(1, 3, 0.5, 0.5),
        /** The timing of the 1999 and 2000 reports. */
        WEBBENCH(30, 240, 30, 30),
        /** The quick ladder to find each workload's peak, then the flood past it ({@link Flood}). */
        OVERLOAD(1, 3, 0.5, 0.5);

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
    }

    /** The load engine. */
    public enum Engine {
        /** Closed-loop clients on event-loop threads, plain HTTP and TLS alike. */
        EVENT_LOOP,
        /** Apache JMeter in non-GUI mode, here or on JMeter server engines on other machines. */
        JMETER;

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

    public BenchSettings {
        mixes = List.copyOf(mixes);
        clients = List.copyOf(clients);
        serverPids = List.copyOf(serverPids);
        serverMetrics = List.copyOf(serverMetrics);
    }

    /** Where the server's CPU is read: its exporters if given, else /proc when it runs on this machine. */
    public ServerCpu serverCpu() {
        return new ServerCpu(serverPids, target.isLocal(), serverMetrics);
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

    /** The settings as recorded in results.json (the machine's facts are added by the run). */
    public Settings recorded() {
        Map<String, Double> means = new LinkedHashMap<>();
        for (Mix mix : mixes) {
            if (mix.entries().stream().mapToLong(e -> e.bytes() >= 0 ? e.bytes() : bytes).distinct().count() > 1) {
                means.put(mix.name(), mix.weightedMeanBytes(bytes));
            }
        }
        boolean remote = jmeter != null && !jmeter.remotes().isEmpty();
        return Settings.builder().profile(profile.toString()).clients(clients)
                .workloads(mixes.stream().map(Mix::name).toList(), mixes.stream().map(Mix::source).toList())
                .timing(rampUpS, durationS, rampDownS, pauseS)
                .protocol(keepAlive ? "HTTP/1.1 keep-alive" : "HTTP/1.0, one connection per request")
                .repeat(repeat).timeoutMs(timeoutMillis).latencyBoundMs(latencyBoundMs)
                .baseline(baseline == Baseline.AUTO ? null : baseline.toString()).warmUpS(warmUpS)
                .mixMeanBytes(means.isEmpty() ? null : means).fairnessMin(SpiceFigures.FAIR).seed(seed)
                .tls(tlsTarget == null ? null : tlsTarget.toString(), tlsResume)
                .serverPid(serverPids.isEmpty() ? null : serverPids)
                .serverMetrics(serverMetrics.isEmpty() ? null : serverMetrics.stream().map(URI::toString).toList())
                .windowRule("requests that start in the window, completed even if in the ramp-down")
                .engine(engine.toString())
                .jmeter(jmeter == null ? null : remote ? jmeter.remotes() : List.of("local"),
                        remote ? jmeter.rmiKeystore() != null : null)
                .latencyEnd(keepAlive ? "last body byte" : "the server's close of the connection (HTTP/1.0)").build();
    }

    public static Builder builder(Endpoint target) {
        return new Builder(target);
    }

    /** These settings against another target (its TLS listener reset to the target's own, if https). */
    public Builder toBuilder(Endpoint newTarget) {
        Builder b = new Builder(newTarget).mixes(mixes).clients(clients).profile(profile).rampUp(rampUpS)
                .duration(durationS).rampDown(rampDownS).pause(pauseS).keepAlive(keepAlive).repeat(repeat)
                .timeoutMillis(timeoutMillis).latencyBoundMs(latencyBoundMs).warmUp(warmUpS).baseline(baseline)
                .serverPids(serverPids).serverMetrics(serverMetrics).serverName(serverName).pin(pin).seed(seed).outDir(outDir).trustCert(trustCert)
                .tlsResume(tlsResume).bytes(bytes).engine(engine).jmeter(jmeter).flood(flood);
        return newTarget.equals(target) ? b.tlsTarget(tlsTarget) : b;
    }

    /** Settings with the defaults of the command line; tests change what they need. */
    public static final class Builder {
        private final Endpoint target;
        private Endpoint tlsTarget;
        private final List<Mix> mixes = new ArrayList<>();
        private List<Integer> clients = List.of(1, 2, 4, 8, 16, 32, 64);
        private Profile profile = Profile.QUICK;
        private Double rampUpS;
        private Double durationS;
        private Double rampDownS;
        private Double pauseS;
        private boolean keepAlive;
        private int repeat = 1;
        private int timeoutMillis = 10_000;
        private double latencyBoundMs = 100;
        private double warmUpS = 30;
        private Baseline baseline = Baseline.AUTO;
        private List<Long> serverPids = List.of();
        private List<URI> serverMetrics = List.of();
        private String serverName;
        private boolean pin;
        private long seed = 1;
        private Path outDir = Path.of("results");
        private Path trustCert;
        private boolean tlsResume;
        private long bytes = CanonicalPage.builtBytes();
        private Engine engine = Engine.EVENT_LOOP;
        private JMeter jmeter;
        private Flood flood;

        private Builder(Endpoint target) {
            this.target = target;
            this.tlsTarget = target.tls() ? target : null;
        }

        public Builder tlsTarget(Endpoint value) { tlsTarget = value; return this; }
        public Builder mix(Mix value) { mixes.add(value); return this; }
        public Builder mixes(List<Mix> value) { mixes.clear(); mixes.addAll(value); return this; }
        public Builder clients(List<Integer> value) { clients = value; return this; }
        public Builder profile(Profile value) { profile = value; return this; }
        public Builder rampUp(double seconds) { rampUpS = seconds; return this; }
        public Builder duration(double seconds) { durationS = seconds; return this; }
        public Builder rampDown(double seconds) { rampDownS = seconds; return this; }
        public Builder pause(double seconds) { pauseS = seconds; return this; }
        public Builder keepAlive(boolean value) { keepAlive = value; return this; }
        public Builder repeat(int value) { repeat = value; return this; }
        public Builder timeoutMillis(int value) { timeoutMillis = value; return this; }
        public Builder latencyBoundMs(double value) { latencyBoundMs = value; return this; }
        public Builder warmUp(double seconds) { warmUpS = seconds; return this; }
        public Builder baseline(Baseline value) { baseline = value; return this; }
        public Builder serverPids(List<Long> value) { serverPids = value; return this; }
        public Builder serverMetrics(List<URI> value) { serverMetrics = value; return this; }
        public Builder serverName(String value) { serverName = value; return this; }
        public Builder pin(boolean value) { pin = value; return this; }
        public Builder seed(long value) { seed = value; return this; }
        public Builder outDir(Path value) { outDir = value; return this; }
        public Builder trustCert(Path value) { trustCert = value; return this; }
        public Builder tlsResume(boolean value) { tlsResume = value; return this; }
        public Builder bytes(long value) { bytes = value; return this; }
        public Builder engine(Engine value) { engine = value; return this; }
        public Builder jmeter(JMeter value) { jmeter = value; return this; }
        public Builder flood(Flood value) { flood = value; return this; }

        public BenchSettings build() {
            return new BenchSettings(target, tlsTarget, mixes, clients, profile,
                    rampUpS != null ? rampUpS : profile.rampUpS, durationS != null ? durationS : profile.durationS,
                    rampDownS != null ? rampDownS : profile.rampDownS, pauseS != null ? pauseS : profile.pauseS,
                    keepAlive, repeat, timeoutMillis, latencyBoundMs, warmUpS, baseline, serverPids, serverMetrics, serverName, pin,
                    seed, outDir, trustCert, tlsResume, bytes, engine, jmeter, flood);
        }
    }
}
