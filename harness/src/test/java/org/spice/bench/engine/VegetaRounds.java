package org.spice.bench.engine;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

import org.spice.bench.analysis.CrossFigures;
import org.spice.bench.analysis.RoundFigures;
import org.spice.bench.figures.SpiceFigures;
import org.spice.bench.mix.Mix;
import org.spice.bench.mix.MixEntry;
import org.spice.bench.model.Across;
import org.spice.bench.model.Arrivals;
import org.spice.bench.model.BenchSettings;
import org.spice.bench.model.CpuRounds;
import org.spice.bench.model.CpuSlice;
import org.spice.bench.model.Runner;
import org.spice.bench.model.Stop;
import org.spice.bench.net.Endpoint;
import org.spice.bench.proc.Cgroup;
import org.spice.bench.proc.ServerCpu;
import org.spice.bench.run.PairedRounds;

/**
 * CPU rounds driven by vegeta beside SPICE's, for the cross-check that SPICE's figures at an offered rate are not its
 * client's: round after round, SPICE's open round ({@link EventLoopEngine#openRound}) and a vegeta round alternate
 * (which goes first alternating too), each a schedule at one rate through a slice of every arm in an order shuffled
 * per round (the even round the odd one reversed, as bench's rounds run), the servers' CPU read at the slices' edges;
 * each tool's rounds kept as {@link CpuRounds}, so that the same code ({@link RoundFigures}, {@link CrossFigures})
 * turns them into figures. A vegeta round is one process whose targets come in the slices' order; one that could not
 * keep its schedule is left out (a slice per vegeta process instead had cost Jetty 25-35 % more than the same load
 * held: the load stopped between slices).
 *
 * <p>From the command line, against servers already running (scripts/spice server start NAME), each arm
 * {@code server/probe=URL@CGROUP}:
 * <pre>java -cp CLASSPATH org.spice.bench.engine.VegetaRounds RATE ROUNDS tomcat/static=http://...@/sys/fs/cgroup/... ...</pre>
 * ({@code -Dspice.arrivals=poisson}: SPICE's rounds send at random, as bench's --arrivals poisson).
 */
public final class VegetaRounds {

    /** One arm: its server (null for one server's rounds), its probe, its URL, and where its server's CPU is read. */
    public record Arm(String server, String probe, String url, ServerCpu cpu) {
        double cpuSeconds() {
            return cpu.read().serverS();
        }
    }

    /** How SPICE's open rounds send (-Dspice.arrivals=poisson; even by default, as bench's). */
    private static final Arrivals ARRIVALS = Arrivals.valueOf(System.getProperty("spice.arrivals", "even")
            .toUpperCase(Locale.ROOT));

    private VegetaRounds() {
    }

    /**
     * SPICE's open rounds and vegeta's, alternating round by round over the same minutes (the one that goes first
     * alternating too): {@code rounds} rounds each, every arm a {@code sliceS} slice at {@code rate} in an order
     * shuffled from {@code seed}; each tool's rounds as {@link CpuRounds}, SPICE's first. SPICE's CPU per slice is
     * its engine's (read at the slices' edges of one schedule), vegeta's around each of its processes.
     */
    public static List<CpuRounds> run(Path vegeta, List<Arm> arms, double rate, double sliceS, int rounds, long seed)
            throws IOException, InterruptedException {
        List<String> servers = arms.stream().map(Arm::server).filter(s -> s != null).distinct().toList();
        CpuRounds spice = new CpuRounds(0, 0.05, 0, "in progress", List.of(), servers, List.of())
                .offered(rate, "SPICE's open rounds");
        CpuRounds theirs = spice.offered(rate, "vegeta");
        EventLoopEngine engine = engine(arms);
        List<Mix> mixes = arms.stream().map(VegetaRounds::mix).toList();
        for (int r = 1; r <= rounds; r++) {
            for (int turn = 0; turn < 2; turn++) {
                if ((turn + r) % 2 == 1) {
                    List<Mix> order = order(mixes, seed, r);
                    spice = spice.with(new CpuRounds.Round(r, engine.openRound(order, rate, LEAD_IN_S, true).slices()),
                            "in progress");
                } else {
                    List<CpuSlice> slices = vegetaRound(vegeta, order(arms, seed, r), rate, sliceS);
                    if (slices != null) {
                        theirs = theirs.with(new CpuRounds.Round(r, slices), "in progress");
                    }
                }
            }
        }
        // A round through which the server's JIT compiled is left out of SPICE's figures (its JIT is read where the
        // server's processes are known); vegeta's round of the same number, minutes apart by seconds, goes with it.
        List<Integer> compiling = spice.rounds().stream().filter(CpuRounds.Round::jitBusy).map(CpuRounds.Round::round)
                .toList();
        CpuRounds kept = new CpuRounds(0, 0.05, 0, rounds + " rounds", theirs.rounds().stream()
                .filter(round -> !compiling.contains(round.round())).toList(), servers, List.of())
                .offered(rate, "vegeta");
        return List.of(spice.stopped(rounds + " rounds"), kept);
    }

