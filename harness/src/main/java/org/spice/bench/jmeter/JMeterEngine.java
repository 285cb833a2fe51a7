package org.spice.bench.jmeter;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import org.spice.bench.mix.Mix;
import org.spice.bench.model.BenchSettings;
import org.spice.bench.model.Cpu;
import org.spice.bench.model.Failure;
import org.spice.bench.model.LoadEngine;
import org.spice.bench.model.RunRecord;
import org.spice.bench.model.Runner;
import org.spice.bench.model.Stop;
import org.spice.bench.proc.CpuMeter;
import org.spice.bench.proc.ServerCpu;
import org.spice.bench.samples.ImportException;
import org.spice.bench.samples.Jtl;
import org.spice.bench.samples.OpenSamples;
import org.spice.bench.samples.Sample;
import org.spice.bench.samples.SampleRun;

/**
 * The ladder's mixes through Apache JMeter in non-GUI mode: here, or split across JMeter server engines on
 * other machines (JMeter's distributed mode, one JMeter client per engine so each gets its own share of
 * the clients). The JTLs come back and are read by the same window rule as SPICE's engine: the requests
 * that start in the window count, the window starting a ramp-up after the first request.
 */
public final class JMeterEngine implements LoadEngine {

    private static final long GRACE_SECONDS = 120;

    private final BenchSettings settings;
    private final Runner.JMeter jmeter;
    private final Path work;
    private final Stop stop;
    private final PrintStream err;
    private final List<String> notes = new ArrayList<>();
    private final ServerCpu serverCpu;

    public JMeterEngine(BenchSettings settings, Path work, Stop stop, PrintStream err, ServerCpu serverCpu) {
        this.settings = settings;
        this.jmeter = settings.runner().jmeter();
        this.work = work;
        this.stop = stop;
        this.err = err;
        this.serverCpu = serverCpu;
    }

    @Override
    public List<String> notes() {
        return notes;
    }

    @Override
    public void warmUp(Mix mix, int clients, double seconds) throws InterruptedException {
        execute(mix, clients, 0, seconds);
    }

    @Override
    public RunRecord run(Mix mix, int clients, int repeat) throws InterruptedException {
        double seconds = settings.timing().rampUpS() + settings.timing().durationS() + settings.timing().rampDownS();
        return execute(mix, clients, repeat, seconds).toBuilder().rampUpS(settings.timing().rampUpS()).build();
    }

    /**
     * {@code mix} open loop at {@code rate} requests a second for the duration, through JMeter's open model (a thread
     * per arrival, arrivals evenly spaced: no bound on those under way), each engine at its share of the rate; the
     * schedule rebuilt from the samples ({@link OpenSamples}), since JMeter records when a request started, not when it
     * was due. JMeter runs the run's duration alone (as it runs the ladder's timing alone), and keeps no latencies to
     * pool.
     *
     * @throws IllegalArgumentException for another duration than the run's
     */
    @Override
    public Open open(Mix mix, double rate, int maxInFlight, double seconds) throws InterruptedException {
        if (seconds != settings.timing().durationS()) {
            throw new IllegalArgumentException("JMeter runs the open loop for the run's duration ("
                    + settings.timing().durationS() + " s) alone, not " + seconds + " s");
        }
        String name = String.format(Locale.ROOT, "%s-open-%.0f", mix.name(), rate);
        int engines = jmeter.remotes().isEmpty() ? 1 : jmeter.remotes().size();
        ServerCpu.Reading before = serverCpu.read();
        List<Share> shares = new ArrayList<>();
        try {
            Files.createDirectories(work);
            if (!jmeter.remotes().isEmpty()) {
                writeRmiProperties(work.resolve("rmi.properties"), jmeter.rmiKeystore(), jmeter.rmiPassword());
            }
            Path plan = work.resolve(name + ".jmx");
            Files.writeString(plan, TestPlan.openJmx(settings.target().http(), mix, rate / engines, settings.timing().durationS(),
                    settings.target().timeoutMillis()), StandardCharsets.UTF_8);
            shares = spawn(name, plan, engines);
        } catch (IOException e) {
            shares.forEach(s -> s.process.destroyForcibly());
            return new Open(null, Double.NaN, null, Failure.of(Failure.Kind.ENGINE_FAILED, "cannot start JMeter: "
                    + e.getMessage()));
        }
        Failure stopped = await(shares, settings.timing().durationS() + settings.target().timeoutMillis() / 1000.0);
        if (stopped != null) {
            return new Open(null, Double.NaN, null, stopped);
        }
        double serverS = serverCpu.read().serverS() - before.serverS();
        List<Sample> samples = new ArrayList<>();
        String unread = read(shares, samples);
        if (unread != null || samples.isEmpty()) {
            return new Open(null, serverS, null, Failure.of(Failure.Kind.ENGINE_FAILED, unread != null ? unread
                    : "JMeter recorded no sample: see " + shares.get(0).log));
        }
        notes.add("jmeter open model, " + mix.name() + " at " + rate + " req/s: " + String.join("; ", shares.stream()
                .map(s -> s.name() + " " + samples.stream().filter(x -> x.client().startsWith(s.name() + "/")).count()
                        + " samples").toList()) + "; each latency from its due time on the schedule rebuilt from the"
                + " samples (JMeter's times are whole milliseconds)");
        return new Open(OpenSamples.of(mix.name(), rate, settings.timing().durationS(), samples, engines,
                settings.target().timeoutMillis(), serverS), serverS, null, null);
    }

