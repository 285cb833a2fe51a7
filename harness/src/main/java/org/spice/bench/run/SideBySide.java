package org.spice.bench.run;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.spice.bench.analysis.CrossFigures;
import org.spice.bench.analysis.CrossResults;
import org.spice.bench.engine.EventLoopEngine;
import org.spice.bench.figures.CpuSources;
import org.spice.bench.mix.Mix;
import org.spice.bench.model.Arm;
import org.spice.bench.model.BenchSettings;
import org.spice.bench.model.CpuPlan;
import org.spice.bench.model.CpuRounds;
import org.spice.bench.model.Failure;
import org.spice.bench.model.LoadEngine;
import org.spice.bench.model.Protocol;
import org.spice.bench.model.Results;
import org.spice.bench.model.ServerSide;
import org.spice.bench.model.StealLimit;
import org.spice.bench.model.Stop;
import org.spice.bench.model.Target;
import org.spice.bench.net.Endpoint;
import org.spice.bench.net.TlsConfig;
import org.spice.bench.proc.CpuMeter;
import org.spice.bench.proc.ServerCpu;
import org.spice.bench.report.ReportWriter;

/**
 * Servers side by side, every one resident at once on its own port and in its own cgroup: each is checked and warmed
 * as a bench of its own would be ({@link Preflight}, {@link WarmUp}), then {@link CrossRounds} measure all of them in
 * the same rounds, then each runs its ladder (the others idle) and its results are written as a bench of one server
 * writes them, its CPU figures from the shared rounds. The rounds' figures across servers go to
 * {@code DIR/results.json} ({@code cpu_rounds}, {@code cross_ratios}) and to the terminal. A signal ends the run where
 * it is, every server's results written, marked partial.
 */
public final class SideBySide {

    /**
     * One server of the run: the name its slices carry, which server it is (scripts/spice's name; a deployment's, its
     * name), its settings as a bench of it alone would have, and notes its results carry from before the run (the
     * probes a target does not serve).
     */
    public record Instance(String name, String server, BenchSettings settings, List<String> notes) {

        public Instance {
            notes = List.copyOf(notes);
        }

        public Instance(String name, String server, BenchSettings settings) {
            this(name, server, settings, List.of());
        }
    }

    private final List<Instance> instances;
    private final List<Protocol> protocols;
    private final List<String> pairs;
    private final List<CpuRounds> earlier;
    private final boolean ladder;
    private final Path dir;
    private final PrintStream out;
    private final PrintStream err;
    private final List<Path> dirs = new ArrayList<>();
    /** The side-by-side rounds so far (null before the first), and where each arm's CPU figure comes from. */
    private CpuRounds crossRounds;
    private CpuSources sourceOf;
    /** DIR/results.json as last written, its figures concluded: what the answer draws. */
    private Results written;
    private final String startedAt = OffsetDateTime.now().withNano(0).toString();

    /**
     * @param protocols each server's arms: one per protocol (the first is its ladder's)
     * @param pairs the comparisons named (--pairs, as {@link CrossFigures.Pair} reads them); empty for every pair
     * @param earlier the rounds of the earlier starts of the same servers (--restarts), whose figures this start's join
     * @param ladder whether each server then runs its ladder (the last start does; the earlier ones measure the rounds
     *               only, and print nothing but their progress)
     * @param dir where the side-by-side results go (each server's go to its settings' out dir)
     */
    public SideBySide(List<Instance> instances, List<Protocol> protocols, List<String> pairs, List<CpuRounds> earlier,
            boolean ladder, Path dir, PrintStream out, PrintStream err) {
        this.instances = List.copyOf(instances);
        this.protocols = List.copyOf(protocols);
        this.pairs = List.copyOf(pairs);
        this.earlier = List.copyOf(earlier);
        this.ladder = ladder;
        this.dir = dir;
        this.out = out;
        this.err = err;
    }

    /** This start's side-by-side rounds, as far as they ran; null if none did. */
    public CpuRounds crossRounds() {
        return crossRounds;
    }

    /** Each server's results directory, once made. */
    public List<Path> dirs() {
        return List.copyOf(dirs);
    }

    /** An instance ready to run: its checks passed, its recorder open, its engine started. */
    private record Open(Instance instance, Preflight.Ready ready, Recorder recorder, LoadEngine engine) {
    }