    /** Every arm under SPICE's closed loop at 8 clients for {@code seconds}, unmeasured: the server's JIT warm. */
    public static void warmUp(List<Arm> arms, double seconds) throws InterruptedException {
        EventLoopEngine engine = engine(arms);
        for (Arm arm : arms) {
            engine.warmUp(mix(arm), 8, seconds);
        }
    }

    /** The lead-in of SPICE's rounds, as bench's own ({@code PairedRounds.LEAD_IN_S}). */
    static final double LEAD_IN_S = 0.5;
    /** The load after a round's last slice, as bench's own ({@code EventLoopEngine.ROUND_RAMP_DOWN_S}). */
    static final double TAIL_S = 0.5;

    /**
     * A vegeta round whose requests went out later than this at the 99th percentile (from t0 + k / rate), or that
     * did not send every request of its slices (it may end a few short in the tail), is left out: its requests no longer fall in the slices their order gave them
     * (SPICE's rounds mark theirs at the same limit). Here vegeta, a connection per request beside the server on two
     * cores, fell 0.3-1.3 s behind at 2,000-3,700 req/s and kept to 1,500 (p99 73 ms over 7 s).
     */
    static final double LAG_LIMIT_MS = CpuRounds.LAG_LIMIT_MS;

    /** How often the servers' CPU is read while vegeta runs a round: a slice's edge falls within this of a reading. */
    private static final long SAMPLE_NANOS = 5_000_000L;