    /** One engine's share of a mix: who runs it (null: JMeter here), how many clients, where its results go. */
    private static final class Share {
        final String engine;
        final int clients;
        final Path jtl;
        final Path log;
        final Process process;
        /** The most CPU seen of the JMeter client process, read while it runs (an ended process has no /proc entry). */
        double cpuS;

        Share(String engine, int clients, Path jtl, Path log, Process process) {
            this.engine = engine;
            this.clients = clients;
            this.jtl = jtl;
            this.log = log;
            this.process = process;
        }

        String name() {
            return engine == null ? "local" : engine;
        }
    }

    private RunRecord execute(Mix mix, int clients, int repeat, double seconds) throws InterruptedException {
        String name = String.format(Locale.ROOT, "%s-%d-%d", mix.name(), clients, repeat);
        ServerCpu.Reading before = serverCpu.read();
        List<Share> shares = new ArrayList<>();
        try {
            Path plan = writePlan(name, mix, seconds);
            shares = spawn(name, plan, clients);
        } catch (IOException e) {
            shares.forEach(s -> s.process.destroyForcibly());
            return failed(mix, clients, repeat, Failure.of(Failure.Kind.ENGINE_FAILED, "cannot start JMeter: " + e.getMessage()));
        }
        Failure stopped = await(shares, seconds);
        if (stopped != null) {
            return failed(mix, clients, repeat, stopped);
        }
        // The server's machine: this one (when the server runs here) or its exporters'; never this one for a server elsewhere.
        ServerCpu.Reading after = serverCpu.read();
        double serverS = after.serverS() - before.serverS();
        double machineS = after.machineS() - before.machineS();
        if (repeat == 0) {
            return null;
        }
        List<Sample> samples = new ArrayList<>();
        String unread = read(shares, samples);
        if (unread != null) {
            return failed(mix, clients, repeat, Failure.of(Failure.Kind.ENGINE_FAILED, unread));
        }
        notes.add("jmeter, " + mix.name() + " at " + clients + " clients: " + String.join("; ", shares.stream()
                .map(s -> s.name() + " " + s.clients + (s.clients == 1 ? " client, " : " clients, ")
                        + samples.stream().filter(x -> x.client().startsWith(s.name() + "/")).count() + " samples")
                .toList()));
        if (samples.isEmpty()) {
            return failed(mix, clients, repeat, Failure.of(Failure.Kind.ENGINE_FAILED, "JMeter recorded no sample: see " + shares.get(0).log));
        }
        return window(mix, clients, repeat, samples, shares, serverS, machineS);
    }

    /** The test plan of one mix, written where the results go. */
    private Path writePlan(String name, Mix mix, double seconds) throws IOException {
        Files.createDirectories(work);
        if (!jmeter.remotes().isEmpty()) {
            writeRmiProperties(work.resolve("rmi.properties"), jmeter.rmiKeystore(), jmeter.rmiPassword());
        }
        Path plan = work.resolve(name + ".jmx");
        Files.writeString(plan, TestPlan.jmx(settings.target().http(), mix, seconds, settings.target().timeoutMillis()), StandardCharsets.UTF_8);
        return plan;
    }