    /** @return the exit status */
    public int run() {
        List<Open> open = new ArrayList<>();
        Stop stop = new Stop();
        try (Signals signals = Signals.watch(stop, err)) {
            for (Instance instance : instances) {
                BenchSettings settings = instance.settings();
                Preflight.Ready ready;
                try {
                    ready = Preflight.check(settings, err);
                    Recorder recorder = Recorder.open(settings, ready, err);
                    instance.notes().forEach(recorder::note);
                    dirs.add(recorder.dir());
                    open.add(new Open(instance, ready, recorder, Engines.start(settings, ready.tls(), ready.serverCpu(),
                            recorder.dir(), stop, err)));
                } catch (Preflight.Refused refused) {
                    err.println("spice bench: " + instance.name() + ": " + refused.getMessage());
                    return refused.status();
                }
            }
            open.forEach(o -> o.recorder().engine(o.engine()));
            Failure cut = Phases.run(open.stream().map(o -> new Phases.Member(o.instance().settings(), o.ready(),
                    o.recorder(), o.engine())).toList(), warmUpS -> open.get(0).instance().settings().cpuRoundsRun()
                    ? rounds(open, stop) : null, ladder, stop, err);
            int status = 0;
            PrintStream where = ladder ? out : new PrintStream(OutputStream.nullOutputStream());
            for (Open o : open) {
                status = Math.max(status, o.recorder().finish(cut, where, false));
            }
            if (written != null && ladder) {
                try {
                    out.print(ReportWriter.write(dir, written));
                    out.println("side by side: " + dir.resolve(ReportWriter.PAGE).toAbsolutePath()
                            + " (results.json beside it)");
                } catch (IOException e) {
                    err.println("spice bench: cannot write " + dir.resolve(ReportWriter.PAGE) + ": " + e.getMessage());
                    status = Math.max(status, 1);
                }
            }
            return signals.status() != 0 ? signals.status() : status;
        }
    }

    /**
     * The rounds over every server at once, from one engine that reads each server's CPU at every slice's edge: a
     * settling round first, unmeasured (the servers warmed before the last have been idle since), then
     * {@link CrossRounds}; each server's results get its own slices, and DIR/results.json all of them.
     */
    private Failure rounds(List<Open> open, Stop stop) throws InterruptedException, IOException, GeneralSecurityException {
        BenchSettings first = open.get(0).instance().settings();
        Set<Long> pids = new LinkedHashSet<>();
        Map<String, ServerCpu> residents = new LinkedHashMap<>();
        Map<Open, ServerCpu> readers = readers(open);
        List<Mix> arms = new ArrayList<>();
        for (Open o : open) {
            pids.addAll(o.instance().settings().server().pids());
            for (Protocol protocol : protocols) {
                residents.put(arm(o.instance(), protocol), readers.get(o));
                arms.addAll(arms(o.instance(), protocol));
            }
        }
        TlsConfig tls = protocols.stream().anyMatch(Protocol::tls) ? TlsConfig.create(first.target().trustCert(),
                first.target().tlsResume()) : open.get(0).ready().tls();
        // this machine's CPU is the servers' machine's only where every one of them runs here
        boolean local = open.stream().allMatch(o -> o.instance().settings().target().http().isLocal());
        ServerCpu all = new ServerCpu(List.copyOf(pids), local, List.of(), null);
        EventLoopEngine engine = new EventLoopEngine(first.with(first.server().withPids(List.copyOf(pids))), tls, stop,
                all, residents);
        List<Results.Member> members = members(open);
        sourceOf = CrossResults.sources(members);
        warmOtherProtocols(open, arms, engine, stop);
        CpuPlan plan = first.cpu();
        // The servers warmed before the last have been idle since: a round settles them, unmeasured (its rates are
        // what --cpu-rate auto takes its rate from).
        LoadEngine.Round settling = engine.round(CrossRounds.order(arms, first.runner().seed(), 0), plan.clients(),
                PairedRounds.LEAD_IN_S, false);
        RoundRate rate = RoundRate.of(plan, settling);
        if (plan.openLoop() && rate == null) {
            return Failure.of(Failure.Kind.NO_ANSWER, "--cpu-rate auto: no arm was served in the round that finds the"
                    + " rate");
        }
        CrossRounds rounds = new CrossRounds(arms, pairs, first.runner().seed(), plan.clients(), plan.precision(),
                plan.timeS() * open.size() * protocols.size(), sourceOf, engine, rate, stealLimit(open),
                CpuMeter.anyJava(List.copyOf(pids)), stop, err);
        Failure cut = rounds.run(soFar -> {
            crossRounds = soFar;
            for (Open o : open) {
                o.recorder().rounds(soFar.of(arm(o.instance(), protocols.get(0))));
            }
            written = write(open, members, true, "the rounds are still running");
        }, null);
        if (crossRounds != null) {
            written = write(open, members, cut != null, cut == null ? null : cut.reason());
        }
        return cut;
    }