    /**
     * One vegeta process for the whole round, as SPICE's round is one schedule: its targets file holds one line a
     * request in order (the lead-in's, then each slice's rate × its length, then the tail's), which vegeta, reading
     * every target first, sends in turn at the rate, so request k (its sequence number) goes out at t0 + k / rate and
     * counts in the slice it falls in. The servers' CPU is read every {@link #SAMPLE_NANOS} meanwhile, and each slice's
     * edges are interpolated from those readings at t0 (vegeta's first timestamp) + the lead-in + i seconds.
     */
    private static List<CpuSlice> vegetaRound(Path vegeta, List<Arm> order, double rate, double sliceS)
            throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("spice-vegeta-round");
        try {
            int perSlice = (int) Math.round(rate * sliceS);
            int lead = (int) Math.round(rate * LEAD_IN_S);
            int tail = (int) Math.round(rate * TAIL_S);
            StringBuilder targets = new StringBuilder();
            for (int k = 0; k < lead; k++) {
                targets.append("GET ").append(order.get(0).url()).append("\n\n");
            }
            for (Arm arm : order) {
                targets.append(("GET " + arm.url() + "\n\n").repeat(perSlice));
            }
            targets.append(("GET " + order.get(order.size() - 1).url() + "\n\n").repeat(tail));
            int total = lead + perSlice * order.size() + tail;
            Path file = Files.writeString(dir.resolve("targets"), targets, StandardCharsets.US_ASCII);
            List<ServerCpu> servers = order.stream().map(Arm::cpu).distinct().toList();
            List<double[]> samples = new ArrayList<>();   // wall-clock ns, then each server's CPU seconds
            Thread sampler = new Thread(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    Instant now = Instant.now();
                    double[] sample = new double[servers.size() + 1];
                    sample[0] = now.getEpochSecond() * 1e9 + now.getNano();
                    for (int i = 0; i < servers.size(); i++) {
                        sample[i + 1] = servers.get(i).read().serverS();
                    }
                    synchronized (samples) {
                        samples.add(sample);
                    }
                    LockSupport.parkNanos(SAMPLE_NANOS);
                }
            }, "vegeta-round-cpu");
            sampler.start();
            Path results = dir.resolve("results.bin");
            try {
                Vegeta.run(List.of(vegeta.toString(), "attack", "-targets", file.toString(), "-rate",
                        String.format(Locale.ROOT, "%.0f/1s", rate), "-duration", String.format(Locale.ROOT, "%dms",
                                Math.round(total * 1000 / rate)), "-keepalive=false", "-timeout", "10s", "-output",
                        results.toString()), dir.resolve("attack.out"));
            } finally {
                sampler.interrupt();
                sampler.join();
            }
            Path csv = dir.resolve("results.csv");
            Vegeta.run(List.of(vegeta.toString(), "encode", "--to", "csv", "-output", csv.toString(), results.toString()),
                    dir.resolve("encode.out"));
            long[] ok = new long[order.size()];
            long[] failed = new long[order.size()];
            List<String[]> lines = Files.readAllLines(csv).stream().map(line -> line.split(",", -1)).toList();
            double t0 = lines.stream().filter(c -> c[8].equals("0")).mapToDouble(c -> Double.parseDouble(c[0]))
                    .findFirst().orElse(Double.NaN);
            double[] lags = lines.stream().mapToDouble(c -> Double.parseDouble(c[0]) - t0
                    - Long.parseLong(c[8]) * 1e9 / rate).sorted().toArray();
            double lagP99Ms = lags.length == 0 ? Double.NaN : lags[(int) (0.99 * (lags.length - 1))] / 1e6;
            if (lines.size() < total - tail || !(lagP99Ms <= LAG_LIMIT_MS)) {
                System.err.printf(Locale.ROOT, "vegeta round left out: %d of %d requests sent, lag p99 %.0f ms%n",
                        lines.size(), total, lagP99Ms);
                return null;
            }
            for (String[] cells : lines) {
                long seq = Long.parseLong(cells[8]);
                long slice = seq < lead ? -1 : (seq - lead) / perSlice;
                if (slice >= 0 && slice < order.size()) {
                    if (cells[1].equals("200")) {
                        ok[(int) slice]++;
                    } else {
                        failed[(int) slice]++;
                    }
                }
            }
            List<CpuSlice> slices = new ArrayList<>();
            for (int i = 0; i < order.size(); i++) {
                Arm arm = order.get(i);
                int s = servers.indexOf(arm.cpu()) + 1;
                double from = t0 + (LEAD_IN_S + i * sliceS) * 1e9;
                double cpu = at(samples, s, from + sliceS * 1e9) - at(samples, s, from);
                slices.add(new CpuSlice(arm.server(), arm.probe(), ok[i], failed[i], sliceS, cpu, Double.NaN,
                        Double.NaN, Double.NaN, Double.NaN, Double.NaN));
            }
            return slices;
        } finally {
            try (var files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** Column {@code column} of the readings interpolated at {@code when} (wall-clock ns); NaN outside them. */
    static double at(List<double[]> samples, int column, double when) {
        for (int i = 1; i < samples.size(); i++) {
            double[] a = samples.get(i - 1);
            double[] b = samples.get(i);
            if (a[0] <= when && when <= b[0]) {
                return b[0] == a[0] ? a[column] : a[column] + (b[column] - a[column]) * (when - a[0]) / (b[0] - a[0]);
            }
        }
        return Double.NaN;
    }

    /** SPICE's engine over the arms' servers, each server's CPU read as its arm says, at every slice's edge. */
    private static EventLoopEngine engine(List<Arm> arms) {
        Map<String, ServerCpu> residents = new LinkedHashMap<>();
        for (Arm arm : arms) {
            if (arm.server() != null) {
                residents.putIfAbsent(arm.server(), arm.cpu());
            }
        }
        BenchSettings settings = BenchSettings.of(Endpoint.parse(base(arms.get(0).url())),
                arms.stream().map(VegetaRounds::mix).toList());
        settings = settings.with(new Runner(Runner.Engine.EVENT_LOOP, null, 1, ARRIVALS, null));
        return new EventLoopEngine(settings, null, new Stop(), arms.get(0).cpu(), residents);
    }

    /**
     * An arm as the mix SPICE's engine sends: its URL's path, a connection a request; on its server's endpoint where
     * servers run side by side (one server's is the engine's target).
     */
    private static Mix mix(Arm arm) {
        Mix mix = new Mix(arm.probe(), "vegeta-rounds", List.of(new MixEntry(1, URI.create(arm.url()).getRawPath(),
                false, -1)));
        return arm.server() == null ? mix : mix.on(arm.server(), Endpoint.parse(base(arm.url())), false);
    }

    private static String base(String url) {
        URI uri = URI.create(url);
        return uri.getScheme() + "://" + uri.getHost() + ":" + uri.getPort();
    }

    /** Round {@code round}'s order, as bench's rounds shuffle theirs ({@link PairedRounds#arranged}). */
    static <T> List<T> order(List<T> arms, long seed, int round) {
        return PairedRounds.arranged(arms, seed, round);
    }

    /** One line per figure: each arm's CPU per request, each probe against its static file, each cross ratio. */
    public static List<String> figures(CpuRounds rounds) {
        List<String> lines = new ArrayList<>();
        List<String> servers = rounds.arms();
        for (String server : servers.isEmpty() ? Collections.<String>singletonList(null) : servers) {
            CpuRounds own = server == null ? rounds : rounds.of(server);
            Map<String, RoundFigures.Figures> figures = RoundFigures.of(own, p -> SpiceFigures.CpuSource.SERVER);
            figures.values().forEach(f -> lines.add(String.format(Locale.ROOT, "%s%s: %.1f µs ± %.1f %%; × static %.3f"
                    + " ± %.1f %% (%d rounds)", server == null ? "" : server + " ", f.probe(), f.cpuUsPerReq(),
                    100 * f.cpuUsPerReqCi() / f.cpuUsPerReq(), f.paired().ratio(), 100 * f.paired().relativeCi(),
                    f.paired().rounds())));
        }
        if (!servers.isEmpty()) {
            for (Across.Cross c : CrossFigures.of(rounds, (a, p) -> SpiceFigures.CpuSource.SERVER)) {
                lines.add(String.format(Locale.ROOT, "%s %s/%s %.3f ± %.1f %% (%d rounds)", c.label(), c.a(), c.b(),
                        c.ratio(), 100 * c.relativeCiOfRatio(), c.rounds()));
            }
        }
        return lines;
    }

    /** RATE ROUNDS ARM...: each ARM server/probe=URL@CGROUP; prints the figures. */
    public static void main(String[] args) throws Exception {
        double rate = Double.parseDouble(args[0]);
        int rounds = Integer.parseInt(args[1]);
        List<Arm> arms = new ArrayList<>();
        for (int i = 2; i < args.length; i++) {
            String[] nameAndRest = args[i].split("=", 2);
            String[] serverAndProbe = nameAndRest[0].split("/", 2);
            int at = nameAndRest[1].lastIndexOf('@');
            ServerCpu cpu = new ServerCpu(List.of(), true, List.of(), Cgroup.at(Path.of(nameAndRest[1].substring(at + 1))));
            arms.add(new Arm(serverAndProbe.length == 2 ? serverAndProbe[0] : null,
                    serverAndProbe[serverAndProbe.length - 1], nameAndRest[1].substring(0, at), cpu));
        }
        List<CpuRounds> both = run(Vegeta.find(), arms, rate, 1, rounds, 1);
        System.out.println("SPICE's open rounds at " + rate + " req/s:");
        figures(both.get(0)).forEach(line -> System.out.println("  " + line));
        System.out.println("vegeta's rounds at " + rate + " req/s:");
        figures(both.get(1)).forEach(line -> System.out.println("  " + line));
        System.out.println("each round's server µs a request (SPICE | vegeta), each slice: arm µs requests:");
        for (int r = 1; r <= rounds; r++) {
            System.out.println("  round " + r + ": " + slices(both.get(0), r) + " | " + slices(both.get(1), r));
        }
    }

    /** Round {@code number}'s slices as "static 170.2 1199, …" ({@code -} when the round was left out). */
    private static String slices(CpuRounds rounds, int number) {
        CpuRounds.Round round = rounds.rounds().stream().filter(x -> x.round() == number).findFirst().orElse(null);
        if (round == null) {
            return "-";
        }
        return (round.jitBusy() ? "(JIT) " : "") + String.join(", ", round.slices().stream().map(t -> String.format(
                Locale.ROOT, "%s %.1f %d", t.arm(), 1e6 * t.serverCpuS() / t.requests(), t.requests())).toList());
    }
}