    /** One JMeter client per engine (or one here), each with its share of the clients. */
    private List<Share> spawn(String name, Path plan, int clients) throws IOException {
        List<Share> shares = new ArrayList<>();
        List<String> engines = jmeter.remotes().isEmpty() ? java.util.Collections.singletonList(null) : jmeter.remotes();
        try {
            for (int i = 0; i < engines.size(); i++) {
                int share = clients / engines.size() + (i < clients % engines.size() ? 1 : 0);
                if (share == 0) {
                    continue;
                }
                String suffix = engines.size() == 1 ? "" : "-e" + (i + 1);
                Path jtl = work.resolve(name + suffix + ".jtl");
                Path log = work.resolve(name + suffix + ".log");
                Files.deleteIfExists(jtl);
                Process process = new ProcessBuilder(command(plan, jtl, log, engines.get(i), share))
                        .redirectErrorStream(true).redirectOutput(work.resolve(name + suffix + ".out").toFile()).start();
                shares.add(new Share(engines.get(i), share, jtl, log, process));
            }
            return shares;
        } catch (IOException e) {
            shares.forEach(s -> s.process.destroyForcibly());
            throw e;
        }
    }

    /** Waits for every JMeter client, reading its CPU as it runs; null, or why the mix was stopped. */
    private Failure await(List<Share> shares, double seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos((long) seconds + GRACE_SECONDS);
        for (Share share : shares) {
            while (share.process.isAlive()) {
                share.cpuS = Math.max(share.cpuS, CpuMeter.treeCpuSeconds(share.process.pid()));
                if (stop.requested() || System.nanoTime() > deadline) {
                    shares.forEach(s -> s.process.descendants().forEach(ProcessHandle::destroy));
                    shares.forEach(s -> s.process.destroy());
                    return stop.requested() ? stop.failure() : Failure.of(Failure.Kind.ENGINE_FAILED,
                            "JMeter did not finish within " + GRACE_SECONDS + " s after the mix");
                }
                share.process.waitFor(100, TimeUnit.MILLISECONDS);
            }
        }
        return null;
    }

    /** Every engine's samples, each client named by its engine; null, or why they cannot be read. */
    private static String read(List<Share> shares, List<Sample> samples) {
        for (Share share : shares) {
            if (share.process.exitValue() != 0 || !Files.exists(share.jtl)) {
                return "JMeter" + (share.engine == null ? "" : " with engine " + share.engine) + " ended with status "
                        + share.process.exitValue() + ": see " + share.log;
            }
            try {
                for (Sample s : Jtl.samples(share.jtl)) {
                    samples.add(new Sample(s.startMs(), s.latencyMs(), s.status(), s.bytes(), share.name() + "/" + s.client(),
                            s.error()));
                }
            } catch (ImportException e) {
                return "cannot read JMeter's results: " + e.getMessage();
            }
        }
        return null;
    }

    /**
     * The mix by SPICE's window rule: the window starts a ramp-up after the first request of the engine that started
     * last (engines on other machines start a second or more apart; counted from the first engine's first request,
     * the late one's clients would be missing from the window's start). JMeter's CPU is over its whole run, so the
     * window's CPU is taken in the proportion of the window's requests to all of them.
     */
    private RunRecord window(Mix mix, int clients, int repeat, List<Sample> samples, List<Share> shares, double serverS,
            double machineS) {
        double first = lastEnginesFirstSample(samples);
        double windowStart = first + settings.timing().rampUpS() * 1000;
        double windowEnd = windowStart + settings.timing().durationS() * 1000;
        long inWindow = samples.stream().filter(s -> s.startMs() >= windowStart && s.startMs() < windowEnd).count();
        boolean local = jmeter.remotes().isEmpty();
        double clientS = shares.stream().mapToDouble(s -> s.cpuS).sum();
        boolean clientOnServersMachine = local && serverCpu.machineHasClient();
        Cpu cpu = new Cpu(local ? clientS : Double.NaN, serverS, machineS - (clientOnServersMachine ? clientS : 0))
                .scaled(inWindow / (double) samples.size());
        return SampleRun.build(mix.name(), clients, repeat, samples, windowStart, windowEnd, settings.load().bytes(),
                SampleRun.Bytes.HEAD_AND_BODY, cpu);
    }

    /** The start of the first sample of each engine (a sample's client is "ENGINE/THREAD"), the latest of them. */
    static double lastEnginesFirstSample(List<Sample> samples) {
        java.util.Map<String, Double> firsts = new java.util.HashMap<>();
        for (Sample sample : samples) {
            String engine = sample.client().contains("/") ? sample.client().substring(0, sample.client().indexOf('/')) : "";
            firsts.merge(engine, sample.startMs(), Math::min);
        }
        return firsts.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
    }

