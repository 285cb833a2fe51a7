package org.spice.bench.run;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.spice.bench.analysis.CrossFigures;
import org.spice.bench.analysis.CrossResults;
import org.spice.bench.engine.EventLoopEngine;
import org.spice.bench.mix.Mix;
import org.spice.bench.model.Arm;
import org.spice.bench.model.BenchSettings;
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

/**
 * What servers side by side add to a {@link BenchRun}: every one resident at once on its own port and in its own
 * cgroup, their CPU rounds on one engine that reads each server's CPU at every slice's edge, all servers' slices in
 * the same rounds ({@link PairedRounds}, {@link CrossRounds}); each server's results get its own slices, and the
 * rounds' figures across servers go to {@code DIR/results.json} ({@code cpu_rounds}, {@code cross_ratios}).
 */
public final class SideBySide {

    /**
     * How the servers are measured together.
     *
     * @param protocols each server's arms: one per protocol (the first is its ladder's)
     * @param pairs the comparisons named (--pairs, as {@link CrossFigures.Pair} reads them); empty for every pair
     * @param earlier the rounds of the earlier starts of the same servers (--restarts), whose figures this start's join
     * @param last whether this is the last start: each server then runs its own phases (its ladder) and the run
     *             prints its answer; the earlier starts measure the rounds only, and print nothing but their progress
     * @param dir where the side-by-side results go (each server's go to its settings' out dir)
     */
    public record Plan(List<Protocol> protocols, List<String> pairs, List<CpuRounds> earlier, boolean last, Path dir) {

        public Plan {
            protocols = List.copyOf(protocols);
            pairs = List.copyOf(pairs);
            earlier = List.copyOf(earlier);
        }
    }

    /** Makes the one engine the servers' rounds share: its settings, TLS, stop, every server's CPU and each arm's. */
    interface SharedEngine {
        LoadEngine.Windowed start(BenchSettings settings, TlsConfig tls, Stop stop, ServerCpu all,
                Map<String, ServerCpu> residents) throws IOException, GeneralSecurityException;
    }

    private final List<BenchRun.Instance> instances;
    private final Plan plan;
    private final SharedEngine engines;
    private final List<Path> dirs;
    private final PrintStream err;
    /** The side-by-side rounds so far (null before the first). */
    private CpuRounds crossRounds;
    /** DIR/results.json as last written, its figures concluded: what the answer draws. */
    private Results written;
    private final String startedAt = OffsetDateTime.now().withNano(0).toString();

    /** @param dirs each server's results directory, as the run makes them */
    SideBySide(List<BenchRun.Instance> instances, Plan plan, List<Path> dirs, PrintStream err) {
        this(instances, plan, dirs, err, EventLoopEngine::new);
    }

    /** As above, the shared engine made by {@code engines} (a test's fake one). */
    SideBySide(List<BenchRun.Instance> instances, Plan plan, List<Path> dirs, PrintStream err, SharedEngine engines) {
        this.instances = List.copyOf(instances);
        this.plan = plan;
        this.dirs = dirs;
        this.err = err;
        this.engines = engines;
    }

    /** This start's side-by-side rounds, as far as they ran; null if none did. */
    CpuRounds crossRounds() {
        return crossRounds;
    }

    /** DIR/results.json as last written; null if it never was. */
    Results written() {
        return written;
    }

    /**
     * The rounds over every server at once ({@link PairedRounds}), from one engine that reads each server's CPU at
     * every slice's edge, each server's other protocols warmed first; each server's results get its own slices, and
     * DIR/results.json all of them.
     */
    Failure rounds(List<Phases.Member> open, double warmUpS, Stop stop)
            throws InterruptedException, IOException, GeneralSecurityException {
        BenchSettings first = open.get(0).settings();
        if (!first.cpuRoundsRun()) {
            return null;
        }
        Set<Long> pids = new LinkedHashSet<>();
        Map<String, ServerCpu> residents = new LinkedHashMap<>();
        Map<Phases.Member, ServerCpu> readers = readers(open);
        List<Mix> arms = new ArrayList<>();
        for (int i = 0; i < open.size(); i++) {
            pids.addAll(open.get(i).settings().server().pids());
            for (Protocol protocol : plan.protocols()) {
                residents.put(arm(instances.get(i), protocol), readers.get(open.get(i)));
                arms.addAll(arms(instances.get(i), protocol));
            }
        }
        TlsConfig tls = plan.protocols().stream().anyMatch(Protocol::tls) ? TlsConfig.create(first.target().trustCert(),
                first.target().tlsResume()) : open.get(0).ready().tls();
        // this machine's CPU is the servers' machine's only where every one of them runs here
        boolean local = open.stream().allMatch(o -> o.settings().target().http().isLocal());
        ServerCpu all = new ServerCpu(List.copyOf(pids), local, List.of(), null);
        LoadEngine.Windowed engine = engines.start(first.with(first.server().withPids(List.copyOf(pids))), tls, stop, all,
                residents);
        List<Results.Member> members = members(open);
        warmOtherProtocols(open, arms, engine, stop);
        PairedRounds.Arms together = new PairedRounds.Arms(arms, engine, CrossResults.sources(members),
                stealLimit(open), CpuMeter.anyJava(List.copyOf(pids)), plan.pairs(), open.size());
        Failure cut = new PairedRounds(together, first.cpu(), first.runner().seed(), stop, err).run(warmUpS, soFar -> {
            crossRounds = soFar;
            for (int i = 0; i < open.size(); i++) {
                open.get(i).recorder().rounds(soFar.of(arm(instances.get(i), plan.protocols().get(0))));
            }
            written = write(open, members, true, "the rounds are still running");
        });
        if (crossRounds != null) {
            written = write(open, members, cut != null, cut == null ? null : cut.reason());
        }
        return cut;
    }