    /** DIR/results.json as the rounds stand: partial, with why, until they end. */
    private Results write(List<Open> open, List<Results.Member> members, boolean partial, String why)
            throws IOException {
        BenchSettings first = open.get(0).instance().settings();
        return CrossResults.write(dir, members, protocols, starts(), open.get(0).ready().recorded(), first.load().bytes(),
                startedAt, partial, why);
    }

    /** A server's workloads as its arm under {@code protocol}: to its endpoint for it, as that protocol speaks. */
    private List<Mix> arms(Instance instance, Protocol protocol) {
        String arm = arm(instance, protocol);
        Target target = instance.settings().target();
        Endpoint to = protocol.tls() ? target.https() : protocol == Protocol.H2C ? target.h2cEndpoint() : target.http();
        return instance.settings().load().mixes().stream().map(m -> protocol.http2() ? m.onHttp2(arm, to)
                : m.on(arm, to, protocol == Protocol.KEEPALIVE)).toList();
    }

    /** The steal past which a slice is left out: above the most any server's idle measurement saw. */
    private static StealLimit stealLimit(List<Open> open) {
        return PairedRounds.stealLimit(open.stream().map(o -> o.recorder().idle()).filter(i -> i != null)
                .max(java.util.Comparator.comparingDouble(i -> Double.isNaN(i.stealCores()) ? 0 : i.stealCores()))
                .orElse(null));
    }

    /**
     * What reads each server's CPU at the slices' edges: its own, but one for servers read in the same place (targets
     * named twice over one server, the A/A of a deployment), so that the "idle others" are not the server itself.
     */
    private static Map<Open, ServerCpu> readers(List<Open> open) {
        Map<List<Object>, ServerCpu> byPlace = new LinkedHashMap<>();
        Map<Open, ServerCpu> readers = new LinkedHashMap<>();
        for (Open o : open) {
            ServerSide side = o.instance().settings().server();
            readers.put(o, byPlace.computeIfAbsent(List.of(side.pids(), side.metrics(), String.valueOf(side.cgroup())),
                    k -> o.ready().serverCpu()));
        }
        return readers;
    }

    /** Each server warmed under its first protocol; its other protocols' code (TLS above all) is still cold. */
    private void warmOtherProtocols(List<Open> open, List<Mix> arms, EventLoopEngine engine, Stop stop)
            throws InterruptedException, IOException {
        for (Open o : open) {
            List<Mix> others = arms.stream().filter(m -> protocols.stream().skip(1)
                    .anyMatch(p -> arm(o.instance(), p).equals(m.server()))).toList();
            if (!others.isEmpty() && !stop.requested()) {
                err.println("warm-up: " + o.instance().name() + " under " + protocols.subList(1, protocols.size()));
                new WarmUp(engine, stop, err).steady(engine, others, o.instance().settings().cpu().clients(),
                        o.instance().settings().timing().warmUpS(), 0, o.ready().serverCpu());
            }
        }
    }

    /** The rounds of every start so far, this one's last. */
    private List<CpuRounds> starts() {
        List<CpuRounds> starts = new ArrayList<>(earlier);
        starts.add(crossRounds);
        return starts;
    }

    /** The name of a server's arm under {@code protocol}: the server's alone where every arm speaks one protocol. */
    private String arm(Instance instance, Protocol protocol) {
        return Arm.of(instance.name(), protocol, protocols.size() > 1).name();
    }

    /** Each server as the side-by-side results name it, with its own results directory (every one made by now). */
    private List<Results.Member> members(List<Open> open) {
        List<Results.Member> members = new ArrayList<>();
        for (int i = 0; i < open.size(); i++) {
            Instance instance = open.get(i).instance();
            members.add(new Results.Member(instance.name(), instance.server(),
                    Preflight.cpuFrom(instance.settings().server(), open.get(i).ready().serverCpu()),
                    i < dirs.size() ? dirs.get(i).toAbsolutePath().toString() : null));
        }
        return members;
    }
}
