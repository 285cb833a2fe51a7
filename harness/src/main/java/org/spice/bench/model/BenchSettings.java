package org.spice.bench.model;

import org.spice.bench.plan.BenchCommand;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.spice.bench.mix.Mix;
import org.spice.bench.net.Endpoint;
import org.spice.bench.figures.SpiceFigures;
import org.spice.page.CanonicalPage;

/**
 * What one bench run does, fixed before it starts: built from the command line by {@link BenchCommand}
 * (which checks every value) or directly by tests through {@link #builder}.
 *
 * @param baseline what the efficiencies divide by
 * @param serverPids the server's processes (e.g. httpd and the Tomcat behind it): their trees' CPU is the server's
 * @param warmUpS seconds of unmeasured load before the ladder, so the client is warm when timing starts
 */
public record BenchSettings(Endpoint target, Endpoint tlsTarget, List<Mix> mixes, List<Integer> clients,
        Profile profile, double rampUpS, double durationS, double rampDownS, double pauseS, boolean keepAlive,
        int repeat, int timeoutMillis, double latencyBoundMs, double warmUpS, Baseline baseline,
        List<Long> serverPids, String serverName, boolean pin, long seed, Path outDir, Path trustCert,
        boolean tlsResume, long bytes, Engine engine, JMeter jmeter) {

    /** The timing of a ladder's mixes. */
    public enum Profile {
        /** Enough to see a curve in a couple of minutes: the default ladder of 6 probes x 7 client counts within 5 minutes. */
        QUICK(1, 3, 0.5, 0.5),
        /** The timing of the 1999 and 2000 reports. */
        WEBBENCH(30, 240, 30, 30);

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

    public BenchSettings {
        mixes = List.copyOf(mixes);
        clients = List.copyOf(clients);
        serverPids = List.copyOf(serverPids);
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

    /** The settings as recorded in results.json. */
    public Map<String, Object> recorded() {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("profile", profile.toString());
        s.put("clients", clients);
        s.put("workloads", mixes.stream().map(Mix::name).toList());
        s.put("workload_sources", mixes.stream().map(Mix::source).toList());
        s.put("ramp_up_s", rampUpS);
        s.put("duration_s", durationS);
        s.put("ramp_down_s", rampDownS);
        s.put("pause_s", pauseS);
        s.put("protocol", keepAlive ? "HTTP/1.1 keep-alive" : "HTTP/1.0, one connection per request");
        s.put("repeat", repeat);
        s.put("timeout_ms", timeoutMillis);
        s.put("latency_bound_ms", latencyBoundMs);
        s.put("baseline", baseline == Baseline.AUTO ? null : baseline.toString());
        s.put("warm_up_s", warmUpS);
        Map<String, Object> means = new LinkedHashMap<>();
        for (Mix mix : mixes) {
            if (mix.entries().stream().mapToLong(e -> e.bytes() >= 0 ? e.bytes() : bytes).distinct().count() > 1) {
                means.put(mix.name(), mix.weightedMeanBytes(bytes));
            }
        }
        if (!means.isEmpty()) {
            s.put("mix_mean_bytes", means);
        }
        s.put("fairness_min", SpiceFigures.FAIR);
        s.put("seed", seed);
        s.put("tls_target", tlsTarget == null ? null : tlsTarget.toString());
        s.put("tls_session_resumption", tlsResume);
        s.put("server_pid", serverPids.isEmpty() ? null : serverPids);
        s.put("window_rule", "requests that start in the window, completed even if in the ramp-down");
        s.put("engine", engine.toString());
        if (jmeter != null) {
            s.put("jmeter_engines", jmeter.remotes().isEmpty() ? List.of("local") : jmeter.remotes());
            s.put("jmeter_rmi_tls", jmeter.remotes().isEmpty() ? null : jmeter.rmiKeystore() != null);
        }
        s.put("latency_end", keepAlive ? "last body byte" : "the server's close of the connection (HTTP/1.0)");
        return s;
    }

    public static Builder builder(Endpoint target) {
        return new Builder(target);
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
        private double warmUpS = 2;
        private Baseline baseline = Baseline.AUTO;
        private List<Long> serverPids = List.of();
        private String serverName;
        private boolean pin;
        private long seed = 1;
        private Path outDir = Path.of("results");
        private Path trustCert;
        private boolean tlsResume;
        private long bytes = CanonicalPage.builtBytes();
        private Engine engine = Engine.EVENT_LOOP;
        private JMeter jmeter;

        private Builder(Endpoint target) {
            this.target = target;
            this.tlsTarget = target.tls() ? target : null;
        }

        public Builder tlsTarget(Endpoint value) { tlsTarget = value; return this; }
        public Builder mix(Mix value) { mixes.add(value); return this; }
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
        public Builder serverName(String value) { serverName = value; return this; }
        public Builder pin(boolean value) { pin = value; return this; }
        public Builder seed(long value) { seed = value; return this; }
        public Builder outDir(Path value) { outDir = value; return this; }
        public Builder trustCert(Path value) { trustCert = value; return this; }
        public Builder tlsResume(boolean value) { tlsResume = value; return this; }
        public Builder bytes(long value) { bytes = value; return this; }
        public Builder engine(Engine value) { engine = value; return this; }
        public Builder jmeter(JMeter value) { jmeter = value; return this; }

        public BenchSettings build() {
            return new BenchSettings(target, tlsTarget, mixes, clients, profile,
                    rampUpS != null ? rampUpS : profile.rampUpS, durationS != null ? durationS : profile.durationS,
                    rampDownS != null ? rampDownS : profile.rampDownS, pauseS != null ? pauseS : profile.pauseS,
                    keepAlive, repeat, timeoutMillis, latencyBoundMs, warmUpS, baseline, serverPids, serverName, pin,
                    seed, outDir, trustCert, tlsResume, bytes, engine, jmeter);
        }
    }
}