    /** DIR/results.json as the rounds stand: partial, with why, until they end. */
    private Results write(List<Phases.Member> open, List<Results.Member> members, boolean partial, String why)
            throws IOException {
        BenchSettings first = open.get(0).settings();
        return CrossResults.write(plan.dir(), members, plan.protocols(), starts(), open.get(0).ready().recorded(),
                first.load().bytes(), startedAt, partial, why);
    }

    /** A server's workloads as its arm under {@code protocol}: to its endpoint for it, as that protocol speaks. */
    private List<Mix> arms(BenchRun.Instance instance, Protocol protocol) {
        String arm = arm(instance, protocol);
        Target target = instance.settings().target();
        Endpoint to = protocol.tls() ? target.https() : protocol == Protocol.H2C ? target.h2cEndpoint() : target.http();
        return instance.settings().load().mixes().stream().map(m -> protocol.http2() ? m.onHttp2(arm, to)
                : m.on(arm, to, protocol == Protocol.KEEPALIVE)).toList();
    }

    /** The steal past which a slice is left out: above the most any server's idle measurement saw. */
    private static StealLimit stealLimit(List<Phases.Member> open) {
        return PairedRounds.stealLimit(open.stream().map(o -> o.recorder().idle()).filter(i -> i != null)
                .max(Comparator.comparingDouble(i -> Double.isNaN(i.stealCores()) ? 0 : i.stealCores()))
                .orElse(null));
    }

    /**
     * What reads each server's CPU at the slices' edges: its own, but one for servers read in the same place (targets
     * named twice over one server, the A/A of a deployment), so that the "idle others" are not the server itself.
     */
    private static Map<Phases.Member, ServerCpu> readers(List<Phases.Member> open) {
        Map<List<Object>, ServerCpu> byPlace = new LinkedHashMap<>();
        Map<Phases.Member, ServerCpu> readers = new LinkedHashMap<>();
        for (Phases.Member o : open) {
            ServerSide side = o.settings().server();
            readers.put(o, byPlace.computeIfAbsent(List.of(side.pids(), side.metrics(), String.valueOf(side.cgroup())),
                    k -> o.ready().serverCpu()));
        }
        return readers;
    }

    /** Each server warmed under its first protocol; its other protocols' code (TLS above all) is still cold. */
    private void warmOtherProtocols(List<Phases.Member> open, List<Mix> arms, LoadEngine.Windowed engine, Stop stop)
            throws InterruptedException, IOException {
        List<Protocol> protocols = plan.protocols();
        for (int i = 0; i < open.size(); i++) {
            BenchRun.Instance instance = instances.get(i);
            List<Mix> others = arms.stream().filter(m -> protocols.stream().skip(1)
                    .anyMatch(p -> arm(instance, p).equals(m.server()))).toList();
            if (!others.isEmpty() && !stop.requested()) {
                err.println("warm-up: " + instance.name() + " under " + protocols.subList(1, protocols.size()));
                new WarmUp(engine, stop, err).steady(engine, others, instance.settings().cpu().clients(),
                        instance.settings().timing().warmUpS(), 0, open.get(i).ready().serverCpu());
            }
        }
    }

    /** The rounds of every start so far, this one's last. */
    private List<CpuRounds> starts() {
        List<CpuRounds> starts = new ArrayList<>(plan.earlier());
        starts.add(crossRounds);
        return starts;
    }

    /** The name of a server's arm under {@code protocol}: the server's alone where every arm speaks one protocol. */
    private String arm(BenchRun.Instance instance, Protocol protocol) {
        return Arm.of(instance.name(), protocol, plan.protocols().size() > 1).name();
    }

    /** Each server as the side-by-side results name it, with its own results directory (every one made by now). */
    private List<Results.Member> members(List<Phases.Member> open) {
        List<Results.Member> members = new ArrayList<>();
        for (int i = 0; i < open.size(); i++) {
            BenchRun.Instance instance = instances.get(i);
            members.add(new Results.Member(instance.name(), instance.server(),
                    Preflight.cpuFrom(instance.settings().server(), open.get(i).ready().serverCpu()),
                    i < dirs.size() ? dirs.get(i).toAbsolutePath().toString() : null));
        }
        return members;
    }
}
