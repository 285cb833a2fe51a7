package org.spice.bench.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.spice.bench.mix.Mix;
import org.spice.bench.mix.MixFile;
import org.spice.bench.net.Endpoint;
import org.spice.harness.UsageException;
import org.spice.page.CanonicalPage;
import org.spice.page.Probe;

/**
 * The options of {@code spice bench}, parsed and checked before anything is sent. Every bad value
 * raises a UsageException whose message starts with the option's name.
 */
public final class BenchOptions {

    /** Quick: enough to see a curve in a couple of minutes. WebBench: the timing of the 1999 and 2000 reports. */
    private static final Map<String, double[]> PROFILES = Map.of(
            // quick: the whole default ladder, 6 probes x 7 client counts, within 5 minutes
            "quick", new double[] {1, 3, 0.5, 0.5},
            "webbench", new double[] {30, 240, 30, 30});

    public Endpoint target;
    public Endpoint tlsTarget;
    public List<Mix> mixes = new ArrayList<>();
    public int[] clients = {1, 2, 4, 8, 16, 32, 64};
    public String profile = "quick";
    public double rampUpS;
    public double durationS;
    public double rampDownS;
    public double pauseS;
    public boolean keepAlive;
    public int repeat = 1;
    public int timeoutMillis = 10_000;
    public double latencyBoundMs = 100;
    /** Seconds of unmeasured load before the ladder (the first mix), so the client is warm when timing starts. */
    public double warmUpS = 2;
    /** What the efficiencies divide by: "fileset" or "file" (the single static file); null = the fileset if it runs. */
    public String baseline;
    /** The server's processes (e.g. httpd and the Tomcat behind it): their trees' CPU is the server's. */
    public List<Long> serverPids = List.of();
    public String serverName;
    public boolean pin;
    public long seed = 1;
    public Path outDir = Path.of("results");
    public Path trustCert;
    public boolean tlsResume;
    public long bytes = CanonicalPage.builtBytes();
    /** "auto" (the event loop for plain-HTTP mixes, threads for mixes with TLS) or "threads" (always). */
    public String engine = "auto";