    private List<String> command(Path plan, Path jtl, Path log, String engine, int threads) {
        List<String> command = new ArrayList<>(List.of(java()));
        String callback = engine == null ? null : callbackAddress(engine);
        if (callback != null) {
            command.add("-Djava.rmi.server.hostname=" + callback);   // where the engine sends its samples back
        }
        command.addAll(List.of("-jar", jmeter.home().resolve("bin/ApacheJMeter.jar").toString(),
                "-n", "-t", plan.toString(), "-l", jtl.toString(), "-j", log.toString()));
        // What a JTL row holds, in the format JtlImport reads; the time stamp is when the request started.
        for (String property : List.of("jmeter.save.saveservice.output_format=csv",
                "jmeter.save.saveservice.timestamp_format=ms", "jmeter.save.saveservice.print_field_names=true",
                "sampleresult.timestamp.start=true", "httpclient4.retrycount=0", "spice.threads=" + threads)) {
            command.add("-J" + property);
            if (engine != null) {
                command.add("-G" + property);   // the engine makes the samples: it needs them too
            }
        }
        // JMeter's open model leaves a pooled thread that holds the JVM 60 s after the end of the run (its thread
        // starter's cached pool keeps an idle worker that long): exit once the results are written.
        command.add("-Jjmeterengine.force.system.exit=true");
        if (engine != null) {
            command.add("-R" + engine);
            command.add("-q" + work.resolve("rmi.properties"));
        }
        return command;
    }

    /**
     * JMeter's RMI settings, for both ends (bench's JMeter clients and scripts/spice jmeter-server), as a
     * properties file only its owner reads (a password on a command line is anyone's to see): TLS with the
     * keystore both sides share, or, when {@code keystore} is null (an explicit choice for loopback), none.
     */
    public static void writeRmiProperties(Path file, Path keystore, String password) throws IOException {
        Files.deleteIfExists(file);
        Files.createFile(file, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
        Files.writeString(file, rmiProperties(keystore, password), StandardCharsets.UTF_8);
    }

    static String rmiProperties(Path keystore, String password) {
        if (keystore == null) {
            return "server.rmi.ssl.disable=true\n";
        }
        String path = keystore.toAbsolutePath().toString().replace("\\", "/");
        return "server.rmi.ssl.keystore.file=" + path + "\nserver.rmi.ssl.keystore.type=pkcs12"
                + "\nserver.rmi.ssl.keystore.password=" + password + "\nserver.rmi.ssl.keystore.alias=rmi"
                + "\nserver.rmi.ssl.truststore.file=" + path + "\nserver.rmi.ssl.truststore.type=pkcs12"
                + "\nserver.rmi.ssl.truststore.password=" + password + "\n";
    }

    /**
     * The address an engine reaches this machine at: the one this machine sends from towards it (a machine with
     * several interfaces would otherwise advertise its default one, which the engine may have no route to); null
     * when it cannot be told, and JMeter picks.
     */
    static String callbackAddress(String engine) {
        if (loopback(engine)) {
            return "127.0.0.1";
        }
        String host = engine.substring(0, engine.lastIndexOf(':'));
        try (java.net.DatagramSocket route = new java.net.DatagramSocket()) {
            route.connect(java.net.InetAddress.getByName(host), 1099);   // sends nothing: the kernel picks the route
            java.net.InetAddress local = route.getLocalAddress();
            return local == null || local.isAnyLocalAddress() ? null : local.getHostAddress();
        } catch (java.io.IOException | RuntimeException e) {
            return null;
        }
    }

    private static boolean loopback(String engine) {
        String host = engine.substring(0, engine.lastIndexOf(':'));
        return host.startsWith("127.") || host.equals("localhost");
    }

    private static String java() {
        return ProcessHandle.current().info().command().orElse("java");
    }

    private RunRecord failed(Mix mix, int clients, int repeat, Failure why) {
        err.println("jmeter: " + why.reason());
        RunRecord empty = SampleRun.build(mix.name(), clients, repeat, List.of(), 0, settings.timing().durationS() * 1000,
                settings.load().bytes(), SampleRun.Bytes.HEAD_AND_BODY, Cpu.NONE);
        return empty.withFailure(why);
    }
}