    public static BenchOptions parse(String[] args) {
        BenchOptions o = new BenchOptions();
        String target = null;
        String tlsTarget = null;
        List<Probe> probes = null;
        List<Path> mixFiles = new ArrayList<>();
        Double rampUp = null;
        Double duration = null;
        Double rampDown = null;
        Double pause = null;
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            switch (option) {
                case "--target" -> target = value(args, ++i, option);
                case "--tls-target" -> tlsTarget = value(args, ++i, option);
                case "--probes" -> probes = probes(value(args, ++i, option));
                case "--mix" -> mixFiles.add(Path.of(value(args, ++i, option)));
                case "--clients" -> o.clients = clientList(value(args, ++i, option));
                case "--duration" -> duration = seconds(value(args, ++i, option), option, false);
                case "--ramp-up" -> rampUp = seconds(value(args, ++i, option), option, true);
                case "--ramp-down" -> rampDown = seconds(value(args, ++i, option), option, true);
                case "--pause" -> pause = seconds(value(args, ++i, option), option, true);
                case "--profile" -> o.profile = profile(value(args, ++i, option));
                case "--keepalive" -> o.keepAlive = true;
                case "--repeat" -> o.repeat = (int) whole(value(args, ++i, option), option, 1, 1000);
                case "--timeout" -> o.timeoutMillis = (int) whole(value(args, ++i, option), option, 1, 3_600_000);
                case "--latency-bound" -> o.latencyBoundMs = seconds(value(args, ++i, option), option, false);
                case "--baseline" -> o.baseline = baseline(value(args, ++i, option));
                case "--warm-up" -> o.warmUpS = seconds(value(args, ++i, option), option, true);
                case "--server-pid" -> o.serverPids = pids(value(args, ++i, option), option);
                case "--server" -> o.serverName = value(args, ++i, option);
                case "--pin" -> o.pin = true;
                case "--seed" -> o.seed = whole(value(args, ++i, option), option, Long.MIN_VALUE, Long.MAX_VALUE);
                case "--out" -> o.outDir = Path.of(value(args, ++i, option));
                case "--trust-cert" -> o.trustCert = readable(value(args, ++i, option), option);
                case "--tls-resume" -> o.tlsResume = true;
                case "--engine" -> o.engine = engine(value(args, ++i, option));
                case "--bytes" -> o.bytes = whole(value(args, ++i, option), option, 0, Integer.MAX_VALUE);
                default -> throw new UsageException("unknown option \"" + option + "\"; see scripts/spice help");
            }
        }
        if (target == null) {
            throw new UsageException("--target: give the server's base URL, e.g. --target http://127.0.0.1:18080");
        }
        o.target = endpoint(target, "--target");
        o.tlsTarget = tlsTarget != null ? endpoint(tlsTarget, "--tls-target") : o.target.tls() ? o.target : null;
        if (o.tlsTarget != null && !o.tlsTarget.tls()) {
            throw new UsageException("--tls-target: must be an https:// URL, not " + tlsTarget);
        }
        if (probes == null && mixFiles.isEmpty()) {
            probes = Probe.standard();
        }
        for (Probe probe : probes == null ? List.<Probe>of() : probes) {
            o.mixes.add(Mix.of(probe));
        }
        for (Path file : mixFiles) {
            o.mixes.add(mixFile(file));
        }
        for (Mix mix : o.mixes) {
            if (mix.hasTls() && o.tlsTarget == null) {
                throw new UsageException("--tls-target: mix \"" + mix.name() + "\" has tls entries; give the TLS base URL,"
                        + " e.g. --tls-target https://127.0.0.1:18443");
            }
        }
        if (o.mixes.stream().map(Mix::name).distinct().count() < o.mixes.size()) {
            throw new UsageException("--mix: two workloads are named the same; rename a mix file");
        }
        double[] timing = PROFILES.get(o.profile);
        o.rampUpS = rampUp != null ? rampUp : timing[0];
        o.durationS = duration != null ? duration : timing[1];
        o.rampDownS = rampDown != null ? rampDown : timing[2];
        o.pauseS = pause != null ? pause : timing[3];
        return o;
    }

    /** The settings as recorded in results.json. */
    public Map<String, Object> settings() {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("profile", profile);
        s.put("clients", Arrays.stream(clients).boxed().toList());
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
        s.put("baseline", baseline);
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
        s.put("fairness_min", org.spice.bench.stats.SpiceFigures.FAIR);
        s.put("seed", seed);
        s.put("tls_target", tlsTarget == null ? null : tlsTarget.toString());
        s.put("tls_session_resumption", tlsResume);
        s.put("server_pid", serverPids.isEmpty() ? null : serverPids);
        s.put("window_rule", "requests that start in the window, completed even if in the ramp-down");
        s.put("engine", engines());
        s.put("latency_end", keepAlive ? "last body byte" : "the server's close of the connection (HTTP/1.0)");
        return s;
    }

    /** The engine that ran: one name if every mix ran on the same one, else the engine of each mix. */
    private Object engines() {
        Map<String, Object> byMix = new LinkedHashMap<>();
        for (Mix mix : mixes) {
            byMix.put(mix.name(), MixRunner.engine(this, mix));
        }
        return byMix.values().stream().distinct().count() == 1 ? byMix.values().iterator().next() : byMix;
    }

    private static String engine(String value) {
        if (!value.equals("auto") && !value.equals("threads")) {
            throw new UsageException("--engine: auto or threads, not \"" + value + "\"");
        }
        return value;
    }

    static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new UsageException(option + " needs a value");
        }
        return args[i];
    }

    private static List<Probe> probes(String list) {
        try {
            return Probe.parseList(list);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--probes: " + e.getMessage());
        }
    }

    static int[] clientList(String list) {
        String[] parts = list.split(",");
        int[] counts = new int[parts.length];
        for (int i = 0; i < parts.length; i++) {
            try {
                counts[i] = Integer.parseInt(parts[i].trim());
            } catch (NumberFormatException e) {
                counts[i] = 0;
            }
            if (counts[i] <= 0 || counts[i] > 100_000) {
                throw new UsageException("--clients: \"" + parts[i].trim() + "\" is not a client count;"
                        + " give whole numbers above 0 separated by commas, e.g. 1,2,4,8");
            }
        }
        return counts;
    }

    private static double seconds(String text, String option, boolean zeroAllowed) {
        double value;
        try {
            value = Double.parseDouble(text);
        } catch (NumberFormatException e) {
            value = Double.NaN;
        }
        if (Double.isNaN(value) || Double.isInfinite(value) || value < 0 || value == 0 && !zeroAllowed) {
            throw new UsageException(option + " takes a number " + (zeroAllowed ? "of 0 or more" : "above 0")
                    + ", not \"" + text + "\"");
        }
        return value;
    }

    private static long whole(String text, String option, long min, long max) {
        try {
            long value = Long.parseLong(text.trim());
            if (value < min || value > max) {
                throw new NumberFormatException();
            }
            return value;
        } catch (NumberFormatException e) {
            throw new UsageException(option + " takes a whole number" + (min > Long.MIN_VALUE ? " from " + min : "")
                    + (max < Long.MAX_VALUE ? " to " + max : "") + ", not \"" + text + "\"");
        }
    }

    private static List<Long> pids(String text, String option) {
        List<Long> pids = new ArrayList<>();
        for (String pid : text.split(",")) {
            pids.add(whole(pid, option, 1, Long.MAX_VALUE));
        }
        return List.copyOf(pids);
    }

    private static String baseline(String name) {
        if (!name.equals("fileset") && !name.equals("file")) {
            throw new UsageException("--baseline: \"" + name + "\" is not a baseline; choose fileset or file");
        }
        return name;
    }

    private static String profile(String name) {
        if (!PROFILES.containsKey(name)) {
            throw new UsageException("--profile: \"" + name + "\" is not a profile; choose quick or webbench");
        }
        return name;
    }

    private static Path readable(String file, String option) {
        Path path = Path.of(file);
        if (!Files.isReadable(path)) {
            throw new UsageException(option + ": cannot read " + file);
        }
        return path;
    }

    private static Endpoint endpoint(String url, String option) {
        try {
            return Endpoint.parse(url);
        } catch (IllegalArgumentException e) {
            throw new UsageException(option + ": " + e.getMessage());
        }
    }

    private static Mix mixFile(Path file) {
        if (!Files.isReadable(file)) {
            throw new UsageException("--mix: cannot read " + file);
        }
        try {
            return MixFile.read(file);
        } catch (IOException e) {
            throw new UsageException("--mix: cannot read " + file + ": " + e.getMessage());
        } catch (IllegalArgumentException e) {
            throw new UsageException("--mix: " + e.getMessage());
        }
    }
}
